package report

import (
	"fmt"
	"math"
	"slices"
)

// TableKind says which part of the comparison a table is.
type TableKind string

// The kinds of table, in the order the text report prints them (the wins
// come between the measures and the bound ratios).
const (
	MeasureKind TableKind = "measure" // turnaround, utilisation, cost
	BoundKind   TableKind = "bound"   // a result over its physical bound
	MetricKind  TableKind = "metric"  // a strategy's own metric
)

// TextTable is one comparison table exactly as the text and Markdown
// reports print it: its heading, every cell's text and the legend under
// it. Other renderings (dsbench's HTML page) take their texts from here,
// so they show the same numbers with the same precision.
type TextTable struct {
	Kind    TableKind
	Heading string
	Table   Table
	// Digits and AvgDigits are the decimals of the config cells and of
	// the Average row; Normalised rows have 4.
	Digits, AvgDigits int
	Header            []string   // "Config", then the columns
	Rows              [][]string // per config: its name, then each cell (a number, a status or "needs queue*")
	Average           []string   // "Average" or "Average (2/3 configs)", then each column's
	Normalised        [][]string // "Normalised (BASE)", then each column's
	Notes             []string   // the legend under the table
}

// NormalisedDigits is the precision of the Normalised rows.
const NormalisedDigits = 4

// TextTables lists the comparison's tables in the text report's order:
// the three measures (the objective's heading says so), the bound ratios,
// then one per strategy metric, but for those that are 0 in every run
// (ZeroMetrics: the text report names them once instead).
func (r Output) TextTables() []TextTable {
	c := r.Comparison
	var out []TextTable
	for _, t := range c.Tables {
		digits := 2
		if t.Measure == Turnaround {
			digits = 0
		}
		heading := t.Title
		if t.Measure == c.Objective {
			heading += " (objective)"
		}
		out = append(out, r.textTable(MeasureKind, heading, t, digits, 2))
	}
	for _, t := range c.BoundTables {
		out = append(out, r.textTable(BoundKind, t.Title+" (1.00 = the physical bound)", t, 2, 2))
	}
	for _, mt := range c.MetricTables {
		if !allZero(mt.Table) {
			out = append(out, r.textTable(MetricKind, mt.heading(), mt.Table, 2, 2))
		}
	}
	return out
}

// ZeroMetrics names the strategy metrics that are 0 in every run with a
// result: a table of zeros says one thing, which the text report says once
// (CSV and JSON keep the values).
func (r Output) ZeroMetrics() []string {
	var zero []string
	for _, mt := range r.Comparison.MetricTables {
		if allZero(mt.Table) {
			zero = append(zero, mt.Name)
		}
	}
	return zero
}

func (r Output) textTable(kind TableKind, heading string, t Table, digits, avgDigits int) TextTable {
	tt := TextTable{Kind: kind, Heading: heading, Table: t, Digits: digits, AvgDigits: avgDigits,
		Header: append([]string{"Config"}, t.Columns...)}
	var queued []string // configs with a "needs queue" cell
	for i, cfg := range t.Configs {
		cells := []string{cfg}
		for j := range t.Columns {
			cell, needsQueue := r.CellText(t, i, j, digits)
			if needsQueue && !slices.Contains(queued, cfg) {
				queued = append(queued, cfg)
			}
			cells = append(cells, cell)
		}
		tt.Rows = append(tt.Rows, cells)
	}
	main := r.mainComplete()
	tt.Notes = tableNotes(t, queued, main)
	avg := "Average"
	if len(t.Complete) < len(t.Configs) || !slices.Equal(t.Complete, main) {
		// A strategy metric's table has only the columns that report
		// it, so its Average can be over more configs than the main
		// tables': labelled, "Average 157.39" beside "Average (2/3
		// configs) 66.95" read as the same mean.
		avg = fmt.Sprintf("Average (%d/%d configs)", len(t.Complete), len(t.Configs))
	}
	tt.Average = []string{avg}
	for _, v := range t.Average {
		tt.Average = append(tt.Average, cellText(v, avgDigits))
	}
	for _, n := range t.Normalised {
		cells := []string{"Normalised (" + n.Base + ")"}
		for _, v := range n.Values {
			cells = append(cells, cellText(v, NormalisedDigits))
		}
		tt.Normalised = append(tt.Normalised, cells)
	}
	return tt
}

// CellText is the text of cell (config i, column j) of t with digits
// decimals: the number, or for a run without a result its status, or
// "needs queue*" (and true) for a strategy that cannot finish a config
// with resource failures (the table's legend explains the mark).
func (r Output) CellText(t Table, i, j, digits int) (string, bool) {
	v := t.Cells[i][j]
	if !math.IsNaN(v) {
		return cellText(v, digits), false
	}
	res := r.status(t.Configs[i], t.Columns[j])
	if res.NeedsQueue() {
		return needsQueueCell, true
	}
	return string(res.Status), false
}
