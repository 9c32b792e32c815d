package harness

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotFormats are the file formats every plot is written in.
var PlotFormats = []string{"svg", "png"}

// WritePlots writes the comparison plots into dir (created if needed) and
// returns the files written:
//   - tradeoff.{svg,png}: cost against turnaround, one point per strategy
//     (both normalised to the baselines' average when there are baselines,
//     so that configs of different scales weigh the same);
//   - metric-{tt,ru,co}.{svg,png}: each metric per config, one bar per
//     strategy, relative to the baselines' mean on that config.
func WritePlots(dir string, c Comparison) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	save := func(p *plot.Plot, w, h vg.Length, name string) error {
		for _, ext := range PlotFormats {
			f := filepath.Join(dir, name+"."+ext)
			if err := p.Save(w, h, f); err != nil {
				return fmt.Errorf("plot %s: %w", f, err)
			}
			files = append(files, f)
		}
		return nil
	}
	p, err := tradeoffPlot(c)
	if err != nil {
		return files, err
	}
	if err := save(p, 16*vg.Centimeter, 12*vg.Centimeter, "tradeoff"); err != nil {
		return files, err
	}
	for _, t := range c.Tables {
		p, err := metricPlot(t, c.Baselines)
		if err != nil {
			return files, err
		}
		width := vg.Length(6+1.2*float64(len(t.Configs))) * vg.Centimeter
		if err := save(p, width, 12*vg.Centimeter, "metric-"+t.Metric.Objective()); err != nil {
			return files, err
		}
	}
	return files, nil
}

// savePlot writes p in every PlotFormats into dir and returns the files.
func savePlot(dir string, p *plot.Plot, w, h vg.Length, name string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, ext := range PlotFormats {
		f := filepath.Join(dir, name+"."+ext)
		if err := p.Save(w, h, f); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// tradeoffPlot places each column at (turnaround, cost), normalised to the
// baselines' averages when there are baselines.
func tradeoffPlot(c Comparison) (*plot.Plot, error) {
	tt, co := c.Tables[Turnaround], c.Tables[Cost]
	xs, ys := tt.Average, co.Average
	p := plot.New()
	p.Title.Text = "Cost against turnaround"
	p.X.Label.Text, p.Y.Label.Text = "average turnaround (s)", "average total cost ($)"
	if len(c.Baselines) > 0 {
		xs, ys = tt.Normalised[len(tt.Normalised)-1].Values, co.Normalised[len(co.Normalised)-1].Values
		p.X.Label.Text = "turnaround / baselines' average (lower is better)"
		p.Y.Label.Text = "cost / baselines' average (lower is better)"
	}
	var pts plotter.XYs
	var names []string
	for j, col := range tt.Columns {
		if math.IsNaN(xs[j]) || math.IsNaN(ys[j]) {
			continue
		}
		pts = append(pts, plotter.XY{X: xs[j], Y: ys[j]})
		names = append(names, col)
	}
	if len(pts) == 0 {
		return p, nil // nothing comparable: an empty, titled plot says so
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Radius = vg.Points(3)
	sc.GlyphStyle.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: names})
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign = -0.05 // just right of the point
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(plotter.NewGrid(), sc, labels)
	// Keep points off the frame, and leave room for the labels to the right
	// of the rightmost point.
	dx, dy := max(p.X.Max-p.X.Min, 0.1), max(p.Y.Max-p.Y.Min, 0.1)
	p.X.Min, p.X.Max = p.X.Min-0.08*dx, p.X.Max+0.3*dx
	p.Y.Min, p.Y.Max = p.Y.Min-0.08*dy, p.Y.Max+0.08*dy
	return p, nil
}

// metricPlot draws one bar group per config, one bar per column, each
// value divided by the mean of the baselines on that config (1 = the
// baselines' mean); without baselines, the raw values.
func metricPlot(t Table, baselines []string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = t.Title + " per config"
	p.Y.Label.Text = t.Title
	scale := make([]float64, len(t.Configs))
	for i := range t.Configs {
		scale[i] = 1
		if len(baselines) == 0 {
			continue
		}
		sum, n := 0.0, 0
		for j, col := range t.Columns {
			for _, b := range baselines {
				if col == b && !math.IsNaN(t.Cells[i][j]) {
					sum += t.Cells[i][j]
					n++
				}
			}
		}
		if n > 0 && sum != 0 {
			scale[i] = sum / float64(n)
		}
	}
	if len(baselines) > 0 {
		p.Y.Label.Text = t.Title + " / baselines' mean on the config"
	}
	w := vg.Points(max(2, 60/float64(max(1, len(t.Columns)))))
	for j, col := range t.Columns {
		vals := make(plotter.Values, len(t.Configs))
		for i := range t.Configs {
			v := t.Cells[i][j] / scale[i]
			if math.IsNaN(v) {
				v = 0 // no result: no bar
			}
			vals[i] = v
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(j)
		bars.Offset = w * vg.Length(float64(j)-float64(len(t.Columns)-1)/2)
		p.Add(bars)
		p.Legend.Add(col, bars)
	}
	// Headroom for the legend above the tallest bar.
	p.Y.Min, p.Y.Max = 0, p.Y.Max*(1.15+0.07*float64(len(t.Columns)))
	p.Legend.Top = true
	p.NominalX(t.Configs...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -0.9, -0.2
	return p, nil
}
