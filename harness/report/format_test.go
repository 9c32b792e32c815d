package report

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// The JSON report's runs carry a "summary" only when the tables use it
// (status ok), as CSV fills its summary cells: a run that left jobs
// unscheduled has its numbers as "partial_summary" (CSV shows them), any
// other failed run neither (CSV's cells are blank). A failed run used to
// carry the simulator's partial numbers as its summary, which an average
// over runs[].summary took in. Wins have snake_case keys like the rest.
func TestJSONRunsSummaryOnlyWithAResult(t *testing.T) {
	sum := bench.Summary{Jobs: 10, AvgTurnaround: 3419, TotalCost: 1.5}
	results := []bench.Result{
		{Config: "c", Variant: "ok", Status: bench.StatusOK, Summary: sum},
		{Config: "c", Variant: "unscheduled", Status: bench.StatusUnscheduled, Summary: sum, Unscheduled: 2},
		{Config: "c", Variant: "error", Status: bench.StatusError, Summary: sum, Err: "failed"},
		{Config: "c", Variant: "timeout", Status: bench.StatusTimeout, Summary: sum, Err: "no result within 1s"},
	}
	cols := []string{"ok", "unscheduled", "error", "timeout"}
	out := Output{Results: results, Comparison: Compare(results, []string{"c"}, cols, []string{"ok"}, Turnaround)}
	var buf bytes.Buffer
	require.NoError(t, out.Write(&buf, FormatJSON))
	var doc struct {
		Runs []map[string]json.RawMessage `json:"runs"`
		Wins []map[string]json.RawMessage `json:"wins"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	require.Len(t, doc.Runs, len(results))
	for i, tc := range []struct{ summary, partial bool }{{true, false}, {false, true}, {false, false}, {false, false}} {
		run := doc.Runs[i]
		_, hasSummary := run["summary"]
		_, hasPartial := run["partial_summary"]
		assert.Equal(t, tc.summary, hasSummary, cols[i])
		assert.Equal(t, tc.partial, hasPartial, cols[i])
		if tc.summary || tc.partial {
			var s bench.Summary
			require.NoError(t, json.Unmarshal(append(run["summary"], run["partial_summary"]...), &s))
			assert.Equal(t, sum, s, cols[i])
		}
		assert.JSONEq(t, `"`+cols[i]+`"`, string(run["strategy"]), "the rest of the run is kept")
	}
	require.NotEmpty(t, doc.Wins)
	for _, w := range doc.Wins {
		assert.ElementsMatch(t, []string{"column", "configs", "of"}, slices.Collect(maps.Keys(w)))
	}
}
