package frontier_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// today is each preset's mean TAT and cost ratio on the 18 shared config*
// fixtures: the goal table of docs/frontier.md has them rounded to four
// decimals (dsbench's per-run columns averaged), here they are dsbench's
// unrounded means (-f json's bound_ratios[].average) to six. No change to
// a rule may make a preset worse than this on either ratio (the page's
// table is what users are told to expect); a change that makes a preset
// better writes its new figures here and in the page's table in the same
// commit.
var today = map[string][2]float64{
	"cost":       {1.075437, 1.139592},
	"balanced":   {1.024726, 1.177984},
	"turnaround": {1.007348, 1.778797},
}

// slack is the rounding of today's six decimals: the runs are
// deterministic, so a mean above today's by more than that is a change.
const slack = 5e-7

// goals are the goal table's own rows for the 18 configs, which today's
// figures meet: balanced within (1.025, 1.18), the cost preset within
// (1.10, 1.17), the turnaround preset's TAT within 1.01 (its cost row,
// below fafc's on every config, is checked run by run).
var goals = map[string][2]float64{
	"cost":       {1.10, 1.17},
	"balanced":   {1.025, 1.18},
	"turnaround": {1.01, math.Inf(1)},
}

// TestGoalTable runs the goal table of docs/frontier.md on the 18 shared
// configs and the embedded suite, in-process: every preset no worse than
// today on either ratio and within its goal, the turnaround preset cheaper
// than fafc on every config, and balanced better than cost-reduce on both
// ratios over the embedded suite. It is what a change to any rule has to
// keep, so unlike the other whole-run tests it runs in the quick (-short)
// suite too: 92 runs, about 2 s (10 s under -race). -v prints the
// figures, rounded as the page's table has them.
func TestGoalTable(t *testing.T) {
	paths := fixtures.Glob(t, "configs/config*.xml")
	require.Len(t, paths, 18)
	sums := map[string][2]float64{}
	for _, p := range paths {
		cfg, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: filepath.Dir(p)})
		require.NoError(t, err, p)
		b := bench.BoundsOf(cfg)
		for _, preset := range presets {
			tat, cost := runRatios(t, cfg, b, "frontier", map[string]string{"preset": preset})
			s := sums[preset]
			sums[preset] = [2]float64{s[0] + tat, s[1] + cost}
			if preset == "turnaround" {
				_, fafc := runRatios(t, cfg, b, "fafc", nil)
				assert.Less(t, cost, fafc, "%s: the turnaround preset's cost ratio against fafc's", p)
			}
		}
	}
	for _, preset := range presets {
		mean := [2]float64{sums[preset][0] / 18, sums[preset][1] / 18}
		t.Logf("%s: %.4f / %.4f (%.6f / %.6f; today %.6f / %.6f)", preset, mean[0], mean[1], mean[0], mean[1], today[preset][0], today[preset][1])
		for i, ratio := range []string{"TAT", "cost"} {
			assert.LessOrEqual(t, mean[i], today[preset][i]+slack, "%s: mean %s ratio worse than today's", preset, ratio)
			assert.LessOrEqual(t, mean[i], goals[preset][i], "%s: mean %s ratio above the goal", preset, ratio)
		}
	}

	suite := sources.Suite() // what dsbench runs without a config
	require.NotEmpty(t, suite)
	var bal, red [2]float64
	for _, src := range suite {
		cfg, err := src.Load()
		require.NoError(t, err, src.Name)
		b := bench.BoundsOf(cfg)
		bt, bc := runRatios(t, cfg, b, "frontier", nil)
		rt, rc := runRatios(t, cfg, b, "cost-reduce", nil)
		bal, red = [2]float64{bal[0] + bt, bal[1] + bc}, [2]float64{red[0] + rt, red[1] + rc}
	}
	n := float64(len(suite))
	t.Logf("embedded suite: balanced %.4f / %.4f, cost-reduce %.4f / %.4f", bal[0]/n, bal[1]/n, red[0]/n, red[1]/n)
	assert.Less(t, bal[0], red[0], "embedded suite: balanced's mean TAT ratio against cost-reduce's")
	assert.Less(t, bal[1], red[1], "embedded suite: balanced's mean cost ratio against cost-reduce's")
}
