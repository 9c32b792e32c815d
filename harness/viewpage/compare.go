package viewpage

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/viewer"
)

// Compare builds the page's comparison from dsbench's report: every table
// of the text report with the same cell texts (report.TextTables), each
// config's best cell and the colours against the baselines, the
// cost–turnaround frontier and plot, the wins, and the runs without a
// result. runOf gives the index+1 of the timeline of (config, column) on
// the page, 0 when it has none.
func Compare(out report.Output, runOf func(cfg, col string) int) *viewer.Comparison {
	c := out.Comparison
	vc := &viewer.Comparison{Baselines: c.Baselines, Missing: missing(out.Results)}
	if len(c.Tables) == 0 {
		return vc
	}
	vc.Objective = c.Tables[c.Objective].Title
	vc.Frontier = Frontier(c.Tables[report.Turnaround], c.Tables[report.Cost])
	vc.Plot = tradeoff(c, vc.Frontier)
	vc.Wins = winsTable(c)
	vc.ZeroMetrics = out.ZeroMetrics()
	for _, tt := range out.TextTables() {
		vc.Tables = append(vc.Tables, table(tt, c.Baselines, runOf))
	}
	return vc
}

// Frontier is the columns on the cost–turnaround frontier: those with
// both averages (over the configs every column finished) that no other
// column matches or beats on both and beats on one. Columns with the same
// two averages are all on it or all off it.
func Frontier(tt, co report.Table) []string {
	var out []string
	for j, col := range tt.Columns {
		x, y := tt.Average[j], co.Average[j]
		if math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		dominated := false
		for k := range tt.Columns {
			ox, oy := tt.Average[k], co.Average[k]
			if ox <= x && oy <= y && (ox < x || oy < y) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, col)
		}
	}
	return out
}

// tradeoff is the plot's points: each column's normalised turnaround and
// cost (against the baselines' average) when there are baselines, as
// TradeoffPlot draws them, else its averages.
func tradeoff(c report.Comparison, frontier []string) viewer.Tradeoff {
	tt, co := c.Tables[report.Turnaround], c.Tables[report.Cost]
	xs, ys, digits := tt.Average, co.Average, 2
	p := viewer.Tradeoff{XLabel: "average turnaround (s)", YLabel: "average total cost ($)"}
	if len(c.Baselines) > 0 && len(tt.Normalised) > 0 {
		xs, ys, digits = tt.Normalised[len(tt.Normalised)-1].Values, co.Normalised[len(co.Normalised)-1].Values, report.NormalisedDigits
		p.XLabel = "turnaround / baselines' average (lower is better)"
		p.YLabel = "cost / baselines' average (lower is better)"
	}
	for j, col := range tt.Columns {
		if math.IsNaN(xs[j]) || math.IsNaN(ys[j]) {
			continue
		}
		p.Points = append(p.Points, viewer.TradeoffPoint{Column: col, X: xs[j], Y: ys[j],
			XText: strconv.FormatFloat(xs[j], 'f', digits, 64), YText: strconv.FormatFloat(ys[j], 'f', digits, 64),
			Frontier: slices.Contains(frontier, col)})
	}
	if left := len(tt.Configs) - len(tt.Complete); left > 0 {
		p.Note = fmt.Sprintf("averages over the %s where every strategy has a result", report.Plural(len(tt.Complete), "config"))
	}
	return p
}

// table is one text table as the page's table, with its marks.
func table(tt report.TextTable, bases []string, runOf func(cfg, col string) int) viewer.Table {
	t := tt.Table
	vt := viewer.Table{ID: tableID(tt), Kind: string(tt.Kind), Heading: tt.Heading, Corner: tt.Header[0],
		Columns: t.Columns, Better: better(tt), Notes: tt.Notes}
	isBase := make([]bool, len(t.Columns))
	for j, col := range t.Columns {
		isBase[j] = slices.Contains(bases, col)
	}
	for i, cfg := range t.Configs {
		row := viewer.Row{Label: cfg}
		classes := marks(t.Cells[i], isBase, vt.Better)
		for j, col := range t.Columns {
			row.Cells = append(row.Cells, viewer.Cell{Text: tt.Rows[i][j+1], Value: viewer.Value(t.Cells[i][j]),
				Class: classes[j], Run: runOf(cfg, col)})
		}
		vt.Rows = append(vt.Rows, row)
	}
	avg := viewer.Row{Label: tt.Average[0]}
	best := marks(t.Average, make([]bool, len(t.Columns)), vt.Better)
	for j := range t.Columns {
		avg.Cells = append(avg.Cells, viewer.Cell{Text: tt.Average[j+1], Value: viewer.Value(t.Average[j]), Class: best[j]})
	}
	vt.Footer = append(vt.Footer, avg)
	for k, n := range t.Normalised {
		row := viewer.Row{Label: tt.Normalised[k][0]}
		for j := range t.Columns {
			row.Cells = append(row.Cells, viewer.Cell{Text: tt.Normalised[k][j+1], Value: viewer.Value(n.Values[j])})
		}
		vt.Footer = append(vt.Footer, row)
	}
	return vt
}

func tableID(tt report.TextTable) string {
	switch tt.Kind {
	case report.MeasureKind:
		return [...]string{"turnaround", "utilisation", "cost"}[tt.Table.Measure]
	case report.BoundKind:
		return "bound-" + [...]string{"turnaround", "utilisation", "cost"}[tt.Table.Measure]
	}
	return "metric-" + tt.Table.Title
}

// better is which way a table's numbers improve: utilisation up, the
// other measures and the bound ratios down; a strategy's own metric has
// no known direction.
func better(tt report.TextTable) string {
	switch {
	case tt.Kind == report.MetricKind:
		return ""
	case tt.Kind == report.MeasureKind && tt.Table.Measure == report.Utilisation:
		return "higher"
	}
	return "lower"
}

// marks are one row's classes: "best" on the best value (every tied one),
// and on a non-baseline column with every baseline's value in the row,
// the course harness's colours: "win" when it beats every baseline
// strictly (the text report's wins, on the objective), "some" when it
// beats some, "lose" when none; "base" on a baseline's cell. A row with
// no direction (better "") has no marks.
func marks(row []float64, isBase []bool, better string) []string {
	out := make([]string, len(row))
	if better == "" {
		return out
	}
	beats := func(a, b float64) bool { return a < b }
	if better == "higher" {
		beats = func(a, b float64) bool { return a > b }
	}
	best := math.NaN()
	for _, v := range row {
		if !math.IsNaN(v) && (math.IsNaN(best) || beats(v, best)) {
			best = v
		}
	}
	var baseVals []float64
	for j, v := range row {
		if isBase[j] {
			baseVals = append(baseVals, v)
		}
	}
	for j, v := range row {
		var m []string
		if !math.IsNaN(v) && v == best {
			m = append(m, "best")
		}
		switch {
		case isBase[j]:
			m = append(m, "base")
		case len(baseVals) > 0 && !math.IsNaN(v) && !slices.ContainsFunc(baseVals, math.IsNaN):
			m = append(m, colour(v, baseVals, beats))
		}
		out[j] = strings.Join(m, " ")
	}
	return out
}

// colour counts the baselines v beats strictly.
func colour(v float64, bases []float64, beats func(a, b float64) bool) string {
	n := 0
	for _, b := range bases {
		if beats(v, b) {
			n++
		}
	}
	switch n {
	case len(bases):
		return "win"
	case 0:
		return "lose"
	}
	return "some"
}

// winsTable is the text report's wins: per strategy, the configs where it
// beats every baseline on the objective.
func winsTable(c report.Comparison) *viewer.Table {
	if len(c.Wins) == 0 {
		return nil
	}
	t := &viewer.Table{ID: "wins", Kind: "wins", Corner: "Strategy", Columns: []string{"Wins", "Configs"},
		Heading: fmt.Sprintf("Configs where a strategy beats every baseline (%s) on %s",
			strings.Join(c.Baselines, ", "), strings.ToLower(c.Tables[c.Objective].Title))}
	for _, w := range c.Wins {
		t.Rows = append(t.Rows, viewer.Row{Label: w.Column, Cells: []viewer.Cell{
			{Text: fmt.Sprintf("%d/%d", len(w.Configs), w.Of), Value: viewer.Value(len(w.Configs))},
			{Text: strings.Join(w.Configs, " "), Value: viewer.Value(math.NaN())}}})
	}
	return t
}

// missing lists the runs without a result with the text report's status
// and reason: first those that cannot finish by design ("expected": a
// strategy that never takes jobs back from the global queue, on a config
// with server failures), then the others.
func missing(results []bench.Result) []viewer.Missing {
	out := []viewer.Missing{}
	for _, expected := range []bool{true, false} {
		for _, res := range results {
			if res.OK() || res.NeedsQueue() != expected {
				continue
			}
			out = append(out, viewer.Missing{Config: res.Config, Column: res.Variant, Status: res.ShownStatus(), Reason: res.Reason()})
		}
	}
	return out
}
