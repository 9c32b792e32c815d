package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// The hand-computed case as the summary shows it: atl and ff finished the
// three configs, mine two (a timeout on c3); the means are over c1 and c2.
func TestSummaryHandComputed(t *testing.T) {
	res := handResults()
	r := Output{Results: res, Comparison: Compare(res, []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff"}, Turnaround)}
	var b bytes.Buffer
	require.NoError(t, r.Write(&b, FormatSummary))
	want := `Ranked by configs finished, then turnaround time (-o); means over the 2 configs every strategy finished
#  Strategy  Turnaround  Util %   Cost  TAT/bound  Cost/bound  Finished  Beats the baselines
1  ff             55.00   55.00  30.00       2.75        6.00       3/3  (baseline)
2  atl           200.00  100.00  20.00      10.00        4.00       3/3  (baseline)
3  mine           55.00   75.00  20.00       2.75        4.00       2/3  1/2 configs

TAT/bound and Cost/bound: means of each config's ratio to its physical bound (1.00 is the bound).
Baselines (-b): atl, ff.
Look at ff, the best on the objective of those that finished every config; on the cost-turnaround frontier (no
  other both faster and cheaper): ff, atl.
Beats every baseline on the most configs (1 of 2): mine.

1 run without a result:
  c3  mine  timeout  killed after 1s

More: -f table (course tables), -a (fewer columns), --list (every strategy), -f csv|json, --plots DIR, --html FILE
`
	assert.Equal(t, want, b.String())
}

// Decisions of the ranking, the frontier and what to look at.
func TestSummarise(t *testing.T) {
	ok := func(cfg, col string, tt int, util, cost float64) bench.Result {
		return bench.Result{Config: cfg, Variant: col, Status: bench.StatusOK,
			Summary: bench.Summary{AvgTurnaround: tt, AvgUtil: util, TotalCost: cost},
			Bounds:  bench.Bounds{MeanActualRuntime: 10, PackingCost: 1}}
	}
	queued := bench.Result{Config: "c2", Variant: "b", Status: bench.StatusError, ResourceFailures: true,
		Err: "10 consecutive CHKQ with nothing running: jobs are stuck in the global queue and the strategy does not dequeue them"}
	for _, tc := range []struct {
		name      string
		results   []bench.Result
		objective Measure
		ranked    []string
		frontier  []string
		own       bool
		look      string // a line of lookAt that must be there
		expected  map[string][]string
		failed    int
	}{
		{"turnaround, lower first", []bench.Result{ok("c", "a", 30, 50, 9), ok("c", "b", 20, 60, 10), ok("c", "x", 25, 70, 8)},
			Turnaround, []string{"b", "x", "a"}, []string{"b", "x"}, false,
			"Look at b, the best on the objective of all; on the cost-turnaround frontier (no other both faster and cheaper): b, x.", map[string][]string{}, 0},
		{"utilisation, higher first", []bench.Result{ok("c", "a", 30, 50, 9), ok("c", "b", 20, 60, 10), ok("c", "x", 25, 70, 8)},
			Utilisation, []string{"x", "b", "a"}, []string{"x", "b"}, false, "", map[string][]string{}, 0},
		{"one on both", []bench.Result{ok("c", "a", 30, 50, 9), ok("c", "b", 20, 60, 7)},
			Turnaround, []string{"b", "a"}, []string{"b"}, false,
			"Look at b: the lowest mean turnaround and the lowest mean cost of all.", map[string][]string{}, 0},
		{"finished first, a run that cannot finish by design expected",
			[]bench.Result{ok("c1", "a", 30, 50, 9), ok("c1", "b", 20, 60, 7), ok("c2", "a", 30, 50, 9), queued},
			Turnaround, []string{"a", "b"}, []string{"a"}, false,
			"Look at a: the only strategy that finished 2 of the 2 configs.", map[string][]string{"c2": {"b"}}, 0},
		{"two columns with the same results named once", []bench.Result{ok("c1", "a", 30, 50, 9), ok("c1", "b", 20, 60, 10), ok("c1", "w", 30, 50, 9),
			ok("c2", "a", 30, 50, 9), ok("c2", "b", 20, 60, 10), ok("c2", "w", 30, 50, 9)},
			Turnaround, []string{"b", "a", "w"}, []string{"b", "a", "w"}, false,
			"Same results on every config: a = w.", map[string][]string{}, 0},
		{"no config finished by all: each its own mean",
			[]bench.Result{ok("c1", "a", 30, 50, 9), {Config: "c2", Variant: "a", Status: bench.StatusTimeout},
				{Config: "c1", Variant: "b", Status: bench.StatusError, Err: "boom"}, ok("c2", "b", 10, 50, 9)},
			Turnaround, []string{"b", "a"}, []string{"b"}, true, "", map[string][]string{}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cols []string
			var cfgs []string
			for _, r := range tc.results {
				if !slices.Contains(cols, r.Variant) {
					cols = append(cols, r.Variant)
				}
				if !slices.Contains(cfgs, r.Config) {
					cfgs = append(cfgs, r.Config)
				}
			}
			out := Output{Results: tc.results, Comparison: Compare(tc.results, cfgs, cols, nil, tc.objective)}
			s := out.Summarise()
			var got []string
			for _, rk := range s.Ranked {
				got = append(got, rk.Column)
			}
			assert.Equal(t, tc.ranked, got)
			assert.Equal(t, tc.frontier, s.Frontier)
			assert.Equal(t, tc.own, s.Own)
			assert.Equal(t, tc.expected, s.Expected)
			assert.Len(t, s.Failed, tc.failed)
			if tc.look != "" {
				assert.Contains(t, s.lookAt(), tc.look)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  []string
	}{
		{"a b c", 10, []string{"a b c"}},
		{"aaa bbb ccc", 7, []string{"aaa bbb", "  ccc"}},
		{"aaaaaaaaaa b", 4, []string{"aaaaaaaaaa", "  b"}},
		{"", 5, nil},
	} {
		assert.Equal(t, tc.want, wrap(tc.text, tc.width), "%q", tc.text)
	}
}

func TestParseFormatHints(t *testing.T) {
	f, err := ParseFormat("summary")
	require.NoError(t, err)
	assert.Equal(t, FormatSummary, f)
	_, err = ParseFormat("tabel")
	require.Error(t, err)
	assert.Equal(t, `unknown format "tabel" (want summary, table, markdown, csv or json); did you mean table?`, err.Error())
	_, err = ParseFormat("xml")
	assert.Equal(t, `unknown format "xml" (want summary, table, markdown, csv or json)`, err.Error())
}

// A strategy metric that is 0 in every run is named once, not printed as
// a table of zeros; one with a value is printed.
func TestZeroMetricTablesNamedOnce(t *testing.T) {
	res := []bench.Result{{Config: "c", Variant: "x", Status: bench.StatusOK, Summary: bench.Summary{AvgTurnaround: 5},
		Metrics: bench.Reported{{Name: "zeros", Value: 0}, {Name: "some", Value: 2}}}}
	out := Output{Results: res, Comparison: Compare(res, []string{"c"}, []string{"x"}, nil, Turnaround)}
	var b bytes.Buffer
	require.NoError(t, out.Write(&b, FormatTable))
	assert.Contains(t, b.String(), "Strategy metrics that are 0 in every run, not shown as tables: zeros.\n")
	assert.Contains(t, b.String(), "Strategy metric some")
	assert.False(t, strings.Contains(b.String(), "Strategy metric zeros"))
}

// Without a baseline among the columns the wins column is left out, and
// so is the baselines' line.
func TestSummaryWithoutBaselines(t *testing.T) {
	res := []bench.Result{{Config: "c", Variant: "x", Status: bench.StatusOK, Summary: bench.Summary{AvgTurnaround: 5, AvgUtil: 50, TotalCost: 2},
		Bounds: bench.Bounds{MeanActualRuntime: 5, PackingCost: 1}}}
	out := Output{Results: res, Comparison: Compare(res, []string{"c"}, []string{"x"}, []string{"ff"}, Turnaround)}
	var b bytes.Buffer
	require.NoError(t, out.Write(&b, FormatSummary))
	assert.Equal(t, `Ranked by configs finished, then turnaround time (-o); means over every config
#  Strategy  Turnaround  Util %  Cost  TAT/bound  Cost/bound  Finished
1  x               5.00   50.00  2.00       1.00        2.00       1/1

TAT/bound and Cost/bound: means of each config's ratio to its physical bound (1.00 is the bound).

More: -f table (course tables), -a (fewer columns), --list (every strategy), -f csv|json, --plots DIR, --html FILE
`, b.String())
}

// Columns are the same only when every config's run is: one config apart,
// or a column without a result anywhere, they are not named.
func TestSameResults(t *testing.T) {
	ok := func(cfg, col string, tt int) bench.Result {
		return bench.Result{Config: cfg, Variant: col, Status: bench.StatusOK, Summary: bench.Summary{AvgTurnaround: tt}}
	}
	fail := func(cfg, col string) bench.Result {
		return bench.Result{Config: cfg, Variant: col, Status: bench.StatusTimeout}
	}
	rank := func(cols ...string) []Ranked {
		var r []Ranked
		for _, c := range cols {
			r = append(r, Ranked{Column: c})
		}
		return r
	}
	for _, tc := range []struct {
		name    string
		results []bench.Result
		ranked  []Ranked
		want    [][]string
	}{
		{"equal on both configs", []bench.Result{ok("c1", "a", 5), ok("c1", "b", 5), ok("c2", "a", 7), ok("c2", "b", 7)}, rank("b", "a"), [][]string{{"b", "a"}}},
		{"one config apart", []bench.Result{ok("c1", "a", 5), ok("c1", "b", 5), ok("c2", "a", 7), ok("c2", "b", 8)}, rank("a", "b"), nil},
		{"a failure the other has not", []bench.Result{ok("c1", "a", 5), ok("c1", "b", 5), ok("c2", "a", 7), fail("c2", "b")}, rank("a", "b"), nil},
		{"the same failure, a result elsewhere", []bench.Result{ok("c1", "a", 5), ok("c1", "b", 5), fail("c2", "a"), fail("c2", "b")}, rank("a", "b"), [][]string{{"a", "b"}}},
		{"no result anywhere", []bench.Result{fail("c1", "a"), fail("c1", "b")}, rank("a", "b"), nil},
		{"two groups, three in one", []bench.Result{ok("c", "a", 1), ok("c", "b", 2), ok("c", "x", 1), ok("c", "y", 2), ok("c", "z", 1)},
			rank("a", "b", "x", "y", "z"), [][]string{{"a", "x", "z"}, {"b", "y"}}},
	} {
		assert.Equal(t, tc.want, sameResults(tc.results, tc.ranked), tc.name)
	}
}
