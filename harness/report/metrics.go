package report

import (
	"math"
	"slices"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// Strategies' own metrics (strategies.MetricsReporter): what a strategy
// measures beside ds-server's summary (deadlines met, revenue, boots …).
// dsbench shows each metric name as one more table (configs × the columns
// that report it), one more CSV column per name, and in JSON both per run
// and as tables. A value computed without the simulator's truth (a run
// against a server over TCP) is marked approximate wherever it is shown.

// MetricTable is one strategy metric over configs × the columns that
// report it.
type MetricTable struct {
	Table
	Name   string
	Unit   string
	Help   string
	Approx bool // some value in it was computed without the simulator's truth
}

// MetricNames lists every metric name reported by a successful run, in the
// order first met (results are in configs × columns order, so a strategy's
// own order is kept).
func MetricNames(results []bench.Result) []string {
	var names []string
	for _, r := range results {
		for _, m := range r.Metrics {
			if !slices.Contains(names, m.Name) {
				names = append(names, m.Name)
			}
		}
	}
	return names
}

// metricTables builds one table per reported metric name. Only the
// columns that report the name appear, so a strategy that reports nothing
// does not empty every table's average.
func metricTables(results []bench.Result, configs, columns []string) []MetricTable {
	idx := map[[2]string]bench.Result{}
	for _, r := range results {
		idx[[2]string{r.Config, r.Variant}] = r
	}
	var out []MetricTable
	for _, name := range MetricNames(results) {
		mt := MetricTable{Name: name}
		var cols []string
		for _, col := range columns {
			for _, cfg := range configs {
				if m, ok := idx[[2]string{cfg, col}].Metrics.Get(name); ok {
					mt.Unit, mt.Help = m.Unit, m.Help
					mt.Approx = mt.Approx || m.Approx
					if !slices.Contains(cols, col) {
						cols = append(cols, col)
					}
				}
			}
		}
		mt.Table = buildTable(name, configs, cols, func(cfg, col string) float64 {
			r, ok := idx[[2]string{cfg, col}]
			m, has := r.Metrics.Get(name)
			if !ok || !r.OK() || !has {
				return math.NaN()
			}
			return m.Value
		})
		out = append(out, mt)
	}
	return out
}

// heading is the table's title line.
func (mt MetricTable) heading() string {
	h := "Strategy metric " + mt.Name
	if mt.Unit != "" {
		h += " (" + mt.Unit + ")"
	}
	if mt.Help != "" {
		h += ": " + mt.Help
	}
	if mt.Approx {
		h += " [approximate: computed without the simulator's start times]"
	}
	return h
}
