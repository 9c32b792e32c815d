package strategies_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// Every server whose state moved between two looks is among the changes
// Changes gives for that span: at every decision and outcome of runs
// that boot, queue, terminate, migrate, kill, fail and recover (chaos, the
// failure trace). None of these runs resynchronises (the ledger never goes
// stale on them); TestLedgerChangesMarks covers a Resync, where Changes
// may only say it cannot tell.
func TestLedgerChangesNameEveryChange(t *testing.T) {
	for _, name := range []string{"chaos", "ffq", "soonest", "frontier"} {
		for _, fx := range shortFixtures {
			t.Run(name+"/"+fx, func(t *testing.T) {
				var inner strategies.Strategy = &chaos{rng: rand.New(rand.NewPCG(1, 2))}
				if name != "chaos" {
					var err error
					inner, err = strategies.New(name, nil)
					require.NoError(t, err)
				}
				w := &watch{inner: inner}
				_, err := strattest.Run(filepath.Join(fixtures.Dir(t), "fixtures", fx, "config.xml"), w)
				require.NoError(t, err)
				require.NoError(t, w.err, "after %d looks", w.looks)
				require.Positive(t, w.changed, "some server changed between looks")
				t.Logf("%d looks, %d servers changed, %d looks the ledger could not tell", w.looks, w.changed, w.unknown)
			})
		}
	}
}

// watch looks at the ledger at every hook before passing it on to the
// strategy it wraps.
type watch struct {
	strategies.WithLedger
	inner                   strategies.Strategy
	err                     error
	last                    []string // each server as last looked at
	mark                    int
	looks, changed, unknown int
}

func (w *watch) look(v strategies.View) {
	l := v.Ledger()
	ms := l.Machines()
	changes, next, ok := l.Changes(w.mark)
	w.mark = next
	w.looks++
	if !ok {
		w.unknown++
	}
	for i := range ms {
		now := fmt.Sprintf("%v %d %d %+v %d %v %v", ms[i].State, ms[i].BootEnd, ms[i].IdleSince, ms[i].Free, ms[i].Failures, ms[i].Running, ms[i].Waiting)
		if len(w.last) == len(ms) && w.last[i] != now {
			w.changed++
			if ok && !slices.Contains(changes, int32(i)) && w.err == nil {
				w.err = fmt.Errorf("at t=%d, %s changed (%s, was %s) but is not among the changes %v", l.Now(), ms[i].Ref, now, w.last[i], changes)
			}
		}
		if len(w.last) < len(ms) {
			w.last = append(w.last, now)
		}
		w.last[i] = now
	}
}

func (w *watch) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	w.look(v)
	return w.inner.Job(v, job)
}

func (w *watch) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	w.look(v)
	return w.inner.Event(v, ev)
}

func (w *watch) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	w.look(v)
	if obs, ok := w.inner.(strategies.OutcomeObserver); ok {
		return obs.Outcome(v, o)
	}
	if _, isSched := o.Action.(protocol.Schedule); !o.OK() && !isSched {
		return nil, o.Err // what the client does for a strategy without the hook
	}
	return nil, nil
}

// Changes cannot tell once Resync has rewritten the servers, for a mark
// older than the changes it keeps, or for a mark it never gave; it can
// for a recent one.
func TestLedgerChangesMarks(t *testing.T) {
	l, v := libraD3Ledger(t) // made by Resync
	_, _, ok := l.Changes(0)
	assert.False(t, ok, "Resync rewrote every server since mark 0")
	_, mark, _ := l.Changes(0)
	got, _, ok := l.Changes(mark)
	assert.True(t, ok)
	assert.Empty(t, got)
	_, _, ok = l.Changes(-1)
	assert.False(t, ok, "no mark of this ledger")
	_, _, ok = l.Changes(mark + 1)
	assert.False(t, ok, "no mark given yet")

	small, _ := l.Machine(ref("small", 0))
	l.Observe(newJob(40, 1000, 1, 10))
	applied(t, l, protocol.Schedule{JobID: 40, Server: ref("small", 0)}, "OK")
	got, next, ok := l.Changes(mark)
	require.True(t, ok)
	assert.Equal(t, []int32{0}, got, "small 0 booted")
	assert.Equal(t, protocol.Booting, small.State)

	first := next
	for i := range 5000 { // far more changes than the four servers times two
		l.Observe(&protocol.JobCompleted{Time: 2000 + i, JobID: -1, Server: ref("small", 1)})
	}
	_, _, ok = l.Changes(first)
	assert.False(t, ok, "older than the changes kept")
	_, recent, _ := l.Changes(first)
	l.Observe(&protocol.JobCompleted{Time: 9000, JobID: -1, Server: ref("medium", 0)})
	got, _, ok = l.Changes(recent)
	assert.True(t, ok)
	assert.Equal(t, []int32{2}, got, "medium 0's completion")

	require.NoError(t, l.Resync(v))
	_, _, ok = l.Changes(recent)
	assert.False(t, ok, "Resync rewrote every server")
}
