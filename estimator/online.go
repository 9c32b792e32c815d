package estimator

import (
	"fmt"
	"math"
)

// eps is B.2's ε: the step past a level known to fail.
const eps = 1e-6

// Online is the event-driven estimator of estimation.md B.2, the one the
// sgme strategy uses: outcomes arrive in any order and several jobs of a
// group may be in flight. Each group keeps a bracket: S, the lowest E'
// that succeeded, and F, the highest E' that failed; a dispatch never
// reuses a level at or below F (so two failures at one level cannot reset
// the estimate to that level, E6), a stale success cannot raise E, and a
// failure at a level that succeeded before (a heterogeneous group)
// escalates the group to its request and stops reducing it.
//
// With a ratio key (K3) E, S and F are fractions of each job's request;
// with an exact key they are MB (every job of the group has the same R).
type Online struct {
	cfg    Config
	groups map[Key]*group
	recs   map[int]*record
	st     Stats
}

type group struct {
	e, a, s, f float64
	jobs       int     // dispatches that were not full-request retries
	minAlloc   float64 // lowest E' dispatched, as a fraction of R
}

// record is one dispatch awaiting its outcome (B.2's dispatch record).
type record struct {
	key   Key
	g     *group
	alloc float64 // E' in MB
	unit  float64 // MB per unit of the group's state: R for a ratio key, else 1
	a     float64 // the group's α at dispatch
	r     float64
	retry bool // a full-request retry: not one of the group's jobs
}

// NewOnline makes an estimator; the configuration must be valid.
func NewOnline(cfg Config) (*Online, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Online{cfg: cfg, groups: map[Key]*group{}, recs: map[int]*record{}}, nil
}

// Config returns the estimator's configuration.
func (o *Online) Config() Config { return o.cfg }

// Dispatch returns E', the memory to dispatch job j with, and records the
// dispatch until its outcome. retry says j comes back after a memory
// failure (B.5): with RetryFull it gets its full request (E7), which
// guarantees progress since actual use never exceeds the request.
func (o *Online) Dispatch(j Request, retry bool) float64 {
	k := o.cfg.Key.Of(j)
	g := o.groups[k]
	r := float64(j.Memory)
	unit := 1.0
	if o.cfg.Key.Ratio() {
		unit = r
	}
	if g == nil {
		g = &group{e: r / unit, a: o.cfg.Alpha, s: math.Inf(1), f: math.Inf(-1), minAlloc: 1}
		o.groups[k] = g
	}
	full := retry && o.cfg.Retry == RetryFull
	alloc := o.Peek(j, retry)
	if !full {
		g.jobs++
	}
	o.recs[j.ID] = &record{key: k, g: g, alloc: alloc, unit: unit, a: g.a, r: r, retry: full}
	o.st.Dispatches++
	if alloc < r {
		o.st.Reduced++
		g.minAlloc = math.Min(g.minAlloc, alloc/r)
	}
	return alloc
}

// Peek returns the E' Dispatch would give a job now, without recording a
// dispatch or creating its group: what a head-of-line policy asks before
// it dequeues the job.
func (o *Online) Peek(j Request, retry bool) float64 {
	r := float64(j.Memory)
	if retry && o.cfg.Retry == RetryFull {
		return r
	}
	g := o.groups[o.cfg.Key.Of(j)]
	if g == nil {
		return o.round(r, r) // a new group starts at its request (paper levels may round it up)
	}
	unit := 1.0
	if o.cfg.Key.Ratio() {
		unit = r
	}
	alloc := o.round(math.Min(g.e*unit, r), r)
	for alloc <= g.f*unit+tol && alloc < r {
		alloc = o.round(alloc+eps, r)
	}
	return alloc
}

// Cancel drops a dispatch that never reached a server (the job was
// enqueued or pushed instead, or the server refused it), counting nothing.
func (o *Online) Cancel(id int) {
	if rec, ok := o.take(id); ok {
		o.st.Dispatches--
		if rec.alloc < rec.r {
			o.st.Reduced--
		}
		if !rec.retry {
			rec.g.jobs--
		}
	}
}

// round is the rounder with the floor (Part F: GETS refuses memory below
// 100, so E' never goes under Floor, nor over R because of it).
func (o *Online) round(x, r float64) float64 {
	v := o.cfg.Round.RoundUp(x, r)
	if v < o.cfg.Floor {
		v = math.Min(o.cfg.Floor, r)
	}
	return v
}

// Pending reports the E' of a job's dispatch awaiting its outcome.
func (o *Online) Pending(id int) (alloc float64, ok bool) {
	rec, ok := o.recs[id]
	if !ok {
		return 0, false
	}
	return rec.alloc, true
}

// OnSuccess is a completion (JCPL) of a dispatched job. It returns the
// dispatch's E' and R (ok false when the job has no record).
func (o *Online) OnSuccess(id int) (alloc, r float64, ok bool) {
	rec, ok := o.take(id)
	if !ok {
		return 0, 0, false
	}
	g, x := rec.g, rec.alloc/rec.unit
	g.s = math.Min(g.s, x)
	g.e = math.Min(g.e, x/g.a) // monotone: a stale success cannot raise E
	o.st.Successes++
	return rec.alloc, rec.r, true
}

// OnMemFailure is an implicit memory failure of a dispatched job (a JOBP
// the Classifier calls a memory failure). It returns the dispatch's E'.
func (o *Online) OnMemFailure(id int) (alloc float64, ok bool) {
	rec, ok := o.take(id)
	if !ok {
		return 0, false
	}
	o.st.MemFailures++
	g, x := rec.g, rec.alloc/rec.unit
	if x >= g.s-tol {
		// Failed at a level that succeeded before: the group is not
		// homogeneous. Escalate to the request and stop reducing (E6).
		g.e, g.a, g.s, g.f = rec.r/rec.unit, 1, math.Inf(1), math.Inf(-1)
		o.st.Escalations++
		return rec.alloc, true
	}
	if x > g.f {
		g.f = x
		if rec.a == g.a { // shrink α once per failure event
			g.a = math.Max(math.Pow(g.a, o.cfg.Beta), 1)
		}
	}
	full := rec.r / rec.unit
	if !math.IsInf(g.s, 1) {
		g.e = g.s / g.a
	} else {
		g.e = full
	}
	if o.round(g.e*rec.unit, rec.r) <= g.f*rec.unit+tol {
		if !math.IsInf(g.s, 1) {
			g.e = g.s
		} else {
			g.e = full
		}
	}
	return rec.alloc, true
}

// OnInvalidated drops a dispatch whose job was lost for a reason that says
// nothing about its memory (RESF, TERM, KILJ, MIGJ, DEQJ), or that never
// reached a server: no update.
func (o *Online) OnInvalidated(id int) {
	if _, ok := o.take(id); ok {
		o.st.Invalidated++
	}
}

func (o *Online) take(id int) (*record, bool) {
	rec, ok := o.recs[id]
	if ok {
		delete(o.recs, id)
	}
	return rec, ok
}

// GroupState is a group's state, for tests and diagnostics: E (MB, or a
// fraction of R for a ratio key), α, S and F (±Inf when unset).
type GroupState struct {
	E, Alpha, S, F float64
	Jobs           int
}

// Group returns the state of the group of a request.
func (o *Online) Group(j Request) (GroupState, bool) {
	g, ok := o.groups[o.cfg.Key.Of(j)]
	if !ok {
		return GroupState{}, false
	}
	return GroupState{E: g.e, Alpha: g.a, S: g.s, F: g.f, Jobs: g.jobs}, true
}

// Stats counts what the estimator did (estimation.md C.1).
type Stats struct {
	Dispatches, Reduced                 int // dispatches; those with E' < R
	Successes, MemFailures, Invalidated int
	Escalations                         int // heterogeneous groups sent back to their request
	Groups, GroupsReduced               int // groups; those ever dispatched below their request
	JobsInBigGroups                     int // first dispatches in groups of ≥ 10 jobs (B.4 diagnostic 1)
	Jobs                                int // first dispatches (not full-request retries)
}

// Stats returns the counts so far.
func (o *Online) Stats() Stats {
	s := o.st
	s.Groups = len(o.groups)
	s.GroupsReduced, s.JobsInBigGroups, s.Jobs = 0, 0, 0
	for _, g := range o.groups {
		s.Jobs += g.jobs
		if g.minAlloc < 1 {
			s.GroupsReduced++
		}
		if g.jobs >= 10 {
			s.JobsInBigGroups += g.jobs
		}
	}
	return s
}

func (s Stats) String() string {
	return fmt.Sprintf("%d dispatches (%d reduced), %d ok, %d memory failures, %d invalidated, %d escalations, %d groups (%d reduced)",
		s.Dispatches, s.Reduced, s.Successes, s.MemFailures, s.Invalidated, s.Escalations, s.Groups, s.GroupsReduced)
}
