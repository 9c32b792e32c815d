package harness

import (
	"image/color"

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
