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
// completion, recovery, failure and CHKQ it dequeues the first job in its
// order if it can start now; the next REDY offers it as JOBP and it is
// placed, and the next head is looked at once that placement is accepted.
//
// It also keeps GQ's own order (ENQJ appends, DEQJ removes a position,
// ds-server.md §5.5–5.6), so it knows the head's qID without asking; it
// lists GQ (`LSTQ GQ *`, never `LSTQ GQ i` with i > 0) only when jobs it
// did not put there may have arrived (RESF, RESR, TERM, KILJ) and on CHKQ.
// B.5 lists GQ at every event; the decisions are the same, and a run with
// a queue of a thousand jobs no longer lists it two thousand times
// (BenchmarkStudyRun/real: 326 ms and 180 MB per run before).
//
// As a member of a composite, other members enqueue and dequeue too, so
// GQ's own order above would go stale (a DEQJ of the wrong position, a
// queued job it knows nothing of). There the client keeps a Ledger for the
// composite, and fcfs takes GQ from it instead (shared) when it chooses the
// next head to place: at an event, and once the head is disposed of; alone
// it has no ledger and decides exactly as above.
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
	dirty bool  // GQ may hold jobs the client did not put there (RESF, RESR, TERM, KILJ)

	gq      []int                      // GQ's own order: job ids by qID
	info    map[int]protocol.QueuedJob // what LSTQ would say of each job in gq
	kept    map[int]bool               // adopt's scratch: the jobs of order kept
	offered protocol.Job               // the job on offer, as the server offered it

	// Set by sgme: the requirement to fit a queued job with (E' in mock
	// mode), and whether an offered job is a retry after a memory failure.
	peek     func(q protocol.QueuedJob) protocol.Requirement
	front    func(id int) bool
	original func(j protocol.Job) protocol.Job // the job as offered (sgme hands the base E' as memory)
}

func newFCFS(best bool) *fcfs {
	return &fcfs{best: best, deq: -1, head: -1, info: map[int]protocol.QueuedJob{}, kept: map[int]bool{},
		peek:     queuedReq,
		front:    func(int) bool { return false },
		original: func(j protocol.Job) protocol.Job { return j }}
}

// Job places the offered job or enqueues it behind older ones.
func (f *fcfs) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	f.offered = f.original(job)
	if job.ID == f.deq || f.front(job.ID) {
		f.deq, f.head = -1, job.ID
	}
	queued := len(f.order) > 0 || f.dirty
	if l := v.Ledger(); l != nil {
		// As a member, older jobs wait if GQ holds any; the client's order
		// is brought in step with GQ at the next event (next), not at
		// every offer: another member may dequeue every queued job at each
		// event (frontier does), each then offered again.
		queued = len(l.Queue()) > 0
	}
	if f.head != job.ID && queued {
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
	switch a := o.Action.(type) {
	case protocol.Enqueue:
		j := f.offered
		f.gq = append(f.gq, j.ID)
		f.info[j.ID] = protocol.QueuedJob{ID: j.ID, Submit: j.Submit, Queued: v.Now(), EstRunTime: j.EstRunTime,
			Cores: j.Cores, Memory: j.Memory, Disk: j.Disk}
	case protocol.Dequeue:
		if a.QID < len(f.gq) {
			delete(f.info, f.gq[a.QID])
			f.gq = slices.Delete(f.gq, a.QID, a.QID+1)
		}
	case protocol.Kill, protocol.Terminate:
		f.dirty = true // the killed jobs went to GQ
	}
	if f.head >= 0 && protocol.DisposesJob(o.Action) {
		f.head = -1
		return f.next(v, false)
	}
	return nil, nil
}

// Event looks at the head after every event that can free resources.
func (f *fcfs) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	if l := v.Ledger(); l != nil {
		f.settle(l, ev)
	}
	switch ev.(type) {
	case *protocol.ServerFailed, *protocol.ServerRecovered:
		// Its jobs went to GQ. A recovery resets the server too (C.3):
		// where two failures of one server overlap in the trace, jobs
		// placed after the first recovery are failed into GQ at the
		// second, with no RESF. Unseen, they sat in GQ while fcfs's own
		// picture of it said otherwise: its next DEQJ brought back the
		// wrong job and fcfs waited for ever for the one it meant (a
		// generated config with one to three servers a type, the run
		// ended by the client's stall guard with 336 jobs unscheduled).
		f.dirty = true
		return f.next(v, false)
	case *protocol.JobCompleted:
		return f.next(v, false)
	case *protocol.CheckQueue:
		return f.next(v, true)
	}
	return nil, nil
}

// next dequeues the first job of the client's order if it can start now.
func (f *fcfs) next(v strategies.View, chkq bool) ([]protocol.Action, error) {
	if f.deq >= 0 {
		return nil, nil
	}
	if v.Ledger() != nil {
		if err := f.shared(v); err != nil {
			return nil, err
		}
	} else if f.dirty || chkq {
		if err := f.list(v); err != nil {
			return nil, err
		}
	}
	if len(f.order) == 0 {
		return nil, nil
	}
	i := slices.Index(f.gq, f.order[0])
	if i < 0 { // out of step: ask the server
		if err := f.list(v); err != nil || len(f.order) == 0 {
			return nil, err
		}
		i = slices.Index(f.gq, f.order[0])
	}
	q := f.info[f.order[0]]
	q.QID = i
	if _, ok, err := f.fit(v, f.peek(q)); err != nil || !ok {
		return nil, err
	}
	f.deq, f.order = f.order[0], f.order[1:]
	return []protocol.Action{protocol.Dequeue{QID: i}}, nil
}

// list reads GQ (LSTQ GQ *) and adopts it.
func (f *fcfs) list(v strategies.View) error {
	q, err := v.ListQueue()
	if err != nil {
		return err
	}
	f.adopt(q)
	return nil
}

// shared takes GQ from the ledger (see fcfs): with a ledger, other members
// may have queued or dequeued jobs since the last decision. While the
// ledger is unsure of GQ's order (several jobs killed at once) it lists GQ
// instead, since a DEQJ names a position.
func (f *fcfs) shared(v strategies.View) error {
	if l := v.Ledger(); l.QueueExact() {
		f.adopt(l.Queue())
		return nil
	}
	return f.list(v)
}

// settle ends, at an event, the wait for the job fcfs dequeued once that
// job's offer is over without fcfs (with a ledger only: alone, the offer
// always comes to fcfs, which ends the wait in Job). Another member may
// have decided it: it is then on a server (or, at its JCPL, just left
// one), and fcfs looks at the next head. Back in GQ, its DEQJ did not take
// it (the composite did not send it): it is the head again. Otherwise the
// offer is still to come (DEQJ puts the job first in line, but a
// completion at the same second is reported before it) and fcfs waits, as
// it would alone.
func (f *fcfs) settle(l *strategies.Ledger, ev protocol.Event) {
	if f.deq < 0 {
		return
	}
	done, isJCPL := ev.(*protocol.JobCompleted)
	switch {
	case slices.ContainsFunc(l.Queue(), func(q protocol.QueuedJob) bool { return q.ID == f.deq }):
		f.order = slices.Insert(slices.DeleteFunc(f.order, func(id int) bool { return id == f.deq }), 0, f.deq)
	case isJCPL && done.JobID == f.deq, onServer(l, f.deq):
	default:
		return
	}
	f.deq = -1
}

// onServer reports whether the ledger has job id running or waiting on a
// server. It walks the servers, but only while fcfs waits for a dequeued
// job's offer (one decision, or until another member has placed it).
func onServer(l *strategies.Ledger, id int) bool {
	ms := l.Machines()
	for i := range ms {
		for _, ps := range [][]strategies.Placement{ms[i].Running, ms[i].Waiting} {
			if slices.ContainsFunc(ps, func(p strategies.Placement) bool { return p.Job.ID == id }) {
				return true
			}
		}
	}
	return false
}

// adopt makes the client's order and GQ's own order what GQ holds (q, in
// qID order): jobs it does not know (killed by a failure, TERM or KILJ, or
// queued by another member) join the client's order at the end in GQ's
// order, jobs no longer there leave.
func (f *fcfs) adopt(q []protocol.QueuedJob) {
	f.gq = f.gq[:0]
	clear(f.info)
	for _, e := range q {
		f.gq = append(f.gq, e.ID)
		f.info[e.ID] = e
	}
	// A job keeps its first place: as a member, one that another member
	// dequeued and fcfs queued again is in the order twice. Sets, not
	// searches: with a ledger this runs at every event, over all of GQ.
	clear(f.kept)
	f.order = slices.DeleteFunc(f.order, func(id int) bool {
		_, queued := f.info[id]
		if !queued || f.kept[id] {
			return true
		}
		f.kept[id] = true
		return false
	})
	for _, id := range f.gq {
		if !f.kept[id] {
			f.order = append(f.order, id)
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
