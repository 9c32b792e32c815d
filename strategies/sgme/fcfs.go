package sgme

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// fcfs is the base policy of estimation.md B.5 for replicating the paper:
// strict FCFS with head-of-line blocking. The paper's gain comes from jobs
// waiting for big-memory machines, so a job never overtakes an older one:
// on an offer, if the global queue holds jobs the new one joins them
// (ENQJ); otherwise it is placed if some server can start it now, and
// enqueued if none can. The client keeps its own FCFS order of GQ (a job
// retried after a memory failure goes to the front, §3.1); after each
// completion, recovery, failure and CHKQ it lists GQ (`LSTQ GQ *`, never
// `LSTQ GQ i` with i > 0) and dequeues the first job in its order if it
// can start now; the next REDY offers it as JOBP and it is placed, and the
// next head is looked at once that placement is accepted.
//
// "Can start now" (a choice the note leaves open): a capable server that
// is not unavailable, has no waiting job and has the job's cores, memory
// and disk available (an inactive server has all of them: scheduling boots
// it, the soonest that job can start there). First fit takes the first
// such server in GETS Capable's order; best fit the one with the least
// memory left over, then the fewest cores left over, then GETS order — on
// memory, because keeping the large-memory servers free is the whole point
// (B.3).
type fcfs struct {
	best  bool
	order []int // job ids in GQ, in the client's FCFS order
	deq   int   // the job dequeued and not yet offered again; -1 if none
	head  int   // the offered job if it has the head's priority; -1 if none
	dirty bool  // GQ may hold jobs the client did not put there (RESF, TERM, KILJ)

	// Set by sgme: the requirement to fit a queued job with (E' in mock
	// mode), and whether an offered job is a retry after a memory failure.
	peek  func(q protocol.QueuedJob) protocol.Requirement
	front func(id int) bool
}

func newFCFS(best bool) *fcfs {
	return &fcfs{best: best, deq: -1, head: -1,
		peek:  queuedReq,
		front: func(int) bool { return false }}
}

// Job places the offered job or enqueues it behind older ones.
func (f *fcfs) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	if job.ID == f.deq || f.front(job.ID) {
		f.deq, f.head = -1, job.ID
	}
	if f.head != job.ID && (len(f.order) > 0 || f.dirty) {
		f.order = append(f.order, job.ID)
		return []protocol.Action{protocol.Enqueue{}}, nil
	}
	srv, ok, err := f.fit(v, job.Req())
	if err != nil {
		return nil, err
	}
	if ok {
		return strategies.Sched(job, srv), nil
	}
	if f.head == job.ID {
		f.order = slices.Insert(f.order, 0, job.ID)
	} else {
		f.order = append(f.order, job.ID)
	}
	return []protocol.Action{protocol.Enqueue{}}, nil
}

// Outcome looks at the next head once a head job is disposed of.
func (f *fcfs) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	if !o.OK() {
		if _, ok := o.Action.(protocol.Schedule); ok {
			return nil, nil // the client asks Job again without that server
		}
		return nil, o.Err
	}
	if f.head >= 0 && protocol.DisposesJob(o.Action) {
		f.head = -1
		return f.next(v, false)
	}
	return nil, nil
}

// Event looks at the head after every event that can free resources.
func (f *fcfs) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	switch ev.(type) {
	case *protocol.ServerFailed:
		f.dirty = true // its jobs went to GQ
		return f.next(v, false)
	case *protocol.JobCompleted, *protocol.ServerRecovered:
		return f.next(v, false)
	case *protocol.CheckQueue:
		return f.next(v, true)
	}
	return nil, nil
}

// next dequeues the first job of the client's order if it can start now.
func (f *fcfs) next(v strategies.View, chkq bool) ([]protocol.Action, error) {
	if f.deq >= 0 || (len(f.order) == 0 && !f.dirty && !chkq) {
		return nil, nil
	}
	q, err := v.ListQueue()
	if err != nil {
		return nil, err
	}
	f.sync(q)
	if len(f.order) == 0 {
		return nil, nil
	}
	i := slices.IndexFunc(q, func(e protocol.QueuedJob) bool { return e.ID == f.order[0] })
	if _, ok, err := f.fit(v, f.peek(q[i])); err != nil || !ok {
		return nil, err
	}
	f.deq, f.order = f.order[0], f.order[1:]
	return []protocol.Action{protocol.Dequeue{QID: q[i].QID}}, nil
}

// sync makes the client's order the jobs GQ holds: jobs it does not know
// (killed by a failure, TERM or KILJ) join at the end in GQ's order, jobs
// no longer there leave.
func (f *fcfs) sync(q []protocol.QueuedJob) {
	in := make(map[int]bool, len(q))
	for _, e := range q {
		in[e.ID] = true
	}
	f.order = slices.DeleteFunc(f.order, func(id int) bool { return !in[id] })
	for _, e := range q {
		if !slices.Contains(f.order, e.ID) {
			f.order = append(f.order, e.ID)
		}
	}
	f.dirty = false
}

// fit is a server that can start the requirement now (see fcfs); ok is
// false when none can now, and ErrNoServer when none ever could.
func (f *fcfs) fit(v strategies.View, r protocol.Requirement) (protocol.ServerRef, bool, error) {
	recs, err := v.GetsCapable(r)
	if err != nil {
		return protocol.ServerRef{}, false, err
	}
	var best protocol.Server
	found, capable := false, false
	for _, s := range recs {
		if slices.Contains(v.Excluded(), s.Ref()) {
			continue
		}
		capable = true
		if s.State == protocol.Unavailable || s.Waiting > 0 || !s.Fits(r) {
			continue
		}
		if !f.best {
			return s.Ref(), true, nil
		}
		if !found || fitter(s, best) {
			best, found = s, true
		}
	}
	if !capable {
		return protocol.ServerRef{}, false, strategies.ErrNoServer
	}
	return best.Ref(), found, nil
}

// queuedReq is a queued job's own requirement.
func queuedReq(q protocol.QueuedJob) protocol.Requirement {
	return protocol.Requirement{Cores: q.Cores, Memory: q.Memory, Disk: q.Disk}
}

// fitter: less memory left over, then fewer cores left over.
func fitter(a, b protocol.Server) bool {
	if a.Memory != b.Memory {
		return a.Memory < b.Memory
	}
	return a.Cores < b.Cores
}
