package strategies

import "github.com/dssim-go/dssim-go/protocol"

// Predicted is one job's predicted start and finish on a server.
type Predicted struct {
	JobID      int
	Start, End int
}

// Predict replays a server's first-come-first-served queue with estimated
// runtimes and returns when each of its jobs is predicted to start and end:
// running jobs, then waiting jobs, then job if it is not nil (as if it were
// scheduled there now). It is ds-server's own rule (§3.5: multi-resource,
// no backfilling) run forward on estimates, exactly libra.md B.4 and
// provisioning.md B.2.2:
//
//   - the server is available at now + bootupTime if inactive, at its boot
//     completion if booting, now if idle or active;
//   - a running job ends at start + estRunTime, or at now + 1 if it has
//     already outrun its estimate;
//   - each waiting job starts, in order, no earlier than the previous one and
//     once enough running jobs have ended for it to fit; a known start
//     (booting server) is kept if later; it then runs for max(est, 1).
//
// An unavailable server, or a job its type cannot hold, gets Start and End
// -1. out is reused (pass nil, or a previous result to save allocation).
func (l *Ledger) Predict(m *Machine, job *protocol.Job, out []Predicted) []Predicted {
	out = out[:0]
	if m.State == protocol.Unavailable {
		for _, p := range m.Running {
			out = append(out, Predicted{p.Job.ID, -1, -1})
		}
		for _, p := range m.Waiting {
			out = append(out, Predicted{p.Job.ID, -1, -1})
		}
		if job != nil {
			out = append(out, Predicted{job.ID, -1, -1})
		}
		return out
	}
	r := predictor{free: capacity(m.Type), h: l.heap[:0], avail: l.availableAt(m)}
	for _, p := range m.Running {
		end := predictedEnd(p, l.now)
		r.free = sub(r.free, p.Req())
		r.h.push(ending{end, p.Req()})
		out = append(out, Predicted{p.Job.ID, p.Start, end})
	}
	r.prev = r.avail
	for _, p := range m.Waiting {
		start := r.next(p.Req(), p.Start)
		out = append(out, Predicted{p.Job.ID, start, r.run(start, p.Req(), p.Job.EstRunTime)})
	}
	if job != nil {
		start := -1
		if m.Capable(job.Req()) {
			start = r.next(job.Req(), -1)
		}
		out = append(out, Predicted{job.ID, start, r.run(start, job.Req(), job.EstRunTime)})
	}
	l.heap = r.h[:0]
	return out
}

// EarliestStart is when job would start and end on the server if scheduled
// now (the last entry of Predict); -1, -1 when it never could.
func (l *Ledger) EarliestStart(m *Machine, job protocol.Job) (start, end int) {
	l.scratch = l.Predict(m, &job, l.scratch)
	p := l.scratch[len(l.scratch)-1]
	return p.Start, p.End
}

// availableAt is when a server can first run anything (B.4's avail).
func (l *Ledger) availableAt(m *Machine) int {
	switch m.State {
	case protocol.Inactive:
		return l.now + m.Type.BootupTime
	case protocol.Booting:
		return m.BootEnd
	}
	return l.now
}

// predictedEnd is a running job's predicted end: start + estimate, or
// now + 1 once the estimate has elapsed.
func predictedEnd(p Placement, now int) int {
	return max(p.Start+p.Job.EstRunTime, now+1)
}

type ending struct {
	end int
	req protocol.Requirement
}

// endHeap is a min-heap of running jobs by predicted end, on a slice the
// ledger reuses (no allocation per prediction once warm).
type endHeap []ending

func (h *endHeap) push(e ending) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].end <= s[i].end {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *endHeap) pop() ending {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(s) {
			break
		}
		if c+1 < len(s) && s[c+1].end < s[c].end {
			c++
		}
		if s[i].end <= s[c].end {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return top
}

// predictor is the state of one Predict pass.
type predictor struct {
	free        protocol.Requirement
	h           endHeap
	avail, prev int
	blocked     bool // a job that can never fit blocks every job behind it
}

// next is the start of the next job in FCFS order; -1 if it never fits.
func (r *predictor) next(req protocol.Requirement, known int) int {
	if r.blocked {
		return -1
	}
	t := max(r.prev, r.avail)
	for len(r.h) > 0 && r.h[0].end <= t {
		r.free = add(r.free, r.h.pop().req)
	}
	for !req.Fits(r.free.Cores, r.free.Memory, r.free.Disk) {
		if len(r.h) == 0 {
			r.blocked = true
			return -1
		}
		e := r.h.pop()
		t = max(t, e.end)
		r.free = add(r.free, e.req)
	}
	if known >= 0 && known > t {
		t = known
	}
	return t
}

// run books a job started at start and returns its predicted end.
func (r *predictor) run(start int, req protocol.Requirement, est int) int {
	if start < 0 {
		return -1
	}
	end := start + max(est, 1)
	r.free = sub(r.free, req)
	r.h.push(ending{end, req})
	r.prev = start
	return end
}
