package libra

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The golden tests libra.md Part F lists beyond the D tables.

// A booting server with a pre-set waiting start (LSTJ startTime ≠ −1): a job
// placed on an inactive server waits for the boot with a known start; the
// next job starts beside it at that start, or after it when it does not fit
// beside it. Ledger and LSTJ agree.
func TestBootingServerKnownStart(t *testing.T) {
	for _, tl := range []string{fromLedger, fromLSTJ} {
		for _, tc := range []struct {
			cores, st int
		}{{1, 1060}, {2, 1160}} {
			st, err := strategies.New("libra", map[string]string{"timeline": tl})
			require.NoError(t, err)
			s := st.(*libra)
			sys := d3System()
			l := strategies.NewLedger(sys)
			l.Observe(&protocol.JobOffer{Job: protocol.Job{ID: 40, Submit: 1000, Cores: 1, Memory: 100, Disk: 100, EstRunTime: 100}})
			require.NoError(t, l.Applied(protocol.Schedule{JobID: 40, Server: ref("small", 0)}, "OK"))
			job := protocol.Job{ID: 41, Submit: 1010, Cores: tc.cores, Memory: 100, Disk: 100, EstRunTime: 50}
			l.Observe(&protocol.JobOffer{Job: job})
			m, _ := l.Machine(ref("small", 0))
			require.Equal(t, protocol.Booting, m.State)
			v := &strattest.FakeView{Sys: sys, Time: 1010, Book: l, LSTJ: map[protocol.ServerRef][]protocol.JobRecord{
				ref("small", 0): {{ID: 40, State: protocol.JobStateWaiting, Submit: 1000, Start: 1060, EstRunTime: 100, Cores: 1, Memory: 100, Disk: 100}}}}
			r := s.book.offered(job, sys, &s.qp)
			cs, err := s.eval.candidates(v, job, r.q, s.book.qosFunc(sys, &s.qp))
			require.NoError(t, err)
			assert.Equal(t, ref("small", 0), cs[0].m.Ref)
			assert.Equal(t, [2]int{tc.st, tc.st + 50}, [2]int{cs[0].st, cs[0].tf}, "%s cores %d", tl, tc.cores)
		}
	}
}

// A job that fits the free cores but not the free memory of large#0 waits
// for job 24 (1800), misses its deadline there and is dispatched there by
// the fallback, the only capable server.
func TestMemoryNotCoresMisfit(t *testing.T) {
	s, v := d3(t, "libra", nil, q30(1, 0, false))
	job := protocol.Job{ID: 31, Submit: 1000, Cores: 2, Memory: 31500, Disk: 2000, EstRunTime: 300}
	s.book.set(31, &record{q: QoS{RE: 300, D: 600, TSU: 1000, TD: 1600, B: 1, PBaseRef: pbaseD2}, cores: 2, end: -1})
	v.Book.Observe(&protocol.JobOffer{Job: job})
	cs, err := s.eval.candidates(v, job, s.book.jobs[31].q, s.book.qosFunc(v.Sys, &s.qp))
	require.NoError(t, err)
	require.Len(t, cs, 1, "only large holds 31,500 MB")
	assert.Equal(t, [2]int{1800, 2100}, [2]int{cs[0].st, cs[0].tf}, "4 cores free, 31,000 MB free: waits for job 24")
	acts, err := s.Job(v, job)
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(job, ref("large", 0)), acts)
	assert.Equal(t, reasonDeadline, s.book.jobs[31].reason)
}

// Each reject reason, then its fallback placement (B.8).
func TestRejectReasonsAndFallbacks(t *testing.T) {
	tight := func(b, pr float64, hard bool) QoS { // D 200: TD 1200, before every predicted finish
		return QoS{RE: 300, D: 200, TSU: 1000, TD: 1200, B: b, PR: pr, High: hard}
	}
	for _, tc := range []struct {
		name     string
		settings map[string]string
		q        QoS
		refused  []protocol.ServerRef
		reason   string
		want     protocol.ServerRef
	}{
		{"libra", nil, tight(1, 0, false), nil, reasonDeadline, ref("large", 0)},                                       // earliest finish 1300
		{"libra", map[string]string{"fallback": "cheapest"}, tight(1, 0, false), nil, reasonDeadline, ref("small", 0)}, // 0.2 $/h, finish 1360 before small#1's 1750
		{"libraplus", nil, q30(0.02, 0, false), nil, reasonBudget, ref("large", 0)},
		{"libraplus", nil, tight(1, 0, false), nil, reasonDeadline, ref("large", 0)},
		{"librasla", nil, tight(1, 0.0001, true), nil, reasonHard, ref("large", 0)},
		{"librasla", nil, tight(0.001, 1, false), nil, reasonNegative, ref("large", 0)},
		{"librariskd", nil, tight(1, 0.0001, false), []protocol.ServerRef{ref("small", 0)}, reasonRisk, ref("large", 0)},
	} {
		s, v := d3(t, tc.name, tc.settings, tc.q)
		v.Refused = tc.refused
		acts, err := s.Job(v, job30)
		require.NoError(t, err)
		assert.Equal(t, strategies.Sched(job30, tc.want), acts, "%s %v", tc.name, tc.settings)
		r := s.book.jobs[30]
		assert.False(t, r.accepted)
		assert.Equal(t, tc.reason, r.reason, "%s %v", tc.name, tc.settings)
	}
}

// fallback=defer: a rejected job waits in the global queue; once its
// deadline has passed it is dequeued and dispatched by earliest finish.
func TestDeferThenDispatch(t *testing.T) {
	s, v := d3(t, "libra", map[string]string{"fallback": "defer"}, QoS{RE: 300, D: 200, TSU: 1000, TD: 1200, B: 1})
	acts, err := s.Job(v, job30)
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Enqueue{}}, acts)
	assert.True(t, s.book.jobs[30].pending)
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))

	done := &protocol.JobCompleted{Time: 1100, JobID: 21, Server: ref("small", 1)}
	v.Book.Observe(done)
	v.Time = 1100
	acts, err = s.Event(v, done)
	require.NoError(t, err)
	assert.Empty(t, acts, "1100: still before TD and still infeasible")

	done = &protocol.JobCompleted{Time: 1250, JobID: 24, Server: ref("large", 0)}
	v.Book.Observe(done)
	v.Time = 1250
	acts, err = s.Event(v, done)
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, acts, "TD passed: bring it back")
	require.NoError(t, v.Book.Applied(protocol.Dequeue{QID: 0}, "OK"))

	again := protocol.Job{ID: 30, Submit: 1250, Cores: 2, Memory: 1000, Disk: 2000, EstRunTime: 300}
	v.Book.Observe(&protocol.JobOffer{Job: again, Resubmitted: true})
	acts, err = s.Job(v, again)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.IsType(t, protocol.Schedule{}, acts[0])
	assert.Equal(t, reasonDeadline, s.book.jobs[30].reason)
	assert.Equal(t, 1000, s.book.jobs[30].q.TSU, "JOBP keeps the first submit time")
}

// CHKQ: the head of the queue comes back and is dispatched whatever the
// admission says (nothing else can happen until it runs).
func TestCheckQueueForces(t *testing.T) {
	s, v := d3(t, "libra", map[string]string{"fallback": "defer"}, QoS{RE: 300, D: 200, TSU: 1000, TD: 1200, B: 1})
	_, err := s.Job(v, job30)
	require.NoError(t, err)
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))
	acts, err := s.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, acts)
	assert.True(t, s.book.jobs[30].forced)
}

// Part F, JOBP: a re-offer carries the offer time; TSU and TD stay those of
// the first offer.
func TestJOBPKeepsFirstSubmit(t *testing.T) {
	st, err := strategies.New("librariskd", nil)
	require.NoError(t, err)
	s := st.(*libra)
	sys := d3System()
	first := protocol.Job{ID: 5, Submit: 100, Cores: 1, Memory: 100, Disk: 100, EstRunTime: 60}
	r := s.book.offered(first, sys, &s.qp)
	td := r.q.TD
	later := first
	later.Submit = 900
	r2 := s.book.offered(later, sys, &s.qp)
	assert.Same(t, r, r2)
	assert.Equal(t, 100, r2.q.TSU)
	assert.Equal(t, td, r2.q.TD)
	// The QoS of a job seen only in LSTJ (original submit) equals the offered one's.
	fresh := s.qp.synthesize(fields(first), pbaseRef(sys, first.Req()))
	assert.Equal(t, r.q, fresh)
}
