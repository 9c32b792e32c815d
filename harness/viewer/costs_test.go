package viewer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The split by hand. small: 2 cores at $3.6/h ($0.0005 a core-second);
// big: 4 cores at $3.6/h ($0.00025), the bound's rate for every job. The
// bound: (1×100 + 2×100 + 3×50) core-seconds × $0.00025 = $0.1125.
func TestCostsSplitByHand(t *testing.T) {
	r := &Run{
		Types:   []Type{{Name: "small", Cores: 2, Memory: 10, Disk: 10, Rate: 3.6}, {Name: "big", Cores: 4, Memory: 10, Disk: 10, Rate: 3.6}},
		Servers: []Server{{Type: 0, ID: 0, Power: []Power{{0, 10, -1, false}}}, {Type: 1, ID: 0, Power: []Power{{0, 20, -1, false}}}, {Type: 0, ID: 1}},
		Jobs: []Job{
			{ID: 0, Cores: 1, Act: 100},
			{ID: 1, Cores: 2, Act: 100},
			{ID: 2, Cores: 3, Act: 50},
			{ID: 3, Cores: 9, Act: 70}, // no type holds it: not in the bound
		},
		Stays: []Stay{
			{Job: 1, Server: 0, Start: 10, End: 60, Outcome: Failed},     // lost: 100 core-seconds at small's rate
			{Job: 0, Server: 0, Start: 60, End: 160, Outcome: Completed}, // small billed 10–160: its last end
			{Job: 1, Server: 1, Start: 20, End: 120, Outcome: Completed}, // big billed 20–200
			{Job: 2, Server: 1, Start: 150, End: 200, Outcome: Completed},
			{Job: 3, Server: 2, Start: -1, End: -1, Outcome: Unfinished},
		},
	}
	c := r.Costs()
	const bound = 0.1125
	// small ($0.15): job 0's 100 core-seconds, at $0.00025 (work) +
	// $0.00025 (dearer); job 1's failed 100 at $0.0005; one core unused
	// while job 0 runs alone, 100 core-seconds. big ($0.18): 200 + 150
	// core-seconds of work; 30 s with nothing running ($0.001 a second);
	// 150 s running something, 600 core-seconds of which 250 unused.
	assert.InDelta(t, (0.15+0.18)/bound, c.Ratio, 1e-6)
	assert.InDelta(t, 1, c.Work, 1e-9)
	assert.InDelta(t, 0.025/bound, c.Dearer, 1e-9)
	assert.InDelta(t, 0.05/bound, c.Lost, 1e-9)
	assert.InDelta(t, (0.05+0.0625)/bound, c.Partial, 1e-9)
	assert.InDelta(t, 0.03/bound, c.Empty, 1e-9)
	assert.InDelta(t, c.Ratio, c.Work+c.Dearer+c.Lost+c.Partial+c.Empty, 1e-6, "the parts add up")

	assert.Equal(t, Costs{}, (&Run{Types: r.Types, Servers: r.Servers, Jobs: r.Jobs[3:]}).Costs(), "no job a type holds: no bound, no split")

	m := MeanCosts("mean", []CostRow{{"a", Costs{Ratio: 1.5, Work: 1, Partial: 0.5}}, {"b", Costs{Ratio: 2.5, Work: 1, Dearer: 0.2, Lost: 0.1, Empty: 1.2}}})
	assert.Equal(t, CostRow{"mean", Costs{Ratio: 2, Work: 1, Dearer: 0.1, Lost: 0.05, Partial: 0.25, Empty: 0.6}}, m)
	assert.Len(t, WithMeanOf("m", []CostRow{{"a", c}}, MeanCosts), 1, "one row: no mean")

	var b strings.Builder
	require.NoError(t, WriteCosts(&b, []CostRow{{"one", c}, m}))
	lines := strings.Split(b.String(), "\n")
	require.GreaterOrEqual(t, len(lines), 4, b.String())
	assert.Equal(t, []string{"run", "cost", "ratio", "work", "dearer", "types", "lost", "runs", "partly", "used", "empty"}, strings.Fields(lines[0]))
	assert.Equal(t, []string{"one", "2.9333", "1.0000", "0.2222", "0.4444", "1.0000", "0.2667"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"mean", "2.0000", "1.0000", "0.1000", "0.0500", "0.2500", "0.6000"}, strings.Fields(lines[2]))
}

// Stays are counted only inside the billed periods of their own server:
// a server switched off and booted again, a run killed by the TERM, a
// migrated run, and a run killed after the server's billing ended (a
// server still on is billed to its last completed or failed job). One
// type of 2 cores at $3.6/h ($0.0005 a core-second, the bound's rate):
// the bound is 95 core-seconds, $0.0475.
func TestCostsSplitClipsToBilledPeriods(t *testing.T) {
	r := &Run{
		Types: []Type{{Name: "t", Cores: 2, Memory: 10, Disk: 10, Rate: 3.6}},
		Servers: []Server{
			{Type: 0, ID: 0, Power: []Power{{0, 10, 50, false}, {60, 70, -1, false}}}, // billed 10–50 and 70–100
			{Type: 0, ID: 1, Power: []Power{{0, 10, -1, false}}},                      // billed 10–135
		},
		Jobs: []Job{{ID: 0, Cores: 1, Act: 30}, {ID: 1, Cores: 1, Act: 10}, {ID: 2, Cores: 2, Act: 20}, {ID: 3, Cores: 1, Act: 5}, {ID: 4, Cores: 1, Act: 10}},
		Stays: []Stay{
			{Job: 4, Server: 1, Start: 10, End: 20, Outcome: Migrated}, // lost: 10 core-seconds
			{Job: 0, Server: 0, Start: 10, End: 40, Outcome: Completed},
			{Job: 1, Server: 0, Start: 20, End: 50, Outcome: Killed}, // by the TERM at 50: lost, 30
			{Job: 4, Server: 0, Start: 40, End: 50, Outcome: Completed},
			{Job: 1, Server: 0, Start: 70, End: 80, Outcome: Completed},
			{Job: 2, Server: 0, Start: 80, End: 100, Outcome: Completed},
			{Job: 3, Server: 0, Start: 100, End: 130, Outcome: Killed}, // after the billing: nothing
			{Job: 3, Server: 1, Start: 130, End: 135, Outcome: Completed},
		},
	}
	c := r.Costs()
	const bound = 0.0475
	// Server 0: 10–50 runs 70 of its 80 core-seconds, 70–100 50 of 60.
	// Server 1: 15 of its 125 s run a job of 1 core; 110 s run none.
	assert.InDelta(t, 0.195/bound, c.Ratio, 1e-6)
	assert.InDelta(t, 1, c.Work, 1e-9)
	assert.InDelta(t, 0, c.Dearer, 1e-9)
	assert.InDelta(t, 40*0.0005/bound, c.Lost, 1e-9)
	assert.InDelta(t, 35*0.0005/bound, c.Partial, 1e-9)
	assert.InDelta(t, 0.11/bound, c.Empty, 1e-9)
}

// unionLength: overlapping, nested, touching and separate intervals.
func TestUnionLength(t *testing.T) {
	for _, c := range []struct {
		iv   [][2]int
		want int
	}{
		{nil, 0},
		{[][2]int{{0, 10}}, 10},
		{[][2]int{{5, 10}, {0, 6}}, 10},
		{[][2]int{{0, 10}, {2, 3}}, 10},
		{[][2]int{{0, 5}, {5, 10}}, 10},
		{[][2]int{{0, 5}, {7, 10}, {8, 9}}, 8},
	} {
		assert.Equal(t, c.want, unionLength(c.iv), "%v", c.iv)
	}
}
