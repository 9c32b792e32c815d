// Package report arranges a bench's results into the course's comparison
// (Compare): per-measure tables of configs × columns with Average and
// Normalised rows against chosen baselines, the configs where a column
// beats every baseline on the objective (Measure: tt, ru or co), each
// result against its physical bound, and one table per metric the
// strategies report of their own; and writes it (Output) as aligned text
// tables, Markdown, CSV or JSON (Format), with the runs that have no
// result and why, and the cost ds-server's report leaves out.
package report

import (
	"math"
	"slices"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// Table is one metric over configs (rows) × variants (columns).
type Table struct {
	Measure Measure
	Title   string
	Configs []string
	Columns []string
	// Cells[i][j] is config i, column j; NaN when the run has no result.
	Cells [][]float64
	// Average[j] is column j's mean over the complete configs: those where
	// every column has a result, so that every column is averaged over the
	// same workloads (a column that failed somewhere is not flattered).
	Average  []float64
	Complete []string // the configs averaged
	// Normalised rows: column average / a baseline's average, and / the
	// mean of the baselines' averages ("Average").
	Normalised []NormRow
}

// NormRow is one "Normalised (BASE)" row.
type NormRow struct {
	Base   string // a baseline's label, or "Average"
	Values []float64
}

// Wins records, for one column, the configs where it beats every baseline
// strictly on the objective (harness.md §3.4/§3.5).
type Wins struct {
	Column  string   `json:"column"`
	Configs []string `json:"configs"`
	Of      int      `json:"of"` // configs where the column and every baseline have results
}

// Comparison is everything the course-style report shows.
type Comparison struct {
	Tables    []Table // turnaround, utilisation, cost
	Objective Measure
	Baselines []string
	Wins      []Wins
	// Bound tables: turnaround / mean actual runtime and cost /
	// perfect-packing cost, per config and column, with Average rows.
	BoundTables []Table
	// MetricTables are the strategies' own metrics, one table per name.
	MetricTables []MetricTable
}

// Compare arranges results into the course tables. configs and columns fix
// the row and column order; baselines are column labels (those absent from
// columns are ignored).
func Compare(results []bench.Result, configs, columns, baselines []string, objective Measure) Comparison {
	idx := map[[2]string]bench.Result{}
	for _, r := range results {
		idx[[2]string{r.Config, r.Variant}] = r
	}
	value := func(cfg, col string, f func(bench.Result) float64) float64 {
		r, ok := idx[[2]string{cfg, col}]
		if !ok || !r.OK() {
			return math.NaN()
		}
		return f(r)
	}
	var bases []string
	for _, b := range baselines {
		if slices.Contains(columns, b) && !slices.Contains(bases, b) {
			bases = append(bases, b)
		}
	}
	c := Comparison{Objective: objective, Baselines: bases}
	for _, m := range Measures {
		m := m
		t := buildTable(m.Title(), configs, columns, func(cfg, col string) float64 {
			return value(cfg, col, func(r bench.Result) float64 { return m.Of(r.Summary) })
		})
		t.Measure = m
		t.Normalised = normalise(t, bases)
		c.Tables = append(c.Tables, t)
	}
	c.Wins = wins(c.Tables[objective], bases)
	c.BoundTables = []Table{
		buildTable("Turnaround / mean actual runtime", configs, columns, func(cfg, col string) float64 {
			return value(cfg, col, func(r bench.Result) float64 {
				return ratio(float64(r.Summary.AvgTurnaround), r.Bounds.MeanActualRuntime)
			})
		}),
		buildTable("Cost / perfect-packing cost", configs, columns, func(cfg, col string) float64 {
			return value(cfg, col, func(r bench.Result) float64 { return ratio(r.Summary.TotalCost, r.Bounds.PackingCost) })
		}),
	}
	c.BoundTables[0].Measure, c.BoundTables[1].Measure = Turnaround, Cost
	c.MetricTables = metricTables(results, configs, columns)
	return c
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return math.NaN()
	}
	return a / b
}

func buildTable(title string, configs, columns []string, cell func(cfg, col string) float64) Table {
	t := Table{Title: title, Configs: configs, Columns: columns}
	t.Cells = make([][]float64, len(configs))
	for i, cfg := range configs {
		t.Cells[i] = make([]float64, len(columns))
		complete := true
		for j, col := range columns {
			t.Cells[i][j] = cell(cfg, col)
			if math.IsNaN(t.Cells[i][j]) {
				complete = false
			}
		}
		if complete {
			t.Complete = append(t.Complete, cfg)
		}
	}
	t.Average = make([]float64, len(columns))
	for j := range columns {
		sum, n := 0.0, 0
		for i, cfg := range configs {
			if slices.Contains(t.Complete, cfg) {
				sum += t.Cells[i][j]
				n++
			}
		}
		t.Average[j] = math.NaN()
		if n > 0 {
			t.Average[j] = sum / float64(n)
		}
	}
	return t
}

func normalise(t Table, bases []string) []NormRow {
	if len(bases) == 0 {
		return nil
	}
	var rows []NormRow
	mean, n := 0.0, 0
	for _, b := range bases {
		bi := slices.Index(t.Columns, b)
		avg := t.Average[bi]
		mean += avg
		n++
		row := NormRow{Base: b, Values: make([]float64, len(t.Columns))}
		for j := range t.Columns {
			row.Values[j] = ratio(t.Average[j], avg)
		}
		rows = append(rows, row)
	}
	mean /= float64(n)
	row := NormRow{Base: "Average", Values: make([]float64, len(t.Columns))}
	for j := range t.Columns {
		row.Values[j] = ratio(t.Average[j], mean)
	}
	return append(rows, row)
}

func wins(t Table, bases []string) []Wins {
	if len(bases) == 0 {
		return nil
	}
	var out []Wins
	for j, col := range t.Columns {
		if slices.Contains(bases, col) {
			continue
		}
		w := Wins{Column: col}
		for i, cfg := range t.Configs {
			v := t.Cells[i][j]
			if math.IsNaN(v) {
				continue
			}
			all, beatsAll := true, true
			for _, b := range bases {
				bv := t.Cells[i][slices.Index(t.Columns, b)]
				if math.IsNaN(bv) {
					all = false
					break
				}
				if !t.Measure.Better(v, bv) {
					beatsAll = false
				}
			}
			if !all {
				continue
			}
			w.Of++
			if beatsAll {
				w.Configs = append(w.Configs, cfg)
			}
		}
		out = append(out, w)
	}
	return out
}
