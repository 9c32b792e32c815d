package libra

import (
	"cmp"
	"fmt"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// The thesis's comparison policies FCFS-BF, SJF-BF and EDF-BF (A.5.5),
// adapted to ds-sim as fcfs, sjf and edf.
//
// The thesis runs one cluster-wide queue with EASY backfilling over
// space-shared nodes that are always on, and a generous admission: a job is
// dropped only (i) when its estimate says it would miss its deadline even if
// started now, or (ii) when its deadline passed while it waited. In ds-sim:
//
//   - The cluster-wide queue is ds-server's global queue (ENQJ GQ). A job
//     starts only when it is the head of the queue in the policy's order
//     (FCFS: submit time; SJF: estimate; EDF: absolute deadline; ties by
//     submit time, then id) and some capable server can start it "at once":
//     without waiting behind other jobs, i.e. now on a powered server, or at
//     its boot completion on a booting or inactive one (ds-sim's servers
//     are not always on; booting one is how this cluster grows). The head
//     is then dequeued (DEQJ) and scheduled when offered again (JOBP).
//   - There is no backfilling: ds-server starts only the head of each
//     server's queue (ds-server.md §3.5), and the global queue here is
//     served strictly in order too, so a head that cannot start blocks every
//     job behind it even when a later, smaller job would fit. Under load this
//     idles cores that EASY would have filled: the policies' waiting times
//     and deadline misses are worse than the thesis's -BF numbers, most for
//     FCFS, least for SJF (short jobs at the head rarely block).
//   - A dropped job cannot be dropped (every ds-sim job must run): it is
//     recorded as rejected (cannot_meet_deadline for (i), deadline_passed
//     for (ii)) and dispatched at once to the server where it is predicted
//     to finish earliest (B.8's fallback), outside the queue's order.
//   - On CHKQ (nothing else can happen until a queued job runs) the head is
//     dequeued and scheduled where it finishes earliest even if it must
//     wait there.
//   - Each accepted job is charged C_i = c_i·RE_i·PBase_j (L1123, × cores as
//     Libra+$), counted as revenue when it meets its deadline.
type queuePolicy struct {
	strategies.WithLedger
	order string // fcfs | sjf | edf
	qp    qosParams
	book  book
	eval  evaluator
}

func registerQueuePolicies() {
	for _, p := range []struct{ name, summary string }{
		{"fcfs", "FCFS (the Libra thesis's FCFS-BF in ds-sim): one global queue in submit order, no backfilling, generous deadline admission"},
		{"sjf", "SJF (the Libra thesis's SJF-BF in ds-sim): one global queue, shortest estimate first, no backfilling, generous deadline admission"},
		{"edf", "EDF (the Libra thesis's EDF-BF in ds-sim): one global queue, earliest synthesised deadline first, no backfilling, generous deadline admission"},
	} {
		strategies.Register(strategies.Info{Name: p.name, Summary: p.summary, Params: qosParamDecls("riskd"),
			New: func(ps strategies.Params) (strategies.Strategy, error) {
				s, err := newQueuePolicy(ps, p.name)
				if err != nil {
					return nil, fmt.Errorf("strategy %s: %w", p.name, err)
				}
				return s, nil
			}})
	}
}

func newQueuePolicy(p strategies.Params, order string) (*queuePolicy, error) {
	qp, _, err := bindQoS(p)
	if err != nil {
		return nil, err
	}
	s := &queuePolicy{order: order, qp: qp}
	s.eval.timeline, s.eval.preferPowered = fromLedger, p.Bool("preferPowered")
	return s, nil
}

// Job applies the generous admission, then starts the job if it is the
// queue's head and can start at once, or queues it.
func (s *queuePolicy) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	l := v.Ledger()
	r, cands, err := judge(v, job, &s.book, &s.eval, &s.qp)
	if err != nil || cands == nil {
		return waitOr(err)
	}
	now := v.Now()
	switch {
	case now > r.q.TD:
		c := pickFallback(cands, fallbackEarliest)
		r.reject(reasonPassed, c.m.Ref)
		return strategies.Sched(job, c.m.Ref), nil
	case now+r.q.RE > r.q.TD:
		c := pickFallback(cands, fallbackEarliest)
		r.reject(reasonDeadline, c.m.Ref)
		return strategies.Sched(job, c.m.Ref), nil
	}
	c := readyServer(cands, now)
	if r.forced && c == nil {
		c = pickFallback(cands, fallbackEarliest)
	}
	if c == nil || !r.forced && !s.ahead(l, job.ID, r) {
		r.pending = true
		return []protocol.Action{protocol.Enqueue{}}, nil
	}
	pbase := c.m.Type.HourlyRate / (3600 * float64(c.m.Type.Cores))
	r.accept(c.m.Ref, float64(job.Cores*r.q.RE)*pbase)
	return strategies.Sched(job, c.m.Ref), nil
}

// readyServer is the server where the job starts at once (at now, or at
// the boot completion of a booting or inactive server): earliest start,
// then cheaper per core, then GETS order. nil when every server would make
// it wait behind other jobs.
func readyServer(cands []cand, now int) *cand {
	var best *cand
	for i := range cands {
		c := &cands[i]
		if c.st < 0 || c.st != availableAt(now, c.m) {
			continue
		}
		if best == nil || cmp.Or(cmp.Compare(c.st, best.st), cmp.Compare(c.m.RatePerCore(), best.m.RatePerCore())) < 0 {
			best = c
		}
	}
	return best
}

// ahead reports whether the job comes before every job in the global queue
// in the policy's order (no queued job would start before it).
func (s *queuePolicy) ahead(l *strategies.Ledger, id int, r *record) bool {
	for _, qj := range l.Queue() {
		if qj.ID == id {
			continue
		}
		if q, ok := s.book.get(qj.ID); ok && s.less(qj.ID, q, id, r) {
			return false
		}
	}
	return true
}

// less orders two jobs by the policy's key, then submit time, then id.
func (s *queuePolicy) less(a int, ra *record, b int, rb *record) bool {
	var k int
	switch s.order {
	case "sjf":
		k = cmp.Compare(ra.q.RE, rb.q.RE)
	case "edf":
		k = cmp.Compare(ra.q.TD, rb.q.TD)
	}
	return cmp.Or(k, cmp.Compare(ra.q.TSU, rb.q.TSU), cmp.Compare(a, b)) < 0
}

// Event records completions and brings back the job that should run next.
func (s *queuePolicy) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	switch e := ev.(type) {
	case *protocol.JobCompleted:
		s.book.completed(e.JobID, e.Time)
	case *protocol.CheckQueue:
		qid, id, ok := s.head(v.Ledger())
		if !ok {
			return []protocol.Action{protocol.Dequeue{QID: 0}}, nil
		}
		s.book.force(id)
		return []protocol.Action{protocol.Dequeue{QID: qid}}, nil
	}
	return s.next(v)
}

// Outcome chains the queue: once a job is scheduled, the next head may be
// able to start too.
func (s *queuePolicy) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	if _, ok := o.Action.(protocol.Schedule); ok && o.OK() {
		return s.next(v)
	}
	return nil, nil
}

// next dequeues a job whose deadline has passed (admission ii), else the
// head if it can start at once; nothing when the head must wait (no
// backfilling).
func (s *queuePolicy) next(v strategies.View) ([]protocol.Action, error) {
	l := v.Ledger()
	if _, ok := l.Offered(); ok {
		return nil, nil // a job is already on offer: it goes first
	}
	for _, qj := range l.Queue() {
		if r, ok := s.book.get(qj.ID); ok && v.Now() > r.q.TD {
			return []protocol.Action{protocol.Dequeue{QID: qj.QID}}, nil
		}
	}
	qid, id, ok := s.head(l)
	if !ok {
		return nil, nil
	}
	r, _ := s.book.get(id)
	job, _ := l.Job(id)
	cands, err := s.eval.candidates(v, job, r.q, s.book.qosFunc(v.System(), &s.qp))
	if err != nil || readyServer(cands, v.Now()) == nil {
		return nil, err
	}
	return []protocol.Action{protocol.Dequeue{QID: qid}}, nil
}

// head is the first queued job in the policy's order.
func (s *queuePolicy) head(l *strategies.Ledger) (qid, id int, ok bool) {
	var best *record
	for _, qj := range l.Queue() {
		r, known := s.book.get(qj.ID)
		if !known {
			continue
		}
		if best == nil || s.less(qj.ID, r, id, best) {
			best, qid, id, ok = r, qj.QID, qj.ID, true
		}
	}
	return qid, id, ok
}

// Metrics reports Part C under the commodity model.
func (s *queuePolicy) Metrics(_ strategies.View, truth *strategies.Truth) []strategies.Metric {
	return s.book.metrics(truth, false, []string{reasonDeadline, reasonPassed})
}
