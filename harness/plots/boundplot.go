package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dssim-go/dssim-go/harness/report"
)

// boundPoint is one column at its averages in the two bound tables
// (turnaround / mean actual runtime, cost / perfect-packing cost).
type boundPoint struct {
	col       string
	tat, cost float64
	baseline  bool
}

// family is the strategy a column runs: the column label before its
// parameters ("frontier:preset=cost" runs frontier).
func (b boundPoint) family() string {
	name, _, _ := strings.Cut(b.col, ":")
	return name
}

// short labels a member of a sweep by its parameters alone: the sweep's
// legend entry names the strategy.
func (b boundPoint) short() string {
	if _, params, ok := strings.Cut(b.col, ":"); ok {
		return params
	}
	return b.col
}

// near is what counts as close to a bound (30 % above it): the middle
// panel shows the columns within near of the turnaround bound, the right
// one those within near of both, beside every swept strategy.
const near = 1.3

// maxLabel caps a point's label in runes (a composite's member list can
// run to sixty); the tables beside the plot carry the full column names.
const maxLabel = 30

// panel is which columns a panel frames.
type panel int

const (
	panelAll   panel = iota // every column, turnaround on a log axis
	panelNear               // the columns within near of the turnaround bound
	panelClose              // the sweeps and the columns within near of both bounds
)

// WriteWithBounds is what dsbench --plots writes: Write's plots
// and the bound plot.
func WriteWithBounds(dir string, c report.Comparison) ([]string, error) {
	files, err := Write(dir, c)
	if err != nil {
		return files, err
	}
	more, err := WriteBoundPlot(dir, c)
	return append(files, more...), err
}

// WriteBoundPlot writes bounds.{svg,png} into dir: every column at its
// average cost ratio against its average turnaround ratio, the values of
// the two bound tables, so 1.00 on either axis is the physical bound and
// the plot needs no baseline to normalise by. Three panels side by side:
// every column, turnaround on a log axis (baselines that queue everything
// sit at ratios in the hundreds); the columns within near of the
// turnaround bound; a close-up of the swept strategies (a strategy run
// with several parameter values, drawn as a line through its points in
// turnaround order) and the columns within near of both bounds. Columns
// without both averages (no complete config) are left out; the first
// panel's title names the configs the averages leave out.
func WriteBoundPlot(dir string, c report.Comparison) ([]string, error) {
	pts := boundPoints(c)
	var panels []*plot.Plot
	for _, k := range []struct {
		title string
		which panel
	}{
		{"every strategy (turnaround on a log axis)", panelAll},
		{"turnaround within 30 % of the bound", panelNear},
		{"close up: sweeps, and both within 30 %", panelClose},
	} {
		title := k.title
		if note := boundNote(c); note != "" && k.which == panelAll {
			title += "\n" + note
		}
		p, err := boundPanel(pts, title, k.which, frame(pts, k.which))
		if err != nil {
			return nil, err
		}
		panels = append(panels, p)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, ext := range Formats {
		f := filepath.Join(dir, "bounds."+ext)
		if err := saveSideBySide(f, ext, panels); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// boundNote is the bound plot's word on the configs its averages leave
// out (leftOutNote), on its first panel.
func boundNote(c report.Comparison) string {
	if len(c.BoundTables) < 2 {
		return "nothing to draw: no bound tables"
	}
	return leftOutNote(c.BoundTables[0], c.BoundTables[1])
}

// boundPoints reads the columns' averages from the bound tables.
func boundPoints(c report.Comparison) []boundPoint {
	if len(c.BoundTables) < 2 {
		return nil
	}
	tt, co := c.BoundTables[0], c.BoundTables[1]
	var pts []boundPoint
	for j, col := range tt.Columns {
		x, y := tt.Average[j], co.Average[j]
		if math.IsNaN(x) || math.IsNaN(y) || x <= 0 || y <= 0 {
			continue
		}
		pts = append(pts, boundPoint{col: col, tat: x, cost: y, baseline: slices.Contains(c.Baselines, col)})
	}
	return pts
}

// sweeps returns the families run with more than one column, in the
// order they first appear.
func sweeps(pts []boundPoint) []string {
	n := map[string]int{}
	var order []string
	for _, p := range pts {
		if n[p.family()]++; n[p.family()] == 1 {
			order = append(order, p.family())
		}
	}
	return slices.DeleteFunc(order, func(f string) bool { return n[f] < 2 })
}

// window is a panel's axis ranges.
type window struct{ xmin, xmax, ymin, ymax float64 }

// frame returns a panel's window around the points it frames (see
// panel), with a margin, and never above the bound (1, 1) at the lower
// left, so the distance to the bound reads off the axes.
func frame(pts []boundPoint, which panel) window {
	sw := sweeps(pts)
	w := window{1, 1, 1, 1}
	for _, p := range pts {
		if !framed(p, which, sw) {
			continue
		}
		w.xmin, w.xmax = min(w.xmin, p.tat), max(w.xmax, p.tat)
		w.ymin, w.ymax = min(w.ymin, p.cost), max(w.ymax, p.cost)
	}
	dy := max(w.ymax-w.ymin, 0.05)
	w.ymin, w.ymax = w.ymin-0.02*dy, w.ymax+0.1*dy
	if which == panelAll {
		w.xmin, w.xmax = w.xmin*0.98, w.xmax*3
		return w
	}
	dx := max(w.xmax-w.xmin, 0.02)
	w.xmin, w.xmax = w.xmin-0.02*dx, w.xmax+0.3*dx // room for labels on the right
	return w
}

// framed tells whether panel which shows p (sw: the sweeps): the others
// are left out, not only clipped, since a sweep reaching far up (the
// turnaround preset's cost) would frame columns the panel's title
// excludes.
func framed(p boundPoint, which panel, sw []string) bool {
	switch which {
	case panelNear:
		return p.tat <= near
	case panelClose:
		return slices.Contains(sw, p.family()) || p.tat <= near && p.cost <= near
	}
	return true
}

// boundPanel draws the points in window w: baselines as grey squares,
// other single columns as blue circles, each sweep as a coloured line
// through its points with a legend entry (its points labelled in the
// close-up only, where there is room), and the bound, 1 on either axis,
// as a light dashed line; only the points the panel frames (see framed).
// Points outside w are clipped.
func boundPanel(pts []boundPoint, title string, which panel, w window) (*plot.Plot, error) {
	logX := which == panelAll
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "turnaround / mean actual runtime (1 = bound)"
	p.Y.Label.Text = "cost / perfect-packing cost (1 = bound)"
	p.X.Tick.Marker, p.Y.Tick.Marker = ratioTicks{}, ratioTicks{}
	if logX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid(), refLine{v: 1, vertical: true}, refLine{v: 1})
	sw := sweeps(pts)
	pts = slices.DeleteFunc(slices.Clone(pts), func(q boundPoint) bool { return !framed(q, which, sw) })
	grey, blue := color.RGBA{R: 110, G: 110, B: 110, A: 255}, color.RGBA{R: 31, G: 119, B: 180, A: 255}
	var base, single []boundPoint
	for _, q := range pts {
		switch {
		case slices.Contains(sw, q.family()):
		case q.baseline:
			base = append(base, q)
		default:
			single = append(single, q)
		}
	}
	labels, err := addPoints(p, base, seriesStyle{line: grey, shape: draw.SquareGlyph{}}, true, false)
	if err != nil {
		return nil, err
	}
	more, err := addPoints(p, single, seriesStyle{line: blue, shape: draw.CircleGlyph{}}, true, false)
	if err != nil {
		return nil, err
	}
	labels = append(labels, more...)
	for i, f := range sw {
		var mine []boundPoint
		for _, q := range pts {
			if q.family() == f {
				mine = append(mine, q)
			}
		}
		slices.SortStableFunc(mine, func(a, b boundPoint) int { return cmp.Compare(a.tat, b.tat) })
		more, err = addSweep(p, f, mine, columnStyle(i+1), which == panelClose)
		if err != nil {
			return nil, err
		}
		labels = append(labels, more...)
	}
	if err := addBoundLabels(p, labels, pts, logX, w); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = w.xmin, w.xmax, w.ymin, w.ymax
	p.Legend.Top = true
	return p, nil
}

// panelNorm maps a point to the panel's proportions (0 to 1 across the
// window), on a log scale for a log x axis.
func panelNorm(logX bool, w window) func(plotter.XY) (float64, float64) {
	lin := linearNorm(w.xmin, w.xmax, w.ymin, w.ymax)
	if !logX {
		return lin
	}
	return func(q plotter.XY) (float64, float64) {
		_, y := lin(q)
		return math.Log(q.X/w.xmin) / math.Log(w.xmax/w.xmin), y
	}
}

// crowding tells whether another point sits just right of a point, in
// the panel's own proportions (a tenth of its width, 4 % of its height),
// where a label on the right would cross it. A point that coincides
// with it does not count: the two share one label (mergeCoincident).
func crowding(pts []boundPoint, logX bool, w window) func(plotter.XY) bool {
	norm := panelNorm(logX, w)
	return func(at plotter.XY) bool {
		qx, qy := norm(at)
		for _, o := range pts {
			o := plotter.XY{X: o.tat, Y: o.cost}
			ox, oy := norm(o)
			dx, dy := ox-qx, oy-qy
			if !coincide(norm, o, at) && dx >= 0 && dx < 0.1 && math.Abs(dy) < 0.04 {
				return true
			}
		}
		return false
	}
}

// addSweep draws one swept strategy: a line through its points, and
// returns their labels (their parameters) when label is set.
func addSweep(p *plot.Plot, name string, pts []boundPoint, st seriesStyle, label bool) ([]plotLabel, error) {
	xys := make(plotter.XYs, len(pts))
	for i, q := range pts {
		xys[i] = plotter.XY{X: q.tat, Y: q.cost}
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	styleLine(line, nil, st)
	line.Width = vg.Points(1.2)
	p.Add(line)
	p.Legend.Add(name+" (sweep)", line)
	return addPoints(p, pts, seriesStyle{line: st.line, shape: st.shape}, label, true)
}

// addPoints draws pts as glyphs in st's line colour and shape, and returns
// their labels (by their parameters alone when short) if label is set.
func addPoints(p *plot.Plot, pts []boundPoint, st seriesStyle, label, short bool) ([]plotLabel, error) {
	if len(pts) == 0 {
		return nil, nil
	}
	var xys plotter.XYs
	var labels []plotLabel
	for _, q := range pts {
		name := q.col
		if short {
			name = q.short()
		}
		if r := []rune(name); len(r) > maxLabel {
			name = string(r[:maxLabel-1]) + "…"
		}
		xy := plotter.XY{X: q.tat, Y: q.cost}
		xys = append(xys, xy)
		if label {
			labels = append(labels, plotLabel{xy, name})
		}
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Shape, sc.GlyphStyle.Color, sc.GlyphStyle.Radius = st.shape, st.line, vg.Points(2.5)
	p.Add(sc)
	return labels, nil
}

// addBoundLabels writes the labels, one for points that coincide: to the
// right of the point, or to its left when another point sits just right
// of it (crowding).
func addBoundLabels(p *plot.Plot, labels []plotLabel, pts []boundPoint, logX bool, w window) error {
	crowded := crowding(pts, logX, w)
	var sides [2]plotter.XYLabels
	for _, l := range mergeCoincident(labels, panelNorm(logX, w)) {
		side := 0
		if crowded(l.at) {
			side = 1
		}
		sides[side].XYs, sides[side].Labels = append(sides[side].XYs, l.at), append(sides[side].Labels, l.name)
	}
	for side, xyl := range sides {
		if len(xyl.XYs) == 0 {
			continue
		}
		lp, err := plotter.NewLabels(xyl)
		if err != nil {
			return err
		}
		for i := range lp.TextStyle {
			lp.TextStyle[i].Font.Size = vg.Points(7)
			lp.TextStyle[i].YAlign = draw.YCenter
			lp.TextStyle[i].XAlign = draw.XAlignment(-side) // 0 left-aligned, -1 right-aligned
		}
		lp.Offset = vg.Point{X: vg.Points(float64(4 - 8*side))}
		p.Add(lp)
	}
	return nil
}

// saveSideBySide writes the panels side by side into path.
func saveSideBySide(path, format string, panels []*plot.Plot) error {
	c, err := draw.NewFormattedCanvas(vg.Length(len(panels))*15*vg.Centimeter, 13*vg.Centimeter, format)
	if err != nil {
		return err
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: vg.Centimeter, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	canvases := plot.Align([][]*plot.Plot{panels}, tiles, draw.New(c))
	for i, p := range panels {
		p.Draw(canvases[0][i])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = c.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
