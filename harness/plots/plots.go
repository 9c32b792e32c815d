// Package plots draws a bench's plots, as SVG and PNG (Formats): cost
// against turnaround and each measure per config (Write), every column
// against the physical bounds (WriteBoundPlot), the metrics against a
// swept workload transform (WriteSweepPlots), one run's servers over time
// (WriteTimeline) and a provisioning run's capacity (WriteProvisioningPlot).
// Columns keep one style (colour, dashes, glyph) across the plots; labels
// of points that coincide are merged, and a title says what a plot leaves
// out.
package plots

import (
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

// Formats are the file formats every plot is written in.
var Formats = []string{"svg", "png"}

// Write writes the comparison plots into dir (created if needed) and
// returns the files written:
//   - tradeoff.{svg,png}: cost against turnaround, one point per strategy
//     (both normalised to the baselines' average when there are baselines,
//     so that configs of different scales weigh the same);
//   - metric-{tt,ru,co}.{svg,png}: each metric per config, one bar per
//     strategy, relative to the baselines' mean on that config.
func Write(dir string, c report.Comparison) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	save := func(p *plot.Plot, w, h vg.Length, name string) error {
		for _, ext := range Formats {
			f := filepath.Join(dir, name+"."+ext)
			if err := p.Save(w, h, f); err != nil {
				return fmt.Errorf("plot %s: %w", f, err)
			}
			files = append(files, f)
		}
		return nil
	}
	p, err := TradeoffPlot(c)
	if err != nil {
		return files, err
	}
	if err := save(p, 16*vg.Centimeter, 12*vg.Centimeter, "tradeoff"); err != nil {
		return files, err
	}
	for _, t := range c.Tables {
		p, lay, err := metricPlot(t, c.Baselines)
		if err != nil {
			return files, err
		}
		if err := save(p, lay.width, lay.height, "metric-"+t.Measure.Objective()); err != nil {
			return files, err
		}
	}
	return files, nil
}

// savePlot writes p in every Formats into dir and returns the files.
func savePlot(dir string, p *plot.Plot, w, h vg.Length, name string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, ext := range Formats {
		f := filepath.Join(dir, name+"."+ext)
		if err := p.Save(w, h, f); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// TradeoffPlot places each column at (turnaround, cost), normalised to the
// baselines' averages when there are baselines. The averages are over the
// configs where every column has a result; the title says which configs
// that leaves out, or why nothing is drawn.
func TradeoffPlot(c report.Comparison) (*plot.Plot, error) {
	tt, co := c.Tables[report.Turnaround], c.Tables[report.Cost]
	xs, ys := tt.Average, co.Average
	p := plot.New()
	p.Title.Text = "Cost against turnaround"
	p.X.Label.Text, p.Y.Label.Text = "average turnaround (s)", "average total cost ($)"
	if len(c.Baselines) > 0 {
		xs, ys = tt.Normalised[len(tt.Normalised)-1].Values, co.Normalised[len(co.Normalised)-1].Values
		p.X.Label.Text = "turnaround / baselines' average (lower is better)"
		p.Y.Label.Text = "cost / baselines' average (lower is better)"
		p.X.Tick.Marker, p.Y.Tick.Marker = ratioTicks{}, ratioTicks{}
	}
	var labels []plotLabel
	for j, col := range tt.Columns {
		if !math.IsNaN(xs[j]) && !math.IsNaN(ys[j]) {
			labels = append(labels, plotLabel{plotter.XY{X: xs[j], Y: ys[j]}, col})
		}
	}
	if note := leftOutNote(tt, co); note != "" {
		p.Title.Text += "\n" + note
	} else if len(labels) == 0 {
		p.Title.Text += "\nnothing to draw: no column has both averages"
	}
	if len(labels) == 0 {
		return p, nil
	}
	return p, addTradeoffPoints(p, labels)
}

// addTradeoffPoints draws the columns' points, each labelled just right of
// it (one label for points that coincide), and frames them.
func addTradeoffPoints(p *plot.Plot, labels []plotLabel) error {
	pts := make(plotter.XYs, len(labels))
	for i, l := range labels {
		pts[i] = l.at
	}
	// Keep points off the frame, and leave room for the labels to the right
	// of the rightmost point.
	xmin, xmax, ymin, ymax := plotter.XYRange(pts)
	dx, dy := max(xmax-xmin, 0.1), max(ymax-ymin, 0.1)
	xmin, xmax, ymin, ymax = xmin-0.08*dx, xmax+0.3*dx, ymin-0.08*dy, ymax+0.08*dy
	labels = mergeCoincident(labels, linearNorm(xmin, xmax, ymin, ymax))
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Radius = vg.Points(3)
	sc.GlyphStyle.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	var xyl plotter.XYLabels
	for _, l := range labels {
		xyl.XYs, xyl.Labels = append(xyl.XYs, l.at), append(xyl.Labels, l.name)
	}
	lp, err := plotter.NewLabels(xyl)
	if err != nil {
		return err
	}
	for i := range lp.TextStyle {
		lp.TextStyle[i].XAlign = -0.05 // just right of the point
	}
	p.Add(plotter.NewGrid(), sc, lp)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
	return nil
}

// leftOutNote says which configs a plot of the tables' averages leaves
// out: those where some column has no result, since every column is
// averaged over the same configs (Table.Average). "" when none is.
func leftOutNote(tables ...report.Table) string {
	t := tables[0]
	var left []string
	for _, cfg := range t.Configs {
		if slices.ContainsFunc(tables, func(t report.Table) bool { return !slices.Contains(t.Complete, cfg) }) {
			left = append(left, cfg)
		}
	}
	switch {
	case len(left) == 0:
		return ""
	case len(left) == len(t.Configs):
		return "nothing to draw: no config has a result in every column"
	}
	return fmt.Sprintf("averages over %d of %d configs; left out (a column has no result):\n%s",
		len(t.Configs)-len(left), len(t.Configs), wrapLine(joinNames(left), titleWidth))
}

// titleWidth is about what a plot's title holds in a line, in runes.
const titleWidth = 64

// wrapLine breaks s at spaces into lines of at most width runes (a longer
// word stands alone).
func wrapLine(s string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines, line = append(lines, line), ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// metricLayout sizes a per-config bar plot so that nothing overlaps: each
// config's slot holds its bar group with a gap and is at least as wide as
// a vertical tick label is tall; the legend gets its own strip right of
// the last group (an empty stretch of the x axis), not the bars' headroom.
type metricLayout struct {
	bar       vg.Length // one bar's width
	slot      vg.Length // one config's share of the x axis
	legend    vg.Length // the legend strip
	width     vg.Length
	height    vg.Length
	extraUnit float64 // x-axis units added after the last group for the legend
}

// Fonts of gonum's defaults: 10 pt tick labels and legend entries.
const (
	tickFont  = vg.Length(10)
	plotFixed = vg.Length(70) // y axis, its label and the margins
)

func layoutMetricPlot(configs, columns []string) metricLayout {
	cols := float64(max(1, len(columns)))
	l := metricLayout{bar: vg.Points(min(14, max(3, 48/cols)))}
	l.slot = max(l.bar*vg.Length(cols)*1.4, tickFont*1.8)
	longest := 0
	for _, c := range columns {
		longest = max(longest, len([]rune(c)))
	}
	l.legend = vg.Length(float64(longest)*6 + 40)
	l.extraUnit = float64(l.legend / l.slot)
	l.width = plotFixed + l.slot*vg.Length(max(1, len(configs))) + l.legend
	longestCfg := 0
	for _, c := range configs {
		longestCfg = max(longestCfg, len([]rune(c)))
	}
	// The plot area, then the vertical config names below it.
	l.height = max(12*vg.Centimeter, vg.Length(len(columns))*tickFont*1.3+4*vg.Centimeter) + vg.Length(float64(longestCfg)*6)
	return l
}

// baselineScale is, per config, the mean of the baselines' values there
// (1 without baselines); ok[i] is false when the config has baselines but
// none has a result there: its bars cannot be put on the "/ baselines'
// mean" axis, and raw values there would read as ratios.
func baselineScale(t report.Table, baselines []string) (scale []float64, ok []bool) {
	scale, ok = make([]float64, len(t.Configs)), make([]bool, len(t.Configs))
	for i := range t.Configs {
		scale[i], ok[i] = 1, true
		if len(baselines) == 0 {
			continue
		}
		sum, n := 0.0, 0
		for j, col := range t.Columns {
			if slices.Contains(baselines, col) && !math.IsNaN(t.Cells[i][j]) {
				sum += t.Cells[i][j]
				n++
			}
		}
		ok[i] = n > 0 && sum != 0
		if ok[i] {
			scale[i] = sum / float64(n)
		}
	}
	return scale, ok
}

// metricPlot draws one bar group per config, one bar per column, each
// value divided by the mean of the baselines on that config (1 = the
// baselines' mean); without baselines, the raw values. A config where no
// baseline has a result is left out, and the title says which.
func metricPlot(t report.Table, baselines []string) (*plot.Plot, metricLayout, error) {
	scale, ok := baselineScale(t, baselines)
	var shown []int
	var skipped []string
	for i, cfg := range t.Configs {
		if ok[i] {
			shown = append(shown, i)
		} else {
			skipped = append(skipped, cfg)
		}
	}
	var names []string
	for _, i := range shown {
		names = append(names, t.Configs[i])
	}
	lay := layoutMetricPlot(names, t.Columns)
	p := plot.New()
	p.Title.Text = t.Title + " per config"
	if len(skipped) > 0 {
		p.Title.Text += "\nnot shown (no baseline has a result there): " + strings.Join(skipped, ", ")
	}
	p.Y.Label.Text = t.Title
	if len(baselines) > 0 {
		p.Y.Label.Text = t.Title + " / baselines' mean on the config"
	}
	for j, col := range t.Columns {
		vals := make(plotter.Values, len(shown))
		for k, i := range shown {
			v := t.Cells[i][j] / scale[i]
			if math.IsNaN(v) {
				v = 0 // no result: no bar
			}
			vals[k] = v
		}
		if len(vals) == 0 {
			break // nothing to draw: the title says why
		}
		bars, err := plotter.NewBarChart(vals, lay.bar)
		if err != nil {
			return nil, lay, err
		}
		styleBars(bars, columnStyle(j))
		bars.Offset = lay.bar * vg.Length(float64(j)-float64(len(t.Columns)-1)/2)
		p.Add(bars)
		p.Legend.Add(col, bars)
	}
	p.Legend.Top = true
	p.Y.Min = 0
	p.Y.Max = max(p.Y.Max*1.05, 0.1)
	if len(names) > 0 {
		p.NominalX(names...)
	}
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5+lay.extraUnit
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	return p, lay, nil
}
