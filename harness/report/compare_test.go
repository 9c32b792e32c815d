package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
)

func TestCompareHandComputed(t *testing.T) {
	c := Compare(handResults(), []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff", "nosuch"}, Turnaround)
	require.Equal(t, []string{"atl", "ff"}, c.Baselines, "baselines not among the columns are dropped")

	tt := c.Tables[Turnaround]
	assert.Equal(t, []string{"c1", "c2"}, tt.Complete, "c3 lacks mine, so averages use c1 and c2 only")
	assert.True(t, math.IsNaN(tt.Cells[2][2]))
	assert.InDeltaSlice(t, []float64{200, 55, 55}, tt.Average, 1e-12)
	require.Len(t, tt.Normalised, 3)
	assert.Equal(t, "atl", tt.Normalised[0].Base)
	assert.InDeltaSlice(t, []float64{1, 0.275, 0.275}, tt.Normalised[0].Values, 1e-12)
	assert.InDeltaSlice(t, []float64{200.0 / 55, 1, 1}, tt.Normalised[1].Values, 1e-12)
	assert.Equal(t, "Average", tt.Normalised[2].Base)
	assert.InDeltaSlice(t, []float64{200 / 127.5, 55 / 127.5, 55 / 127.5}, tt.Normalised[2].Values, 1e-12)

	util := c.Tables[Utilisation]
	assert.InDeltaSlice(t, []float64{100, 55, 75}, util.Average, 1e-12)

	// Wins on turnaround: mine beats both baselines on c1 (40 < 50 < 100) but
	// not on c2 (70 > 60); c3 does not count (no result).
	require.Len(t, c.Wins, 1)
	assert.Equal(t, Wins{Column: "mine", Configs: []string{"c1"}, Of: 2}, c.Wins[0])

	// Bound ratios: turnaround / 20 and cost / 5.
	assert.InDelta(t, 2.0, c.BoundTables[0].Cells[0][2], 1e-12)
	assert.InDelta(t, 3.0, c.BoundTables[1].Cells[0][2], 1e-12)
}

func TestWinsUtilisationIsHigherBetter(t *testing.T) {
	c := Compare(handResults(), []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"ff"}, Utilisation)
	// Every non-baseline column gets a row: atl (100 > ff everywhere) and mine
	// (70 > 60 on c1, 80 > 50 on c2; no result on c3).
	require.Len(t, c.Wins, 2)
	assert.Equal(t, Wins{Column: "atl", Configs: []string{"c1", "c2", "c3"}, Of: 3}, c.Wins[0])
	assert.Equal(t, Wins{Column: "mine", Configs: []string{"c1", "c2"}, Of: 2}, c.Wins[1])
	c = Compare(handResults(), []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl"}, Utilisation)
	// Ties are not wins (strict comparison): nobody beats 100.
	assert.Empty(t, c.Wins[1].Configs)
}

func TestWinsStrictOnTies(t *testing.T) {
	res := []bench.Result{
		{Config: "c", Variant: "b", Status: bench.StatusOK, Summary: bench.Summary{AvgTurnaround: 10}},
		{Config: "c", Variant: "x", Status: bench.StatusOK, Summary: bench.Summary{AvgTurnaround: 10}},
	}
	c := Compare(res, []string{"c"}, []string{"b", "x"}, []string{"b"}, Turnaround)
	assert.Equal(t, Wins{Column: "x", Of: 1}, c.Wins[0])
}

func TestReportFormats(t *testing.T) {
	res := handResults()
	r := Output{Results: res, Comparison: Compare(res, []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff"}, Turnaround)}

	var tb bytes.Buffer
	require.NoError(t, r.Write(&tb, FormatTable))
	text := tb.String()
	assert.Contains(t, text, "Turnaround time (objective)")
	assert.Contains(t, text, "Average (2/3 configs)")
	assert.Contains(t, text, "Normalised (Average)")
	assert.Regexp(t, `c3\s+500\s+80\s+timeout`, text, "a run without a result shows its status in its cell")
	assert.Regexp(t, `mine\s+1/2\s+c1`, text)
	assert.Regexp(t, `c3\s+mine\s+timeout\s+killed after 1s`, text, "and its reason below")

	var md bytes.Buffer
	require.NoError(t, r.Write(&md, FormatMarkdown))
	assert.Contains(t, md.String(), "| Config | atl | ff | mine |\n|---|---:|---:|---:|\n")

	var cb bytes.Buffer
	require.NoError(t, r.Write(&cb, FormatCSV))
	recs, err := csv.NewReader(&cb).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 1+len(res))
	assert.Equal(t, CSVHeader, recs[0])
	assert.Equal(t, []string{"c1", "mine", "ok"}, recs[3][:3])
	assert.Equal(t, "40", recs[3][12])
	assert.Equal(t, "2.0000", recs[3][15])
	assert.Equal(t, "timeout", recs[9][2])
	assert.Equal(t, "", recs[9][12])

	var jb bytes.Buffer
	require.NoError(t, r.Write(&jb, FormatJSON))
	var decoded map[string]any
	require.NoError(t, json.Unmarshal(jb.Bytes(), &decoded), "NaN cells must be encoded as null")
	assert.Equal(t, "tt", decoded["objective"])
	cells := decoded["tables"].([]any)[0].(map[string]any)["cells"].([]any)
	assert.Nil(t, cells[2].([]any)[2])
}

func TestParseMeasure(t *testing.T) {
	for in, want := range map[string]Measure{"tt": Turnaround, "ru": Utilisation, "co": Cost, "Cost": Cost} {
		m, err := ParseMeasure(in)
		require.NoError(t, err)
		assert.Equal(t, want, m)
	}
	_, err := ParseMeasure("speed")
	assert.EqualError(t, err, `unknown objective "speed" (want tt (turnaround), ru (utilisation) or co (cost))`)
	_, err = ParseMeasure("cots")
	assert.EqualError(t, err, `unknown objective "cots" (want tt (turnaround), ru (utilisation) or co (cost)); did you mean cost?`)
}
