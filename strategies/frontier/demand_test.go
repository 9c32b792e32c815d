package frontier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
)

// The demand forecast's bookkeeping: an arrival needs a type when it went
// to a server of that type that was off, or kept on for it while its best
// alternative was a boot; the rate is over the arrivals remembered; the
// gap between decisions is a decaying mean of the positive ones.
func TestDemandLearnsRatesAndGaps(t *testing.T) {
	d := newDemand(true)
	d.tick(0)
	d.tick(0) // same decision time: no gap
	assert.Zero(t, d.gap)
	d.tick(10)
	assert.Equal(t, 10.0, d.gap)
	d.tick(30)
	assert.InDelta(t, 0.9*10+0.1*20, d.gap, 1e-12)

	lambda, _ := d.rate("small", 100)
	assert.Zero(t, lambda, "no arrival yet")
	d.placed(0, "small", 2)
	d.placed(50, "", 1)
	d.placed(100, "small", 1)
	lambda, cores := d.rate("small", 100)
	assert.InDelta(t, 2.0/100, lambda, 1e-12, "two of the arrivals since 0 needed a small server")
	assert.InDelta(t, 1.5, cores, 1e-12)
	lambda, _ = d.rate("small", 400)
	assert.InDelta(t, 2.0/400, lambda, 1e-12, "no arrival since: the rate falls as time passes")
	for i := range demandJobs {
		d.placed(200+i, "", 1)
	}
	lambda, _ = d.rate("small", 500)
	assert.Zero(t, lambda, "forgotten beyond the last demandJobs arrivals")

	_, v := cluster(t, nil)
	off := mustMachine(t, v, ref("small", 0))
	assert.Equal(t, "small", needs(off, false, false), "placed on a server that was off")
	assert.Equal(t, "small", needs(off, true, true))
	schedule(t, v, jb(0, 0, 2, 100), ref("small", 0))
	booting := mustMachine(t, v, ref("small", 0))
	assert.Equal(t, "", needs(booting, false, false), "a powered server not kept: nothing needed")
	assert.Equal(t, "", needs(booting, true, false), "kept, but the job would have gone to a powered server")
	assert.Equal(t, "small", needs(booting, true, true), "kept, and the job would have booted")
}

// wanted: an empty server is worth keeping until the next decision when
// fewer of its type are kept than the jobs expected to need one within a
// boot, and the chance one comes in the next gap times the boot it saves
// (place's price of delay, or the gain measured once kept servers have
// been used) exceeds its billed cost over the gap.
func TestDemandWantsAServer(t *testing.T) {
	f, v := cluster(t, map[string]string{"weight": "100", "warm": "demand"})
	f.perCoreSecond = 0.1 / 3600
	m := mustMachine(t, v, ref("small", 0)) // 2 cores, 0.2 $/h, boots in 60 s
	arrivals := func(n, every int) {
		f.dem = newDemand(true)
		for i := range n {
			f.dem.placed(i*every, "small", 2)
		}
	}
	for _, tc := range []struct {
		what     string
		n, every int
		gap      float64
		ahead    int
		uses     int
		gain     float64
		now      int
		want     bool
	}{
		{"a job needing a small server every 30 s, decisions 10 s apart", 10, 30, 10, 0, 0, 0, 270, true},
		{"no arrival has needed its type", 0, 30, 10, 0, 0, 0, 270, false},
		{"no decision gap learned yet", 10, 30, 0, 0, 0, 0, 270, false},
		{"three kept already: λ × boot = 10/270 × 60 ≈ 2.2 jobs expected within a boot", 10, 30, 10, 3, 0, 0, 270, false},
		{"two kept already: a third is still wanted", 10, 30, 10, 2, 0, 0, 270, true},
		{"arrivals stopped long ago: the rate has fallen", 10, 30, 10, 0, 0, 0, 1_000_000, false},
		{"kept servers gained almost nothing when used", 10, 30, 10, 0, demandLearned, 1e-9, 270, false},
		{"kept servers gained their boot's worth when used", 10, 30, 10, 0, demandLearned, demandLearned * 1e-2, 270, true},
	} {
		arrivals(tc.n, tc.every)
		f.dem.gap = tc.gap
		f.warm.uses, f.warm.gain = tc.uses, tc.gain
		assert.Equal(t, tc.want, f.wanted(m, tc.ahead, tc.now), tc.what)
	}
}

// warm=demand at a decision: a server a completion empties stays on when
// the forecast wants it although the bet would not be placed (its type's
// last boot is older than the hold); at a later decision it stays while
// still wanted, and is powered off once the forecast stops wanting it and
// its hold is over. Without arrivals needing its type it is powered off at
// once. The turnaround preset is warm=demand; balanced is not.
func TestDemandKeepsAndPowersOff(t *testing.T) {
	setup := func(settings map[string]string, needing bool) (*frontier, []protocol.Action, func(int) []protocol.Action) {
		f, v := cluster(t, settings)
		f.perCoreSecond = 0.1 / 3600
		j := jb(0, 0, 2, 100)
		f.warm.offered(j)
		schedule(t, v, j, ref("small", 0)) // boots small 0 at 0
		hold := f.hold(mustMachine(t, v, ref("small", 0)))
		done := hold + 1000 // the bet's window is over: only the forecast can keep it
		for i := range 10 {
			f.dem.tick(done - 300 + 30*i)
			if needing {
				f.dem.placed(done-300+30*i, "small", 2)
			}
		}
		acts, err := f.Event(v, complete(v, 0, done, ref("small", 0)))
		require.NoError(t, err)
		later := func(dt int) []protocol.Action {
			v.Book.Observe(&protocol.JobCompleted{Time: done + dt, JobID: -1, Server: ref("big", 0)}) // time passes
			acts, err := f.Event(v, &protocol.CheckQueue{})
			require.NoError(t, err)
			return acts
		}
		return f, acts, later
	}
	term := []protocol.Action{protocol.Terminate{Server: ref("small", 0)}}

	f, acts, later := setup(map[string]string{"preset": "turnaround"}, true)
	assert.True(t, f.dem.active, "the turnaround preset forecasts demand")
	assert.Empty(t, acts, "jobs needing a small server every 30 s: kept on")
	assert.Empty(t, later(20), "still wanted at the next decision")
	assert.Equal(t, term, later(10_000_000), "no arrival for long, its hold over: off")

	_, acts, _ = setup(map[string]string{"weight": "100", "warm": "demand"}, false)
	assert.Equal(t, term, acts, "no arrival needed its type: off at once")
	_, acts, _ = setup(map[string]string{"weight": "100", "warm": "on"}, true)
	assert.Equal(t, term, acts, "the bet alone: its window is over")
	_, acts, _ = setup(map[string]string{"preset": "balanced"}, true)
	assert.Equal(t, term, acts, "balanced keeps nothing on")
}
