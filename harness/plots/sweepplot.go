package plots

import (
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/filelabel"
	"github.com/dssim-go/dssim-go/harness/report"
)

// sweepDim is one swept workload transform.
type sweepDim struct {
	key, label string
	of         func(bench.Result) *float64
}

var sweepDims = []sweepDim{
	{"af", "arrival delay factor (lower = heavier load)", func(r bench.Result) *float64 { return r.ArrivalFactor }},
	{"inacc", "% inaccuracy of estimates (0 = exact)", func(r bench.Result) *float64 { return r.Inaccuracy }},
}

// sweepMetric is one y axis: a summary metric or a strategy metric.
type sweepMetric struct {
	key, label string
	of         func(bench.Result) (float64, bool)
}

// WriteSweepPlots writes, for each swept transform (--arrival-factor,
// --inaccuracy) and each metric (turnaround, utilisation, cost, and every
// strategy metric), the metric against the swept value, one line per
// strategy: sweep-DIM-METRIC.{svg,png}. A point is the mean over the base
// configs (and over the other dimension's values when both are swept) of
// the runs with a result. Nothing is written without a sweep.
func WriteSweepPlots(dir string, results []bench.Result, columns []string) ([]string, error) {
	var metrics []sweepMetric
	for _, m := range report.Measures {
		metrics = append(metrics, sweepMetric{m.Objective(), m.Title(), func(r bench.Result) (float64, bool) { return m.Of(r.Summary), true }})
	}
	for _, name := range report.MetricNames(results) {
		metrics = append(metrics, sweepMetric{name, "strategy metric " + name, func(r bench.Result) (float64, bool) {
			m, ok := r.Metrics.Get(name)
			return m.Value, ok
		}})
	}
	names := sweepFileKeys(metrics)
	var files []string
	for _, d := range sweepDims {
		if !slices.ContainsFunc(results, func(r bench.Result) bool { return d.of(r) != nil }) {
			continue
		}
		for _, m := range metrics {
			p, err := sweepPlot(results, columns, d, m)
			if err != nil {
				return files, err
			}
			more, err := savePlot(dir, p, 16*vg.Centimeter, 11*vg.Centimeter, "sweep-"+d.key+"-"+names[m.key])
			files = append(files, more...)
			if err != nil {
				return files, err
			}
		}
	}
	return files, nil
}

// sweepPlot draws one line per column through the mean value at each swept x.
func sweepPlot(results []bench.Result, columns []string, d sweepDim, m sweepMetric) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = m.label + " against the " + d.label
	p.X.Label.Text, p.Y.Label.Text = d.label, m.label
	for j, col := range columns {
		sums := map[float64][2]float64{}
		for _, r := range results {
			x := d.of(r)
			if r.Variant != col || !r.OK() || x == nil {
				continue
			}
			if y, ok := m.of(r); ok && !math.IsNaN(y) {
				s := sums[*x]
				sums[*x] = [2]float64{s[0] + y, s[1] + 1}
			}
		}
		if len(sums) == 0 {
			continue
		}
		xs := make([]float64, 0, len(sums))
		for x := range sums {
			xs = append(xs, x)
		}
		slices.Sort(xs)
		pts := make(plotter.XYs, len(xs))
		for i, x := range xs {
			pts[i] = plotter.XY{X: x, Y: sums[x][0] / sums[x][1]}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		styleLine(line, points, columnStyle(j))
		p.Add(line, points)
		p.Legend.Add(col, line, points)
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	return p, nil
}

// sweepFileKeys names each metric's plot files: filelabel.Of with capitals
// kept (the study's sweep-af-deadlineMetPct.svg), except for metrics whose
// names differ only in case ("boots" and "Boots"), which a case-insensitive
// file system would write to one file: those are named without capitals
// (filelabel.Of hashes a name with one).
func sweepFileKeys(metrics []sweepMetric) map[string]string {
	folded := map[string]int{}
	for _, m := range metrics {
		folded[strings.ToLower(m.key)]++
	}
	names := map[string]string{}
	for _, m := range metrics {
		names[m.key] = filelabel.Of(m.key, folded[strings.ToLower(m.key)] == 1)
	}
	return names
}
