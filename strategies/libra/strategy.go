package libra

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// variant is which of the four policies of libra.md B.6 a strategy runs.
type variant int

const (
	vLibra variant = iota // (a) best fit among deadline-feasible servers
	vPlus                 // (b) Libra+$: best fit within budget at the commodity price
	vSLA                  // (c) LibraSLA: highest return, HARD jobs on time
	vRiskD                // (d) LibraRiskD: first zero-risk server
)

// Reject reasons (B.8).
const (
	reasonDeadline = "cannot_meet_deadline"
	reasonBudget   = "cannot_meet_budget"
	reasonNegative = "negative_return"
	reasonHard     = "hard_deadline"
	reasonRisk     = "risk"
	reasonPassed   = "deadline_passed" // comparison policies: the deadline passed while the job waited (A.5.5 ii)
)

// libra is one of the four strategies; the variant picks the admission and
// placement rule, everything else (QoS, prediction, fallback, metrics) is
// shared.
type libra struct {
	strategies.WithLedger
	variant  variant
	qp       qosParams
	fallback string
	eval     evaluator
	book     book

	gamma, delta       float64 // Libra's static cost (A.1.8)
	alpha, beta        float64 // Libra+$'s price (Eq. 3.3)
	betaAuto           bool    // Libra+$Auto (Fig. 7.1)
	betaMin, betaMax   float64
	marginal           bool // LibraSLA slaSelect=marginal
	riskEps            float64
	riskStrict, riskBF bool // LibraRiskD riskStrict, riskSelect=bestfit
}

// Job is B.6 for one JOBN or JOBP: synthesise the QoS, judge every capable
// server, admit by the variant's rule or reject and fall back (B.8).
// Every path ends in SCHD or ENQJ (Part F: an unscheduled offer is offered
// again forever).
func (s *libra) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	l := v.Ledger()
	r, cands, err := judge(v, job, &s.book, &s.eval, &s.qp)
	if err != nil || cands == nil {
		return waitOr(err)
	}
	free := countEmpty(l)
	c, reason, charge := s.decide(cands, job, r.q)
	if s.betaAuto {
		s.autoBeta(c != nil, free, len(l.Machines()))
	}
	if c != nil {
		r.accept(c.m.Ref, charge)
		return strategies.Sched(job, c.m.Ref), nil
	}
	if s.fallback == fallbackDefer && !r.forced && v.Now() <= r.q.TD {
		r.pending = true
		return []protocol.Action{protocol.Enqueue{}}, nil
	}
	c = pickFallback(cands, s.fallback)
	r.reject(reason, c.m.Ref)
	return strategies.Sched(job, c.m.Ref), nil
}

// decide applies the variant's rule; nil and the reason when it rejects.
func (s *libra) decide(cands []cand, job protocol.Job, q QoS) (*cand, string, float64) {
	switch s.variant {
	case vPlus:
		return s.decidePlus(cands, job, q)
	case vSLA:
		return s.decideSLA(cands, q)
	case vRiskD:
		return s.decideRiskD(cands, job, q)
	}
	c := bestFit(cands, job, q)
	if c == nil {
		return nil, reasonDeadline, 0
	}
	re := float64(q.RE)
	// A.1.8's static price, per core-second at the reference base price.
	charge := float64(job.Cores) * q.PBaseRef * (s.gamma*re + s.delta*re/float64(q.D))
	return c, "", charge
}

// Event: JCPL ends a job (its finish time is the deadline test of every
// metric); jobs in the global queue come back when a server may take them.
func (s *libra) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	switch e := ev.(type) {
	case *protocol.JobCompleted:
		s.book.completed(e.JobID, e.Time)
	case *protocol.CheckQueue:
		// Nothing else can happen until a queued job runs: dispatch the head.
		if q := v.Ledger().Queue(); len(q) > 0 {
			s.book.force(q[0].ID)
		}
		return []protocol.Action{protocol.Dequeue{QID: 0}}, nil
	}
	return s.dequeueReady(v)
}

// dequeueReady brings back the first queued job that can now be placed:
// one that waited for a failed server's recovery, or (fallback=defer) one
// the admission would now accept or whose deadline has passed.
func (s *libra) dequeueReady(v strategies.View) ([]protocol.Action, error) {
	l := v.Ledger()
	for _, qj := range l.Queue() {
		job := protocol.Job{ID: qj.ID, Submit: qj.Submit, Cores: qj.Cores, Memory: qj.Memory, Disk: qj.Disk, EstRunTime: qj.EstRunTime}
		r := s.book.offered(job, v.System(), &s.qp)
		if v.Now() > r.q.TD {
			return []protocol.Action{protocol.Dequeue{QID: qj.QID}}, nil
		}
		saved := s.eval.timeline
		s.eval.timeline = fromLedger // judging a queued job costs no message
		cands, err := s.eval.candidates(v, job, r.q, s.book.qosFunc(v.System(), &s.qp))
		s.eval.timeline = saved
		if err != nil {
			return nil, err
		}
		if len(cands) == 0 {
			continue
		}
		if s.fallback != fallbackDefer {
			return []protocol.Action{protocol.Dequeue{QID: qj.QID}}, nil
		}
		if c, _, _ := s.decide(cands, job, r.q); c != nil {
			return []protocol.Action{protocol.Dequeue{QID: qj.QID}}, nil
		}
	}
	return nil, nil
}

// Metrics reports Part C's metrics.
func (s *libra) Metrics(_ strategies.View, truth *strategies.Truth) []strategies.Metric {
	return s.book.metrics(truth, s.variant == vSLA || s.variant == vRiskD, s.reasons())
}

func (s *libra) reasons() []string {
	switch s.variant {
	case vPlus:
		return []string{reasonDeadline, reasonBudget}
	case vSLA:
		return []string{reasonHard, reasonNegative}
	case vRiskD:
		return []string{reasonRisk}
	}
	return []string{reasonDeadline}
}

// countEmpty is Fig. 7.1's freeNodes: servers with no running or waiting job.
func countEmpty(l *strategies.Ledger) int {
	n := 0
	for _, m := range l.Machines() {
		if m.Empty() {
			n++
		}
	}
	return n
}
