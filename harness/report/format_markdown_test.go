package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// A '|' in a column label, a config name or a reason is written "\|" in
// every Markdown table (the course tables, wins, metric and bound tables,
// runs without a result, runs with a note, the cost left out): the row
// keeps the header's number of cells.
func TestMarkdownEscapesPipes(t *testing.T) {
	sum := bench.Summary{Jobs: 10, AvgTurnaround: 100, TotalCost: 2, AvgUtil: 50}
	better := bench.Summary{Jobs: 10, AvgTurnaround: 50, TotalCost: 1, AvgUtil: 60}
	metric := bench.Reported{{Name: "m|n", Value: 1}}
	results := []bench.Result{
		{Config: "c|1", Variant: "ff", Status: bench.StatusOK, Summary: sum, Metrics: metric},
		{Config: "c|1", Variant: "x:rules=a|b", Status: bench.StatusOK, Summary: better, Metrics: metric, Err: "note | with a pipe",
			Unbilled: &mocksrv.Unbilled{Servers: 1, Seconds: 10, Cost: 0.5}},
		{Config: "c|2", Variant: "ff", Status: bench.StatusOK, Summary: sum},
		{Config: "c|2", Variant: "x:rules=a|b", Status: bench.StatusError, Err: "client stderr: line 1 | line 2\nline 3"},
	}
	cols := []string{"ff", "x:rules=a|b"}
	out := Output{Results: results, Comparison: Compare(results, []string{"c|1", "c|2"}, cols, []string{"ff"}, Turnaround)}
	var buf bytes.Buffer
	require.NoError(t, out.Write(&buf, FormatMarkdown))
	md := buf.String()
	rows := strings.Join(checkMarkdownTables(t, md), "\n")
	for _, want := range []string{
		`| Config | ff | x:rules=a\|b |`,
		`| c\|1 |`,
		`| x:rules=a\|b | 1/1 | c\|1 |`,
		`| c\|2 | x:rules=a\|b | error | client stderr: line 1 \| line 2 line 3 |`,
		`| c\|1 | x:rules=a\|b | note \| with a pipe |`,
		`| c\|1 | x:rules=a\|b | 1 | 10 | $0.50 |`,
	} {
		assert.Contains(t, rows, want)
	}
	for _, heading := range []string{"### Configs where a strategy beats", "### Runs without a result", "### Runs with a note", "### " + unbilledHeading, "### Strategy metric m|n"} {
		assert.Contains(t, md, heading, "the test covers this table")
	}
	assert.Equal(t, `a\|b c d e`, mdCell("a|b\nc\r\nd\re"))
}
