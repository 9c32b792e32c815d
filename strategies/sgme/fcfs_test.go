package sgme_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/corpus"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The strict FCFS base of B.5, decision by decision: a job never
// overtakes an older one; the head is dequeued only when it can start now.
func TestFCFSHeadOfLine(t *testing.T) {
	s := newSgme(t) // defaults: base fcfs-ff, real mode
	busy := func(ref protocol.ServerRef) protocol.Server {
		r := idle(ref, 0)
		r.State, r.Cores, r.Memory, r.Running = protocol.Active, 0, 0, 1
		return r
	}
	v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(small, 1000), idle(big, 4000)}}
	step := func(acts []protocol.Action, err error) []protocol.Action {
		t.Helper()
		require.NoError(t, err)
		for _, a := range acts {
			outcome(t, s, v, a, nil)
		}
		return acts
	}
	// A: nothing queued, the first capable server that can start it.
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 0, Server: small}}, step(s.Job(v, job(0, 800))))
	// B: every capable server busy: it waits in GQ.
	v.Capable, v.Sent = []protocol.Server{busy(small), busy(big)}, nil
	assert.Equal(t, []protocol.Action{protocol.Enqueue{}}, step(s.Job(v, job(1, 800))))
	assert.Equal(t, []string{"GETS Capable 1 800 100"}, v.Sent)
	// C: GQ holds an older job: C joins it without a query, even though a
	// server is free now.
	v.Capable, v.Sent = []protocol.Server{idle(small, 1000), idle(big, 4000)}, nil
	assert.Equal(t, []protocol.Action{protocol.Enqueue{}}, step(s.Job(v, job(2, 100))))
	assert.Empty(t, v.Sent)
	// A completes: the head (B) can start now: DEQJ its qID, known
	// without listing GQ (the client keeps GQ's order; v.LSTQ is nil, so
	// a listing would fail the test).
	acts, err := s.Event(v, &protocol.JobCompleted{Time: 60, JobID: 0, Server: small})
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, step(acts, err))
	assert.Equal(t, []string{"GETS Capable 1 800 100"}, v.Sent)
	// B offered again (JOBP): placed; once accepted the next head (C) is
	// looked at and dequeued too, now at qID 0.
	v.Sent = nil
	acts, err = s.Job(v, job(1, 800))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: small}}, acts)
	more := outcome(t, s, v, acts[0], nil)
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, more)
	assert.Equal(t, []string{"GETS Capable 1 800 100", "GETS Capable 1 100 100"}, v.Sent)
}

// The head's qID follows GQ's order, not the client's: a retried job put
// at the front of the client's order sits last in GQ.
func TestFCFSQIDFollowsGQ(t *testing.T) {
	s := newSgme(t, "mode", "mock", "base", "fcfs-ff")
	busy := protocol.Server{Type: "big", ID: 0, State: protocol.Active, Running: 1}
	v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(big, 4000)}}
	// Job 0 placed (SCHM accepted: the extension is on).
	acts, err := s.Job(v, job(0, 2000))
	require.NoError(t, err)
	outcome(t, s, v, acts[0], nil)
	// Jobs 1 and 2 wait behind a busy cluster.
	v.Capable = []protocol.Server{busy}
	for _, id := range []int{1, 2} {
		acts, err = s.Job(v, job(id, 2000))
		require.NoError(t, err)
		require.Equal(t, []protocol.Action{protocol.Enqueue{}}, acts)
		outcome(t, s, v, acts[0], nil)
	}
	// Job 0 comes back as JOBP with no RESF: a memory failure. It goes to
	// the front of the client's order but the end of GQ (qID 2).
	acts, err = s.Job(v, job(0, 2000))
	require.NoError(t, err)
	require.Equal(t, []protocol.Action{protocol.Enqueue{}}, acts)
	outcome(t, s, v, acts[0], nil)
	v.Capable, v.Sent = []protocol.Server{idle(big, 4000)}, nil
	acts, err = s.Event(v, &protocol.CheckQueue{})
	require.Error(t, err, "CHKQ lists GQ, which this view does not script")
	v.LSTQ = []protocol.QueuedJob{{ID: 1, QID: 0, Cores: 1, Memory: 2000, Disk: 100}, {ID: 2, QID: 1, Cores: 1, Memory: 2000, Disk: 100},
		{ID: 0, QID: 2, Cores: 1, Memory: 2000, Disk: 100}}
	acts, err = s.Event(v, &protocol.JobCompleted{Time: 90, JobID: 5, Server: big})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 2}}, acts, "the retried job first, at its GQ position")
	assert.Equal(t, "GETS Capable 1 2000 100", v.Sent[len(v.Sent)-1], "a retry is fitted with its full request")
}

// Best fit on memory: the capable server with the least memory left over.
func TestFCFSBestFitOnMemory(t *testing.T) {
	s := newSgme(t, "base", "fcfs-bf")
	v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(big, 4000), idle(small, 1000)}}
	acts, err := s.Job(v, job(0, 800))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 0, Server: small}}, acts)
	s = newSgme(t, "base", "fcfs-ff")
	acts, err = s.Job(v, job(0, 800))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 0, Server: big}}, acts, "first fit takes GETS order")
}

// Jobs killed into GQ by a server failure are picked up too (they would
// otherwise wait for ever): after RESF the queue is listed and unknown
// jobs join the client's order. After RESR too: a recovery fails into GQ,
// with no RESF, the jobs placed on a server between two overlapping
// failures (without the listing, a generated config's run stalled).
func TestFCFSAdoptsFailedJobs(t *testing.T) {
	for _, ev := range []protocol.Event{
		&protocol.ServerFailed{Server: small, Time: 5},
		&protocol.ServerRecovered{Server: small, Time: 5},
	} {
		s := newSgme(t)
		v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(big, 4000)},
			LSTQ: []protocol.QueuedJob{{ID: 7, QID: 0, Cores: 1, Memory: 800, Disk: 100}}}
		acts, err := s.Event(v, ev)
		require.NoError(t, err)
		assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, acts, "%s", ev)
	}
}

// Whole runs of the default sgme (strict FCFS, first and best fit) over
// shared fixtures complete, including the failure trace (killed jobs come
// back through GQ).
func TestFCFSWholeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs")
	}
	for _, fx := range []string{"sample-config01", "config20-med-med", "ds-sample-config05-failures"} {
		for _, base := range []string{"fcfs-ff", "fcfs-bf"} {
			m, err := strattest.RunNamed(fixturePath(t, fx), "sgme", map[string]string{"base": base})
			require.NoError(t, err, "%s %s", fx, base)
			assert.Zero(t, m.Unscheduled, "%s %s", fx, base)
			assert.Positive(t, m.Jobs)
		}
	}
}

// As a composite's member (a ledger in the view) the strict FCFS base
// takes GQ from the ledger: another member dequeued the head (job 1) and
// queued a job of its own (3), so at the next completion the head is job 2
// at qID 0, dequeued and placed when offered, and job 3 comes after it.
// Before, its own picture of GQ still held job 1 at qID 0: the DEQJ GQ 0
// brought job 2 back, taken for a newcomer and queued again behind job 1,
// which was no longer there.
func TestFCFSAsAMemberTakesGQFromTheLedger(t *testing.T) {
	s := newSgme(t)
	busy := protocol.Server{Type: "big", ID: 0, State: protocol.Active, Running: 1}
	v := &strattest.FakeView{Sys: twoTypes(), Book: strategies.NewLedger(twoTypes()), Capable: []protocol.Server{busy}}
	carry := func(acts []protocol.Action) {
		t.Helper()
		for _, a := range acts {
			require.NoError(t, v.Book.Applied(a, "OK"))
			outcome(t, s, v, a, nil)
		}
	}
	offer := func(j protocol.Job) []protocol.Action {
		t.Helper()
		v.Time = j.Submit
		v.Book.Observe(&protocol.JobOffer{Job: j})
		acts, err := s.Job(v, j)
		require.NoError(t, err)
		return acts
	}
	for _, id := range []int{1, 2} {
		acts := offer(job(id, 800))
		require.Equal(t, []protocol.Action{protocol.Enqueue{}}, acts)
		carry(acts)
	}
	// Another member: DEQJ GQ 0 (job 1), placed; job 3 queued.
	require.NoError(t, v.Book.Applied(protocol.Dequeue{QID: 0}, "OK"))
	v.Book.Observe(&protocol.JobOffer{Job: job(1, 800)})
	require.NoError(t, v.Book.Applied(protocol.Schedule{JobID: 1, Server: small}, "OK"))
	v.Book.Observe(&protocol.JobOffer{Job: job(3, 800)})
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))

	v.Capable = []protocol.Server{idle(big, 4000)}
	acts, err := s.Event(v, &protocol.JobCompleted{Time: 60, JobID: 0, Server: big})
	require.NoError(t, err)
	require.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, acts)
	carry(acts)
	acts = offer(protocol.Job{ID: 2, Submit: 60, Cores: 1, Memory: 800, Disk: 100, EstRunTime: 50})
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 2, Server: big}}, acts, "job 2, the head, is placed")
	require.NoError(t, v.Book.Applied(acts[0], "OK"))
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, outcome(t, s, v, acts[0], nil), "then job 3, now at qID 0")
}

// A whole run where two failures of one server overlap in ds-server's
// trace (failure-004 of the generated spec below): the second recovery
// fails into GQ, with no RESF, a job placed there since the first. Before
// fcfs listed GQ at a recovery, its next DEQJ brought back another job
// than the one it meant and it waited for that one for ever: the run
// ended with 336 jobs unscheduled.
func TestFCFSOverlappingFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs")
	}
	cs, err := corpus.Generate("seed=8,failure*4:limit=1-3:boot=0-600:types=2-12")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, corpus.WriteDir(dir, cs))
	for _, base := range []string{"fcfs-ff", "fcfs-bf"} {
		m, err := strattest.RunNamed(filepath.Join(dir, "failure-004.xml"), "sgme", map[string]string{"base": base})
		require.NoError(t, err, base)
		assert.Zero(t, m.Unscheduled, base)
		assert.Equal(t, 368, m.Jobs, base)
	}
}
