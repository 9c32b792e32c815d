package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// seriesStyle is how one column is drawn: as a bar (fill, outline) and
// as a line with points (line colour, dashes, glyph shape).
type seriesStyle struct {
	fill, outline color.Color // outline nil: none
	line          color.Color
	dashes        []vg.Length
	shape         draw.GlyphDrawer
}

// The hues of Tableau's ten categorical colours without its grey (the
// bound plot draws baselines grey), dark and light (its twenty-colour
// companion's tints).
var (
	darkHues = []color.RGBA{
		{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255},
		{140, 86, 75, 255}, {227, 119, 194, 255}, {188, 189, 34, 255}, {23, 190, 207, 255},
	}
	lightHues = []color.RGBA{
		{174, 199, 232, 255}, {255, 187, 120, 255}, {152, 223, 138, 255}, {255, 152, 150, 255}, {197, 176, 213, 255},
		{196, 156, 148, 255}, {247, 182, 210, 255}, {219, 219, 141, 255}, {158, 218, 229, 255},
	}
	black = color.RGBA{A: 255}
)

// styleCycles is how many rounds of the hues columnStyle tells apart:
// columnStyle(j) is distinct for j < styleCycles × len(darkHues) (36),
// then repeats.
const styleCycles = 4

// columnStyle is column j's style. Colour alone runs out after the
// hues, and a sweep of eight or more columns is common, so each further
// round of the hues changes the rest: a bar's tint and outline, a line's
// dashes and its points' shape.
func columnStyle(j int) seriesStyle {
	hue, cycle := j%len(darkHues), (j/len(darkHues))%styleCycles
	dark, light := darkHues[hue], lightHues[hue]
	switch cycle {
	case 1:
		return seriesStyle{fill: light, outline: dark, line: dark, dashes: points(5, 3), shape: draw.TriangleGlyph{}}
	case 2:
		return seriesStyle{fill: dark, outline: black, line: dark, dashes: points(1.5, 2), shape: draw.SquareGlyph{}}
	case 3:
		return seriesStyle{fill: light, outline: black, line: dark, dashes: points(6, 2, 1.5, 2), shape: draw.CrossGlyph{}}
	}
	return seriesStyle{fill: dark, line: dark, shape: draw.CircleGlyph{}}
}

// points is a dash pattern in points.
func points(pt ...float64) []vg.Length {
	out := make([]vg.Length, len(pt))
	for i, v := range pt {
		out[i] = vg.Points(v)
	}
	return out
}

// styleBars draws a bar chart in st.
func styleBars(b *plotter.BarChart, st seriesStyle) {
	b.Color, b.LineStyle.Width = st.fill, 0
	if st.outline != nil {
		b.LineStyle.Color, b.LineStyle.Width = st.outline, vg.Points(1)
	}
}

// styleLine draws a line and its points in st.
func styleLine(l *plotter.Line, pts *plotter.Scatter, st seriesStyle) {
	l.Color, l.Dashes = st.line, st.dashes
	if pts != nil {
		pts.Color, pts.Shape = st.line, st.shape
	}
}

// ratioTicks labels a ratio axis every 1, 2 or 5 × 10^k, all labels with
// the decimals the step needs ("0.95 1.00 1.05"), with unlabelled ticks
// between. gonum's default picks its decimals from the range's magnitude,
// which over a narrow range near 1 rounds neighbours to the same label
// ("1 1 1.1 1.1").
type ratioTicks struct{}

// Ticks implements plot.Ticker.
func (ratioTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	step := niceStep((hi - lo) / 5)
	decimals := max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	var ticks []plot.Tick
	// Half-steps counted in integers: repeated float addition drifts.
	for k := math.Ceil(lo / step * 2); k*step/2 <= hi+step*1e-9; k++ {
		v := k * step / 2
		if v == 0 {
			v = 0 // not -0, which would print as "-0"
		}
		t := plot.Tick{Value: v}
		if math.Mod(k, 2) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// refColour is the reference lines' colour: lighter than the data,
// darker than the grid.
var refColour = color.RGBA{R: 150, G: 150, B: 150, A: 255}

// refLine marks a value on an axis of p across the whole plot area, as a
// light dashed line (the bound, 1.00 on a ratio to it).
type refLine struct {
	v        float64
	vertical bool // x = v; else y = v
}

// Plot implements plot.Plotter.
func (r refLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	ls := draw.LineStyle{Color: refColour, Width: vg.Points(0.8), Dashes: points(4, 3)}
	if r.vertical {
		if x := trX(r.v); x >= c.Min.X && x <= c.Max.X {
			c.StrokeLine2(ls, x, c.Min.Y, x, c.Max.Y)
		}
		return
	}
	if y := trY(r.v); y >= c.Min.Y && y <= c.Max.Y {
		c.StrokeLine2(ls, c.Min.X, y, c.Max.X, y)
	}
}
