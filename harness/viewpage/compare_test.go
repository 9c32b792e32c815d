package viewpage

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/strategies"
)

// The marks of one row: the best value (every tied one), and against the
// baselines the course harness's colours, strictly as the wins count.
func TestMarks(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		row    []float64
		base   []bool
		better string
		want   []string
	}{
		{"lower: beats all, some, none", []float64{50, 60, 40, 55, 70}, []bool{true, true, false, false, false}, "lower",
			[]string{"base", "base", "best win", "some", "lose"}},
		{"higher is better for utilisation", []float64{50, 60, 40, 55, 70}, []bool{true, true, false, false, false}, "higher",
			[]string{"base", "base", "lose", "some", "best win"}},
		{"a tie with a baseline does not beat it", []float64{50, 60, 50}, []bool{true, true, false}, "lower",
			[]string{"best base", "base", "best some"}},
		{"a tie with every baseline beats none", []float64{50, 50, 50}, []bool{true, true, false}, "lower",
			[]string{"best base", "best base", "best lose"}},
		{"a baseline without a result: no colour", []float64{nan, 60, 40}, []bool{true, true, false}, "lower",
			[]string{"base", "base", "best"}},
		{"no result: no mark", []float64{50, 60, nan}, []bool{true, true, false}, "lower",
			[]string{"best base", "base", ""}},
		{"no baselines: best only", []float64{3, 2, 2}, []bool{false, false, false}, "lower",
			[]string{"", "best", "best"}},
		{"a strategy metric has no direction", []float64{3, 2, 1}, []bool{true, false, false}, "",
			[]string{"", "", ""}},
		{"a row without results", []float64{nan, nan}, []bool{true, false}, "lower", []string{"base", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, marks(tc.row, tc.base, tc.better))
		})
	}
}

// The frontier: no other column matches or beats a member on both
// averages and beats it on one; columns without both averages are off it.
func TestFrontier(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name     string
		tt, cost []float64
		want     []string
	}{
		{"one dominates all", []float64{1, 2, 3}, []float64{1, 2, 3}, []string{"a"}},
		{"a trade-off", []float64{1, 2, 3}, []float64{3, 2, 1}, []string{"a", "b", "c"}},
		{"dominated in the middle", []float64{1, 2, 3}, []float64{3, 3.5, 1}, []string{"a", "c"}},
		{"equal on one, worse on the other", []float64{1, 1, 3}, []float64{2, 3, 1}, []string{"a", "c"}},
		{"identical columns both on it", []float64{1, 1, 2}, []float64{1, 1, 2}, []string{"a", "b"}},
		{"no average: off it", []float64{nan, 2, 3}, []float64{0.1, 2, 1}, []string{"b", "c"}},
		{"nothing", []float64{nan}, []float64{nan}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols := []string{"a", "b", "c"}[:len(tc.tt)]
			tt := report.Table{Columns: cols, Average: tc.tt}
			co := report.Table{Columns: cols, Average: tc.cost}
			assert.Equal(t, tc.want, Frontier(tt, co))
		})
	}
}

// modelResults: two baselines (b1, b2), two strategies (s1, s2) over
// three configs; on c3 (resource failures) b1 needs the queue and s2
// times out; s1 reports two metrics of its own, one 0 in every run.
func modelResults() []bench.Result {
	ok := func(cfg, col string, tt int, util, cost float64) bench.Result {
		return bench.Result{Config: cfg, Variant: col, Status: bench.StatusOK,
			Summary: bench.Summary{AvgTurnaround: tt, AvgUtil: util, TotalCost: cost},
			Bounds:  bench.Bounds{MeanActualRuntime: 20, PackingCost: 5}}
	}
	withMetric := func(r bench.Result, v float64) bench.Result {
		r.Metrics = bench.Reported{{Name: "boots", Value: v, Unit: "servers"}, {Name: "migrations", Value: 0}}
		return r
	}
	return []bench.Result{
		ok("c1", "b1", 100, 90, 10), ok("c1", "b2", 50, 60, 20), withMetric(ok("c1", "s1", 40, 95, 15), 3), ok("c1", "s2", 70, 50, 9.5),
		ok("c2", "b1", 300, 90, 30), ok("c2", "b2", 60, 50, 40), withMetric(ok("c2", "s1", 70, 80, 25), 5), ok("c2", "s2", 55, 70, 41),
		{Config: "c3", Variant: "b1", Status: bench.StatusError, ResourceFailures: true,
			Err: "client: " + strategies.ErrNoServer.Error()},
		ok("c3", "b2", 80, 55, 60), withMetric(ok("c3", "s1", 75, 60, 50), 4),
		{Config: "c3", Variant: "s2", Status: bench.StatusTimeout, Err: "no result within 1s"},
	}
}

func modelOutput() report.Output {
	res := modelResults()
	configs, cols := []string{"c1", "c2", "c3"}, []string{"b1", "b2", "s1", "s2"}
	return report.Output{Results: res, Comparison: report.Compare(res, configs, cols, []string{"b1", "b2"}, report.Turnaround)}
}

func findTable(t *testing.T, c *viewer.Comparison, id string) viewer.Table {
	t.Helper()
	for _, tb := range c.Tables {
		if tb.ID == id {
			return tb
		}
	}
	t.Fatalf("no table %q", id)
	return viewer.Table{}
}

// Every table of the model shows, row by row, the text report's cells:
// the same numbers with the same precision, the same statuses and marks,
// the same Average and Normalised rows.
func TestCompareCellsAreTheTextReports(t *testing.T) {
	out := modelOutput()
	var text bytes.Buffer
	require.NoError(t, out.Write(&text, report.FormatTable))
	lines := strings.Split(text.String(), "\n")
	c := Compare(out, func(string, string) int { return 0 })
	require.Len(t, c.Tables, 6, "three measures, two bound ratios, one strategy metric (the other is all zeros)")
	assert.Equal(t, []string{"migrations"}, c.ZeroMetrics)
	assert.Contains(t, text.String(), "0 in every run, not shown as tables: migrations.")
	for _, tb := range c.Tables {
		at := slices.Index(lines, tb.Heading)
		require.GreaterOrEqual(t, at, 0, "the text report has no table %q", tb.Heading)
		rows := append(slices.Clone(tb.Rows), tb.Footer...)
		require.Equal(t, strings.Fields(strings.Join(append([]string{tb.Corner}, tb.Columns...), " ")), strings.Fields(lines[at+1]), tb.Heading)
		for k, row := range rows {
			want := strings.Fields(lines[at+2+k])
			got := []string{row.Label}
			for _, cell := range row.Cells {
				got = append(got, cell.Text)
			}
			assert.Equal(t, want, strings.Fields(strings.Join(got, " ")), "%s, row %d", tb.Heading, k)
		}
		for k, n := range tb.Notes {
			assert.Equal(t, lines[at+2+len(rows)+k], n, "%s: the legend", tb.Heading)
		}
	}
	tt := findTable(t, c, "turnaround")
	assert.Equal(t, "needs queue*", tt.Rows[2].Cells[0].Text)
	assert.Equal(t, "timeout", tt.Rows[2].Cells[3].Text)
	assert.True(t, math.IsNaN(float64(tt.Rows[2].Cells[3].Value)))
}

// The marks in the model: each config's best cell, the colours against
// the baselines (green exactly where the text report counts a win on the
// objective), none in a strategy metric's table; the Average row's best.
func TestCompareMarks(t *testing.T) {
	c := Compare(modelOutput(), func(string, string) int { return 0 })
	classes := func(tb viewer.Table, i int) []string {
		var out []string
		for _, cell := range tb.Rows[i].Cells {
			out = append(out, cell.Class)
		}
		return out
	}
	tt := findTable(t, c, "turnaround")
	assert.Equal(t, []string{"base", "base", "best win", "some"}, classes(tt, 0), "c1: 100 50 | 40 70")
	assert.Equal(t, []string{"base", "base", "some", "best win"}, classes(tt, 1), "c2: 300 60 | 70 55")
	assert.Equal(t, []string{"base", "base", "best", ""}, classes(tt, 2), "c3: - 80 | 75 -; b1 needs the queue, so no colour")
	util := findTable(t, c, "utilisation")
	assert.Equal(t, "higher", util.Better)
	assert.Equal(t, []string{"base", "base", "best win", "lose"}, classes(util, 0), "c1: 90 60 | 95 50")
	cost := findTable(t, c, "cost")
	assert.Equal(t, []string{"base", "base", "some", "best win"}, classes(cost, 0), "c1: 10 20 | 15 9.5")
	bound := findTable(t, c, "bound-cost")
	assert.Equal(t, classes(cost, 1), classes(bound, 1), "a cost ratio orders the columns as their costs")
	metric := findTable(t, c, "metric-boots")
	assert.Equal(t, []string{"s1"}, metric.Columns)
	assert.Equal(t, []string{""}, classes(metric, 0))
	// The objective's greens are the text report's wins.
	require.NotNil(t, c.Wins)
	for j, col := range tt.Columns {
		var green []string
		for i, row := range tt.Rows {
			if strings.Contains(row.Cells[j].Class, "win") {
				green = append(green, tt.Rows[i].Label)
			}
		}
		for _, w := range modelOutput().Comparison.Wins {
			if w.Column == col {
				assert.Equal(t, w.Configs, green, col)
			}
		}
	}
	// Averages over c1 and c2 (every column has a result there): b2 and
	// s1 both 55 on turnaround, both best.
	assert.Equal(t, "Average (2/3 configs)", tt.Footer[0].Label)
	assert.Equal(t, []string{"", "best", "best", ""}, []string{tt.Footer[0].Cells[0].Class, tt.Footer[0].Cells[1].Class, tt.Footer[0].Cells[2].Class, tt.Footer[0].Cells[3].Class})
	assert.Equal(t, "Normalised (b1)", tt.Footer[1].Label)
}

// The summary: the frontier over the averages (s2 is cheaper than s1 at
// the same turnaround), the plot's points normalised to the baselines'
// average, each run without a result listed once with its reason, and a
// cell links its run's timeline.
func TestCompareSummary(t *testing.T) {
	runs := map[[2]string]int{{"c1", "s1"}: 1, {"c2", "s2"}: 2}
	c := Compare(modelOutput(), func(cfg, col string) int { return runs[[2]string{cfg, col}] })
	// Averages over c1, c2: turnaround b1 200, b2 55, s1 55, s2 62.5;
	// cost b1 20, b2 30, s1 20, s2 25.25: s1 matches b2's turnaround and
	// b1's cost and beats each on the other.
	assert.Equal(t, []string{"s1"}, c.Frontier)
	require.Len(t, c.Plot.Points, 4)
	p := c.Plot.Points[2]
	assert.Equal(t, "s1", p.Column)
	assert.True(t, p.Frontier)
	assert.InDelta(t, 55/127.5, p.X, 1e-12)
	assert.Equal(t, "0.4314", p.XText)
	assert.Contains(t, c.Plot.XLabel, "baselines' average")
	// The runs that cannot finish by design first, as the text report's
	// "expected" runs.
	assert.Equal(t, []viewer.Missing{
		{Config: "c3", Column: "b1", Status: "expected", Reason: "client: " + strategies.ErrNoServer.Error()},
		{Config: "c3", Column: "s2", Status: "timeout", Reason: "no result within 1s"},
	}, c.Missing)
	tt := findTable(t, c, "turnaround")
	assert.Equal(t, 1, tt.Rows[0].Cells[2].Run)
	assert.Equal(t, 2, tt.Rows[1].Cells[3].Run)
	assert.Equal(t, 0, tt.Rows[0].Cells[3].Run)
}
