package engine

import (
	"container/heap"
	"math"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// inf stands for ds-server's "infinity" time (no event, or QUIT's advance).
const inf = math.MaxInt

// slot is one placement of a job on a server: a running or waiting entry,
// or a history record (completed, failed, killed) copied when it ended.
type slot struct {
	job   int32 // index into Engine.jobs
	alloc int32 // the memory booked: the request, or SCHM's allocMem (memory extension); see mem
	start int   // -1 while unknown (§4.2)
	end   int   // -1 while unknown; a memory failure's time when memFail
	// memFail: the job fails for lack of memory at end (memory extension,
	// estimation.md Part E item 5); never set with the extension off.
	memFail bool
}

// mem is the memory the slot books. int32 keeps a slot at 32 bytes (job
// memory is a C int in ds-server, and allocMem is at most the job's).
func (x slot) mem() int { return int(x.alloc) }

// qent is an entry of SQ (offer time) or GQ (queued time).
type qent struct {
	t   int
	job int32
	// memFail: re-offered after a memory failure, so offered as JOBP even
	// when t equals the submit time (memory extension).
	memFail bool
}

// Machine is one simulated server (§3.1); "server" is kept for
// protocol.Server (a GETS record) and the names of the spec. The fronts
// read a GETS record's fields from it through its accessors, which compile
// to plain loads (the hot path of an in-process run).
type Machine struct {
	name     string // its type's name
	idx      int32  // position in Engine.servers (sorted type order, id order)
	typ      int32  // index into Engine.types
	id       int
	state    mstate
	curStart int
	c, m, d  int // available resources

	running []slot // ordered by end; ties in insertion order
	waiting []slot // FIFO; known-start jobs (booting server) form a prefix

	completed, failed, killed []slot

	billed int // billed time (§6.1)
	// migOut is the last time a running job left by MIGJ: the end of its
	// use of the server, which §6.1's billing does not see (Report.Unbilled).
	migOut int
	busy   int // busy time A (§6.1)
	mark   int // the marker P of §6.1

	// failure counters (Appendix C.4)
	nFail, totalFail, mttf, mttr, madf, lastStart int
	failDur                                       []int // failEnd-failStart of each failure so far

	// power history for Timeline: one span per boot
	power []powerSpan

	// heap bookkeeping: the key last pushed (inf: none in the heap)
	endPushed, bootPushed int
	maybeIdle             bool
}

// endKey is the earliest known end among running and known-start waiting jobs.
func (s *Machine) endKey() int {
	k := inf
	if len(s.running) > 0 {
		k = s.running[0].end
	}
	for _, w := range s.waiting {
		if w.start < 0 {
			break
		}
		if w.end < k {
			k = w.end
		}
	}
	return k
}

func (s *Machine) bootKey() int {
	if s.state == booting {
		return s.curStart
	}
	return inf
}

// hasJobs reports whether any list (§6.2) holds a job.
func (s *Machine) hasJobs() bool {
	return len(s.running)+len(s.waiting)+len(s.completed)+len(s.failed)+len(s.killed) > 0
}

// insertRunning inserts after every entry with an equal or smaller end (§3.1).
func (s *Machine) insertRunning(x slot) {
	lo, hi := 0, len(s.running)
	for lo < hi {
		m := (lo + hi) / 2
		if s.running[m].end <= x.end {
			lo = m + 1
		} else {
			hi = m
		}
	}
	s.running = append(s.running, slot{})
	copy(s.running[lo+1:], s.running[lo:])
	s.running[lo] = x
}

func removeAt(l []slot, i int) []slot {
	copy(l[i:], l[i+1:])
	return l[:len(l)-1]
}

// minRunStart is the smallest start among the running jobs (inf if none).
func (s *Machine) minRunStart() int {
	k := inf
	for _, r := range s.running {
		if r.start < k {
			k = r.start
		}
	}
	return k
}

// leave does the busy-time accounting of §6.1 for a job leaving the server
// (completion, kill, failure) that started at start and ends at end; runMin
// is the smallest start among the jobs that count as running at that moment.
func (s *Machine) leave(start, end, runMin int) {
	if start > s.mark {
		sp := min(start, runMin)
		s.mark = max(sp, s.mark)
	}
	s.busy += end - s.mark
	s.mark = end
}

// keyHeap is a lazy min-heap of (time, server): an entry is valid while the
// server's pushed key still equals it.
type keyEnt struct {
	t   int
	srv int32
}

type keyHeap []keyEnt

func (h keyHeap) Len() int { return len(h) }
func (h keyHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].srv < h[j].srv
}
func (h keyHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)   { *h = append(*h, x.(keyEnt)) }
func (h *keyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// touch re-publishes a server's keys after any change to its lists or state.
func (e *Engine) touch(s *Machine) {
	if k := s.endKey(); k != s.endPushed {
		s.endPushed = k
		if k != inf {
			heap.Push(&e.endH, keyEnt{k, s.idx})
		}
	}
	if k := s.bootKey(); k != s.bootPushed {
		s.bootPushed = k
		if k != inf {
			heap.Push(&e.bootH, keyEnt{k, s.idx})
		}
	}
	if s.state == active && len(s.running) == 0 && !s.maybeIdle {
		s.maybeIdle = true
		e.idleCand = append(e.idleCand, s.idx)
	}
}

// minEnd is F of §3.2: the earliest end over all running and known-start
// waiting jobs.
func (e *Engine) minEnd() int {
	for len(e.endH) > 0 {
		top := e.endH[0]
		if e.machines[top.srv].endPushed == top.t {
			return top.t
		}
		heap.Pop(&e.endH)
	}
	return inf
}

// popUpTo removes the valid entries with time <= t from h and appends their
// servers to out. The popped servers' keys are forgotten so that the next
// touch pushes them again.
func (e *Engine) popUpTo(h *keyHeap, t int, boot bool, out []int32) []int32 {
	for len(*h) > 0 && (*h)[0].t <= t {
		top := heap.Pop(h).(keyEnt)
		s := e.machines[top.srv]
		if boot {
			if s.bootPushed != top.t {
				continue
			}
			s.bootPushed = inf
		} else {
			if s.endPushed != top.t {
				continue
			}
			s.endPushed = inf
		}
		out = append(out, top.srv)
	}
	return out
}

// reserve takes j's resources from s's available ones (j starts on s);
// mem is the memory booked (the slot's alloc: the request but for SCHM).
func (s *Machine) reserve(j *model.Job, mem int) {
	s.c -= j.Cores
	s.m -= mem
	s.d -= j.Disk
}

// release gives j's resources back to s (j completed or left s).
func (s *Machine) release(j *model.Job, mem int) {
	s.c += j.Cores
	s.m += mem
	s.d += j.Disk
}

// powerDown turns s off now (TERM, or a booting server a migration left
// empty): inactive, with its full capacity available again.
func (e *Engine) powerDown(s *Machine) {
	t := e.types[s.typ]
	s.powerOff(e.clock)
	s.state = inactive
	s.curStart = -1
	s.c, s.m, s.d = t.Cores, t.Memory, t.Disk
}
