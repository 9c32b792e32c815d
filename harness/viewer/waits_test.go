package viewer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The split by hand: boots of 60 s (type 0) and 100 s (type 1); only the
// completing stay counts, and time lost to a migration is waiting.
func TestWaitsSplitAtTheBoot(t *testing.T) {
	r := &Run{
		Types:   []Type{{Name: "small", Boot: 60}, {Name: "big", Boot: 100}},
		Servers: []Server{{Type: 0, ID: 0}, {Type: 1, ID: 0}},
		Jobs: []Job{
			{ID: 0, Submit: 0},   // no wait
			{ID: 1, Submit: 10},  // 40 s: within a boot
			{ID: 2, Submit: 20},  // 150 s on small: 60 within, 90 beyond
			{ID: 3, Submit: 30},  // 150 s on big: 100 within, 50 beyond
			{ID: 4, Submit: 40},  // migrated at 100, completes from 300 on small: 260 s, 60 + 200
			{ID: 5, Submit: 50},  // killed: not counted
			{ID: 6, Submit: 60},  // never started: not counted
			{ID: 7, Submit: 500}, // failed, not counted, then completes at once
		},
		Stays: []Stay{
			{Job: 0, Server: 0, Start: 0, End: 100, Outcome: Completed},
			{Job: 1, Server: 0, Start: 50, End: 150, Outcome: Completed},
			{Job: 2, Server: 0, Start: 170, End: 270, Outcome: Completed},
			{Job: 3, Server: 1, Start: 180, End: 280, Outcome: Completed},
			{Job: 4, Server: 1, Start: 40, End: 100, Outcome: Migrated},
			{Job: 4, Server: 0, Start: 300, End: 400, Outcome: Completed},
			{Job: 5, Server: 0, Start: 50, End: 70, Outcome: Killed},
			{Job: 6, Server: 0, Start: -1, End: -1, Outcome: Unfinished},
			{Job: 7, Server: 1, Start: 500, End: 520, Outcome: Failed},
			{Job: 7, Server: 1, Start: 600, End: 700, Outcome: Completed},
		},
	}
	w := r.Waits()
	// 6 jobs of 100 s; waits 0, 40, 150, 150, 260, 100.
	assert.Equal(t, 6, w.Jobs)
	assert.Equal(t, 100.0, w.MeanRuntime)
	assert.InDelta(t, (0+40+60+100+60+100)/600.0, w.Within, 1e-12)
	assert.InDelta(t, (90+50+200)/600.0, w.Beyond, 1e-12)
	assert.Equal(t, 3, w.Long)

	assert.Equal(t, Waits{}, (&Run{Types: r.Types, Servers: r.Servers, Jobs: r.Jobs}).Waits(), "no completed job: nothing to split")

	m := MeanWaits("mean", []WaitRow{{"a", Waits{Jobs: 2, MeanRuntime: 10, Within: 0.1, Beyond: 0.3, Long: 1}}, {"b", Waits{Jobs: 4, MeanRuntime: 30, Within: 0.3, Beyond: 0.1, Long: 2}}})
	assert.Equal(t, WaitRow{"mean", Waits{Jobs: 6, Within: 0.2, Beyond: 0.2, Long: 3}}, m)

	assert.Len(t, WithMean("m", []WaitRow{{"a", w}}), 1, "one row: no mean")
	assert.Equal(t, m, WithMean("mean", []WaitRow{{"a", Waits{Jobs: 2, MeanRuntime: 10, Within: 0.1, Beyond: 0.3, Long: 1}}, {"b", Waits{Jobs: 4, MeanRuntime: 30, Within: 0.3, Beyond: 0.1, Long: 2}}})[2])

	var b strings.Builder
	require.NoError(t, WriteWaits(&b, []WaitRow{{"one", w}, m}))
	lines := strings.Split(b.String(), "\n")
	require.GreaterOrEqual(t, len(lines), 4, b.String())
	assert.Equal(t, []string{"one", "6", "100.0", "1.1667", "0.6000", "0.5667", "3"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"mean", "6", "-", "0.4000", "0.2000", "0.2000", "3"}, strings.Fields(lines[2]))
}
