package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// Strategies' metrics reach every output format: a table per metric name
// (only the columns that report it), a CSV column per name, the runs' and
// the tables' JSON. In-process the values use the simulator's truth; over
// TCP the strategy marks its approximations and every format says so.
func TestStrategyMetricsInEveryFormat(t *testing.T) {
	vs, err := columns.ParseVariants([]string{"librariskd,ff"})
	require.NoError(t, err)
	for _, tc := range []struct {
		target bench.Target
		approx bool
	}{{bench.Target{}, false}, {bench.Target{Server: bench.ServerDsmock}, true}} {
		b := &bench.Bench{Sources: fixtureSources(t, "sample-config01"), Variants: vs, Target: tc.target}
		results := b.Run(context.Background())
		require.Len(t, results, 2)
		require.True(t, results[0].OK(), results[0].Err)
		m, ok := results[0].Metrics.Get("waitSLA")
		require.True(t, ok)
		assert.Equal(t, tc.approx, m.Approx)
		assert.Empty(t, results[1].Metrics, "ff reports nothing")
		rev, _ := results[0].Metrics.Get("revenue")
		net, ok := results[0].Metrics.Get("net")
		require.True(t, ok, "dsbench adds rentalCost and net beside a revenue")
		assert.InDelta(t, rev.Value-results[0].Summary.TotalCost, net.Value, 1e-9)
		out := Output{Results: results, Comparison: Compare(results, sources.Names(b.Sources), b.Columns(), nil, Turnaround)}

		var text bytes.Buffer
		require.NoError(t, out.Write(&text, FormatMarkdown))
		assert.Contains(t, text.String(), "Strategy metric deadlineMetPct (%)")
		assert.Equal(t, tc.approx, bytes.Contains(text.Bytes(), []byte("waitSLA (s): mean wait TST − TSU of SLA-met jobs (Eq. 6.1) [approximate")))

		var c bytes.Buffer
		require.NoError(t, out.Write(&c, FormatCSV))
		rows, err := csv.NewReader(&c).ReadAll()
		require.NoError(t, err)
		header := rows[0]
		assert.Equal(t, CSVHeader, header[:len(CSVHeader)])
		wait := "metric:waitSLA"
		if tc.approx {
			wait += "~"
		}
		assert.Contains(t, header, "metric:deadlineMetPct")
		assert.Contains(t, header, wait)
		col := len(CSVHeader)
		assert.NotEmpty(t, rows[1][col], "librariskd's first metric")
		assert.Empty(t, rows[2][col], "ff's cell")

		var j bytes.Buffer
		require.NoError(t, out.Write(&j, FormatJSON))
		var doc struct {
			Runs []struct {
				Metrics []struct {
					Name   string   `json:"name"`
					Value  *float64 `json:"value"`
					Approx bool     `json:"approx"`
				} `json:"metrics"`
			} `json:"runs"`
			Metrics []struct {
				Title   string   `json:"title"`
				Columns []string `json:"columns"`
			} `json:"strategy_metrics"`
		}
		require.NoError(t, json.Unmarshal(j.Bytes(), &doc))
		require.NotEmpty(t, doc.Runs[0].Metrics)
		assert.Equal(t, "deadlineMetPct", doc.Runs[0].Metrics[0].Name)
		require.NotEmpty(t, doc.Metrics)
		assert.Equal(t, []string{"librariskd"}, doc.Metrics[0].Columns)
	}
}

// A strategy metric's table has only the columns that report it, so its
// Average can be over more configs than the main tables': its row then
// says over how many, as theirs does, and a note says why. It used to read
// "Average 157.39" under a main table's "Average (2/3 configs) 66.95".
func TestMetricAverageLabelledWhenItsConfigsDiffer(t *testing.T) {
	metric := bench.Reported{{Name: "x", Value: 1}}
	ok := func(cfg, col string) bench.Result {
		r := bench.Result{Config: cfg, Variant: col, Status: bench.StatusOK, Summary: bench.Summary{AvgTurnaround: 10, TotalCost: 1}}
		if col == "m" {
			r.Metrics = metric
		}
		return r
	}
	for _, tc := range []struct {
		name        string
		bOnC3       bench.Result
		avg, noteOn bool
		mainLabel   string
	}{
		{"b fails on c3", bench.Result{Config: "c3", Variant: "b", Status: bench.StatusTimeout, Err: "no result within 1s"}, true, true, "Average (2/3 configs)"},
		{"every run ok", ok("c3", "b"), false, false, "Average "},
	} {
		res := []bench.Result{ok("c1", "m"), ok("c2", "m"), ok("c3", "m"), ok("c1", "b"), ok("c2", "b"), tc.bOnC3}
		out := Output{Results: res, Comparison: Compare(res, []string{"c1", "c2", "c3"}, []string{"m", "b"}, []string{"b"}, Turnaround)}
		var text bytes.Buffer
		require.NoError(t, out.Write(&text, FormatTable))
		_, metricTable, found := bytes.Cut(text.Bytes(), []byte("Strategy metric x\n"))
		require.True(t, found, tc.name)
		assert.Contains(t, text.String(), "\n"+tc.mainLabel, tc.name)
		assert.Equal(t, tc.avg, bytes.Contains(metricTable, []byte("\nAverage (3/3 configs)  1.00\n")), "%s:\n%s", tc.name, metricTable)
		assert.Equal(t, !tc.avg, bytes.Contains(metricTable, []byte("\nAverage  1.00\n")), "%s:\n%s", tc.name, metricTable)
		assert.Equal(t, tc.noteOn, bytes.Contains(metricTable, []byte("The averages here are not over the main tables' configs (2/3): only this table's columns must have a result.")), tc.name)
	}
}
