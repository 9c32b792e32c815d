package libra

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// One 2-core server, busy with job 0 until 500; jobs 1 (2 cores, 300 s,
// deadline 5000) and 2 (1 core, 100 s, deadline 4000) arrive and queue.
// When job 0 completes, the policy's head is dequeued: FCFS job 1, SJF and
// EDF job 2. A head that cannot start blocks the others (no backfilling).
func TestQueuePolicyOrder(t *testing.T) {
	for _, tc := range []struct {
		policy string
		head   int
	}{{"fcfs", 1}, {"sjf", 2}, {"edf", 2}} {
		st, err := strategies.New(tc.policy, nil)
		require.NoError(t, err)
		s := st.(*queuePolicy)
		sys := strattest.System(servertypes.Type{Name: "s", Limit: 1, BootupTime: 0, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 4000})
		l := strategies.NewLedger(sys)
		v := &strattest.FakeView{Sys: sys, Book: l}
		offer := func(j protocol.Job, td int) []protocol.Action {
			v.Time = j.Submit
			l.Observe(&protocol.JobOffer{Job: j})
			s.book.set(j.ID, &record{q: QoS{RE: j.EstRunTime, D: td - j.Submit, TSU: j.Submit, TD: td, B: 1}, end: -1})
			s.book.order = append(s.book.order, j.ID)
			acts, err := s.Job(v, j)
			require.NoError(t, err)
			return acts
		}
		j0 := protocol.Job{ID: 0, Submit: 0, Cores: 2, Memory: 100, Disk: 100, EstRunTime: 500}
		require.Equal(t, strategies.Sched(j0, protocol.ServerRef{Type: "s"}), offer(j0, 10000), tc.policy)
		require.NoError(t, l.Applied(strategies.Sched(j0, protocol.ServerRef{Type: "s"})[0], "OK"))
		for _, j := range []struct {
			job protocol.Job
			td  int
		}{
			{protocol.Job{ID: 1, Submit: 10, Cores: 2, Memory: 100, Disk: 100, EstRunTime: 300}, 5000},
			{protocol.Job{ID: 2, Submit: 20, Cores: 1, Memory: 100, Disk: 100, EstRunTime: 100}, 4000},
		} {
			assert.Equal(t, []protocol.Action{protocol.Enqueue{}}, offer(j.job, j.td), "%s job %d: the server is busy", tc.policy, j.job.ID)
			require.NoError(t, l.Applied(protocol.Enqueue{}, "OK"))
		}
		acts, err := s.Event(v, &protocol.JobCompleted{Time: 400, JobID: 99, Server: protocol.ServerRef{Type: "s"}})
		require.NoError(t, err)
		assert.Empty(t, acts, "%s: nothing can start while job 0 runs", tc.policy)

		done := &protocol.JobCompleted{Time: 500, JobID: 0, Server: protocol.ServerRef{Type: "s"}}
		l.Observe(done)
		v.Time = 500
		acts, err = s.Event(v, done)
		require.NoError(t, err)
		qid := tc.head - 1 // queue positions: job 1 at 0, job 2 at 1
		assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: qid}}, acts, tc.policy)
		assert.Equal(t, 500, s.book.jobs[0].end)
	}
}

// The generous admission (A.5.5): a job whose estimate already misses its
// deadline is rejected and dispatched at once; so is one whose deadline
// passed while it waited.
func TestQueuePolicyGenerousAdmission(t *testing.T) {
	st, err := strategies.New("edf", nil)
	require.NoError(t, err)
	s := st.(*queuePolicy)
	sys := strattest.System(servertypes.Type{Name: "s", Limit: 1, BootupTime: 0, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 4000})
	l := strategies.NewLedger(sys)
	v := &strattest.FakeView{Sys: sys, Book: l, Time: 100}
	for _, tc := range []struct {
		td     int
		reason string
	}{{350, reasonDeadline}, {90, reasonPassed}} {
		j := protocol.Job{ID: tc.td, Submit: 100, Cores: 1, Memory: 100, Disk: 100, EstRunTime: 300}
		l.Observe(&protocol.JobOffer{Job: j})
		s.book.set(j.ID, &record{q: QoS{RE: 300, D: tc.td - 50, TSU: 50, TD: tc.td, B: 1}, end: -1})
		acts, err := s.Job(v, j)
		require.NoError(t, err)
		assert.Equal(t, strategies.Sched(j, protocol.ServerRef{Type: "s"}), acts)
		assert.Equal(t, tc.reason, s.book.jobs[j.ID].reason)
	}
}
