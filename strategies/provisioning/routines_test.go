package provisioning

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

var (
	small = servertypes.Type{Name: "small", Limit: 3, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 4000}
	large = servertypes.Type{Name: "large", Limit: 2, BootupTime: 60, HourlyRate: 0.4, Cores: 4, Memory: 8000, Disk: 8000}
)

func mustNew(t *testing.T, name string, set map[string]string) *prov {
	s, err := strategies.New(name, set)
	require.NoError(t, err)
	return s.(*prov)
}

// B.2.3 "can start without queueing", row by row, on states reached
// through the ledger's own rules.
func TestCanStartNow(t *testing.T) {
	b := newBook(t, small, large)
	l := b.v.Book
	r1 := protocol.Requirement{Cores: 1, Memory: 100, Disk: 100}
	r2 := protocol.Requirement{Cores: 2, Memory: 100, Disk: 100}
	m := func(r protocol.ServerRef) *strategies.Machine { x, _ := l.Machine(r); return x }

	assert.False(t, canStartNow(m(ref("small", 0)), r1), "inactive: needs a boot")
	b.sched(job(1, 0, 1, 100), ref("small", 0)) // booting until 60, job 1 known start
	assert.True(t, canStartNow(m(ref("small", 0)), r1), "booting, room, known-start waiting job")
	assert.False(t, canStartNow(m(ref("small", 0)), r2), "booting without room")
	b.sched(job(2, 1, 2, 100), ref("small", 0)) // does not fit beside job 1: unknown start
	assert.False(t, canStartNow(m(ref("small", 0)), r1), "booting with a waiting job of unknown start")
	b.sched(job(3, 2, 1, 500), ref("large", 0))
	b.offer(job(4, 70, 1, 10)) // both booted by now: large#0 runs job 3
	assert.True(t, canStartNow(m(ref("large", 0)), r2), "active, no waiting, room")
	assert.False(t, canStartNow(m(ref("small", 0)), r1), "active with a waiting job (FCFS, no backfill)")
}

// B.2.2 through placement: with boots forbidden (target reached) the job
// queues on the powered server where the ledger predicts the earliest
// start, the lower rate on ties.
func TestQueueOnEarliestStart(t *testing.T) {
	b := newBook(t, small, large)
	b.sched(job(1, 0, 2, 1000), ref("small", 0))
	b.sched(job(2, 0, 4, 300), ref("large", 0))
	p := mustNew(t, "thr", map[string]string{"pmin": "6"}) // target 6 = powered: no boot
	p.lastEpoch, p.nextEpoch, p.target = 100, 10, 6
	j := job(3, 100, 2, 50)
	b.offer(j)
	acts, err := p.Job(b.v, j)
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(j, ref("large", 0)), acts, "large#0 frees at 360, small#0 at 1060")
	assert.Empty(t, b.v.Sent, "the ledger answered everything")
}

// B.2.4 TERM order and Part F's pitfalls: only empty servers, only at
// their completion time (τ_idle = 0), highest rate first, then GETS order,
// never below the target; a server with a waiting job never.
func TestTermRoutine(t *testing.T) {
	b := newBook(t, small, large)
	refs := []protocol.ServerRef{ref("small", 0), ref("small", 1), ref("large", 0), ref("large", 1)}
	for i, r := range refs {
		b.sched(job(i, 0, 1, 100), r)
	}
	b.sched(job(9, 0, 1, 100), ref("small", 2))
	b.sched(job(10, 0, 2, 500), ref("small", 2)) // small#2 keeps a waiting job
	p := mustNew(t, "thr", nil)
	p.lastEpoch, p.nextEpoch = 0, 1000 // no epoch inside this test
	p.target = 6                       // 14 powered cores: room to release 8
	var acts []protocol.Action
	for i, r := range refs {
		e := b.complete(160, i, r)
		a, err := p.Event(b.v, e)
		require.NoError(t, err)
		acts = append(acts, a...)
		for _, x := range a {
			require.NoError(t, b.v.Book.Applied(x, "0 jobs killed"))
		}
	}
	// Each JCPL is decided on its own, in completion order: small#0 (14 → 12),
	// small#1 (→ 10), large#0 (→ 6); large#1 would leave 2 < 6.
	assert.Equal(t, []protocol.Action{
		protocol.Terminate{Server: ref("small", 0)}, protocol.Terminate{Server: ref("small", 1)},
		protocol.Terminate{Server: ref("large", 0)},
	}, acts)

	// The same servers emptied together and judged at once: highest rate first.
	b2 := newBook(t, small, large)
	for i, r := range refs {
		b2.sched(job(i, 0, 1, 100), r)
	}
	for i, r := range refs {
		b2.complete(160, i, r)
	}
	p2 := mustNew(t, "thr", nil)
	p2.target = 6 // 12 powered: large#0 → 8, large#1 would leave 4, small#0 → 6
	got := p2.surplus(b2.v.Book, 160, protocol.ServerRef{})
	var order []protocol.ServerRef
	for _, m := range got {
		order = append(order, m.Ref)
	}
	assert.Equal(t, []protocol.ServerRef{ref("large", 0), ref("small", 0)}, order, "0.4 $/h first; then 2 cores fit the slack")

	// TERM at the completion time only: a later event TERMs nothing (the
	// idle gap would be billed); thr-delay waits τ_idle and then TERMs.
	p2.target = 0
	assert.Empty(t, p2.surplus(b2.v.Book, 200, protocol.ServerRef{}), "τ_idle = 0: only at the completion time")
	d := mustNew(t, "thr-delay", nil)
	assert.Empty(t, d.surplus(b2.v.Book, 400, protocol.ServerRef{}), "thr-delay: 240 s < τ_idle = Δt")
	assert.Len(t, d.surplus(b2.v.Book, 460, protocol.ServerRef{}), 4, "thr-delay: after τ_idle")

	// Never a server with jobs, even with no target at all.
	for _, m := range p.surplus(b.v.Book, 160, protocol.ServerRef{}) {
		assert.NotEqual(t, ref("small", 2), m.Ref)
	}
}

// A TERM that killed jobs, or a refused TERM/MIGJ, ends the run with an
// error naming the action: never silently lost.
func TestOutcomeRefusesKills(t *testing.T) {
	p := mustNew(t, "provision", nil)
	term := protocol.Terminate{Server: ref("small", 0)}
	_, err := p.Outcome(nil, strategies.Outcome{Action: term, Reply: "0 jobs killed"})
	assert.NoError(t, err)
	assert.Equal(t, 1, p.st.terms)
	_, err = p.Outcome(nil, strategies.Outcome{Action: term, Reply: "2 jobs killed", Killed: 2})
	assert.ErrorContains(t, err, "killed 2 job(s)")
	_, err = p.Outcome(nil, strategies.Outcome{Action: protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("small", 1)},
		Err: &protocol.ServerError{Command: "MIGJ", Text: "ERR"}})
	assert.ErrorContains(t, err, "MIGJ")
}

// Part F: booting servers never appear in GETS Avail; the strategy uses
// the ledger (B.2.3) and packs a second job onto a booting server with
// room instead of booting another, sending no query at all.
func TestBootingServerTakesJob(t *testing.T) {
	for _, name := range []string{"thr", "bestpack-boot", "provision"} {
		b := newBook(t, large)
		p := mustNew(t, name, nil)
		j1, j2 := job(1, 0, 1, 600), job(2, 5, 2, 600)
		b.offer(j1)
		acts, err := p.Job(b.v, j1)
		require.NoError(t, err)
		require.Equal(t, strategies.Sched(j1, ref("large", 0)), acts, name)
		require.NoError(t, b.v.Book.Applied(acts[0], "OK"))
		b.offer(j2)
		acts, err = p.Job(b.v, j2)
		require.NoError(t, err)
		assert.Equal(t, strategies.Sched(j2, ref("large", 0)), acts, "%s: the booting large#0 has 3 free cores", name)
		assert.Empty(t, b.v.Sent, name)
	}
}

// disposals wraps a strategy and counts, for every offer, the actions that
// dispose of the job: exactly one each (Part F "no unanswered offer").
type disposals struct {
	*prov
	bad int
}

func (d *disposals) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	acts, err := d.prov.Job(v, j)
	n := 0
	for _, a := range acts {
		switch x := a.(type) {
		case protocol.Schedule:
			if x.JobID == j.ID {
				n++
			}
		case protocol.Enqueue:
			n++
		}
	}
	if err == nil && n != 1 {
		d.bad++
	}
	return acts, err
}

func TestEveryOfferAnswered(t *testing.T) {
	path := filepath.Join(fixtures.Dir(t), "fixtures", "config20-short-high")
	for _, vr := range variants {
		d := &disposals{prov: mustNew(t, vr.name, vr.settings)}
		m, err := strattest.Run(path, d)
		require.NoError(t, err, label(vr.name, vr.settings))
		assert.Zero(t, d.bad, label(vr.name, vr.settings))
		assert.Positive(t, m.Jobs)
	}
}
