package sgme

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/dssim-go/dssim-go/estimator"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// Extension detection states (B.5).
const (
	extUnknown = iota // mock mode, no SCHM answered yet
	extOn             // SCHM accepted: the dsmock extension is there
	extOff            // real mode, or SCHM refused as an invalid command
)

// sgme wraps a base policy. Every hook is forwarded to the base, so in
// real mode (and after a refused first SCHM) the base decides alone and
// the messages are its own.
type sgme struct {
	set  settings
	base strategies.Strategy
	obs  strategies.OutcomeObserver // the base's outcome hook; nil if it has none
	ext  int

	// The job on offer, until an action disposes of it, and the memory it
	// was handed to the base with (E', or the request when not estimating).
	cur     protocol.Job
	onOffer bool
	alloc   int

	est  *estimator.Online                        // mock mode, made at the first job (levels need the server types)
	cls  estimator.Classifier[protocol.ServerRef] // placed jobs, to classify JOBPs
	full map[int]bool                             // jobs owed their full request: memory-failed, or refused an SCHM
	runs map[int]run                              // placed jobs: what the metrics need
	m    tally

	// Slowdown's inputs, kept in every mode (they send nothing): each
	// job's first offer time and the last JCPL's time and dispatch time.
	submit map[int]int
	done   map[int][2]int // id → (last dispatch time, end time)
	lastAt map[int]int    // id → time of its last offer
}

// sgmeLedger is sgme around a base that keeps the client's Ledger: the
// client keeps one only for a strategy that says so (real mode only).
type sgmeLedger struct{ *sgme }

func (sgmeLedger) UsesLedger() {}

// run is a placed job.
type run struct {
	cores, req, alloc int
	at                int // dispatch time: the start is no earlier
}

// estimating reports whether this offer goes through the estimator.
func (s *sgme) estimating() bool { return s.set.mock && s.ext != extOff }

// Start forwards to the base.
func (s *sgme) Start(v strategies.View) error {
	if st, ok := s.base.(strategies.Starter); ok {
		return st.Start(v)
	}
	return nil
}

// Job classifies the offer (a JOBP of a placed job is a memory failure
// unless the job was lost otherwise, B.5), asks the estimator for E' and
// the base for a server for a job of memory E', and turns the base's SCHD
// of the job into SCHM with E'.
func (s *sgme) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	again := s.onOffer && s.cur.ID == job.ID // asked again after a refusal
	s.cur, s.onOffer, s.alloc = job, true, job.Memory
	s.noteOffer(v, job)
	if !s.estimating() {
		return s.base.Job(v, job)
	}
	if err := s.init(v); err != nil {
		return nil, err
	}
	if again {
		s.est.Cancel(job.ID) // a new dispatch replaces the refused one
	} else {
		s.classify(v, job)
	}
	if s.full[job.ID] {
		s.est.Dispatch(request(job), true)
	} else if e := s.allocOf(s.est.Dispatch(request(job), false), job.Memory); s.ext == extOn {
		// Until the extension has answered, the job goes with its
		// request (a new group's E' is R anyway), so the fallback SCHD is
		// exactly the base's decision (B.5).
		s.alloc = e
	}
	bj := job
	bj.Memory = s.alloc
	acts, err := s.base.Job(v, bj)
	if err != nil {
		return nil, err
	}
	for i, a := range acts {
		if sc, ok := a.(protocol.Schedule); ok && sc.JobID == job.ID {
			acts[i] = protocol.ScheduleMem{JobID: job.ID, Server: sc.Server, AllocMem: s.alloc}
		}
	}
	return acts, nil
}

// allocOf is E' as whole MB for the wire: paper rounding may give a
// machine size above R, but a job never reserves more than its request.
func (s *sgme) allocOf(e float64, req int) int {
	return min(req, int(math.Ceil(e-1e-9)))
}

// peekReq is the requirement the strict FCFS base fits a queued job with
// before it dequeues it: E' when estimating, without recording a dispatch.
func (s *sgme) peekReq(q protocol.QueuedJob) protocol.Requirement {
	r := queuedReq(q)
	if s.ext == extOn && s.est != nil {
		e := s.est.Peek(estimator.Request{ID: q.ID, Cores: q.Cores, Memory: q.Memory, Disk: q.Disk, EstRunTime: q.EstRunTime}, s.full[q.ID])
		r.Memory = s.allocOf(e, q.Memory)
	}
	return r
}

func request(j protocol.Job) estimator.Request {
	return estimator.Request{ID: j.ID, Cores: j.Cores, Memory: j.Memory, Disk: j.Disk, EstRunTime: j.EstRunTime}
}

// classify is B.5's feedback mapping for a new offer.
func (s *sgme) classify(v strategies.View, job protocol.Job) {
	switch s.cls.Offer(job.ID) {
	case estimator.MemFailure:
		if _, ok := s.est.OnMemFailure(job.ID); ok {
			r := s.runs[job.ID]
			s.m.failures++
			s.m.wasted += float64(r.cores) * float64(max(0, v.Now()-r.at))
		}
		if s.set.cfg.Retry == estimator.RetryFull {
			s.full[job.ID] = true // E7: the retry cannot fail for memory again
		}
	case estimator.Invalidated:
		s.est.OnInvalidated(job.ID)
	}
	delete(s.runs, job.ID)
}

// init makes the estimator once the server types are known.
func (s *sgme) init(v strategies.View) error {
	if s.est != nil {
		return nil
	}
	cfg := s.set.cfg
	if s.set.rounding != RoundGranularity {
		var ls []float64
		for _, t := range v.System().Types() {
			ls = append(ls, float64(t.Memory))
		}
		l, err := estimator.NewLevels(ls, s.set.rounding == RoundPaper)
		if err != nil {
			return fmt.Errorf("sgme: rounding=%s: %w", s.set.rounding, err)
		}
		cfg.Round = l
	}
	est, err := estimator.NewOnline(cfg)
	if err != nil {
		return fmt.Errorf("sgme: %w", err)
	}
	s.est, s.full, s.runs = est, map[int]bool{}, map[int]run{}
	return nil
}

// Event learns from completions and server failures, then asks the base.
func (s *sgme) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	if e, ok := ev.(*protocol.JobCompleted); ok {
		s.noteDone(e)
	}
	if s.est != nil && s.ext == extOn {
		switch e := ev.(type) {
		case *protocol.JobCompleted:
			s.completed(v, e)
		case *protocol.ServerFailed:
			s.cls.ServerLost(e.Server)
		case *protocol.ServerRecovered:
			// A recovery resets the server (C.3): a job placed there
			// after an overlapping failure's first recovery comes back
			// as JOBP, lost to the reset, not to memory.
			s.cls.ServerLost(e.Server)
		}
	}
	return s.base.Event(v, ev)
}

func (s *sgme) completed(v strategies.View, e *protocol.JobCompleted) {
	if !s.cls.Completed(e.JobID) {
		return
	}
	alloc, req, ok := s.est.OnSuccess(e.JobID)
	r := s.runs[e.JobID]
	delete(s.runs, e.JobID)
	if ok && alloc < req {
		s.m.saved = append(s.m.saved, saving{id: e.JobID, mb: int(req - alloc), at: r.at, end: e.Time})
	}
}

// Outcome watches the server's answers: the first SCHM's answer says
// whether the extension is there; placed jobs are recorded for the
// classifier; TERM, KILJ and MIGJ invalidate. The base sees its own
// actions' outcomes (an SCHM as the SCHD it returned).
func (s *sgme) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	switch a := o.Action.(type) {
	case protocol.ScheduleMem:
		if o.Err != nil {
			return s.refusedSCHM(a, o.Err)
		}
		s.ext = extOn
		s.placed(v, a.JobID, a.Server, a.AllocMem)
		o.Action = protocol.Schedule{JobID: a.JobID, Server: a.Server}
	case protocol.Schedule:
		if o.OK() {
			s.placed(v, a.JobID, a.Server, s.cur.Memory)
		}
	case protocol.Enqueue, protocol.Push:
		if o.OK() && s.onOffer {
			if s.est != nil {
				s.est.Cancel(s.cur.ID)
			}
			s.onOffer = false
		}
	case protocol.Terminate:
		if o.OK() {
			s.cls.ServerLost(a.Server)
		}
	case protocol.Kill:
		if o.OK() {
			s.cls.JobLost(a.JobID)
		}
	case protocol.Migrate:
		if o.OK() {
			s.cls.Moved(a.JobID, a.To)
		}
	}
	return s.forward(v, o)
}

// forward gives an outcome to the base. A base without the hook keeps the
// plain contract: a refused SCHD of the offered job is asked again by the
// client; any other refusal ends the run, as it would without sgme.
func (s *sgme) forward(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	if s.obs != nil {
		return s.obs.Outcome(v, o)
	}
	if sc, ok := o.Action.(protocol.Schedule); o.Err != nil && !(ok && s.onOffer && sc.JobID == s.cur.ID) {
		return nil, o.Err
	}
	return nil, nil
}

// placed records an accepted SCHD or SCHM of the offered job for the
// classifier and the metrics. Only an SCHM has a live estimator record: a
// plain SCHD (the fallback after a refused SCHM) reserves the request,
// which cannot fail for memory and teaches nothing.
func (s *sgme) placed(v strategies.View, id int, srv protocol.ServerRef, alloc int) {
	if !s.onOffer || s.cur.ID != id {
		return // not the offered job: nothing was estimated for it
	}
	s.onOffer = false
	if s.ext != extOn {
		return
	}
	s.cls.Placed(id, srv)
	s.runs[id] = run{cores: s.cur.Cores, req: s.cur.Memory, alloc: alloc, at: v.Now()}
	delete(s.full, id)
}

// refusedSCHM: "invalid command" to the first SCHM means no extension:
// estimation is off for the rest of the run and the job gets the SCHD the
// base chose (with the request, B.5). Any other refusal (an allocation the
// extension refuses) sends this job with its full request; the client then
// asks the base again if that SCHD is refused too.
func (s *sgme) refusedSCHM(a protocol.ScheduleMem, err *protocol.ServerError) ([]protocol.Action, error) {
	if s.est != nil {
		s.est.Cancel(a.JobID)
	}
	if s.ext == extUnknown && strings.HasPrefix(err.Reason(), "invalid command") {
		s.ext = extOff
		s.m.refused = true
		s.est = nil // nothing was learnt: the metrics report no groups
	} else if s.ext == extUnknown {
		s.ext = extOn // the command exists: it refused this allocation
	}
	if s.full != nil {
		s.full[a.JobID] = true
	}
	if !s.onOffer || s.cur.ID != a.JobID {
		return nil, errors.Join(fmt.Errorf("sgme: SCHM of job %d refused while it was not on offer", a.JobID), err)
	}
	return []protocol.Action{protocol.Schedule{JobID: a.JobID, Server: a.Server}}, nil
}
