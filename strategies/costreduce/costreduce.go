// Package costreduce is the wait-multiplier strategy of Stedman's COMP3100
// report, cost-reduce (docs/cost-reduce.md). Importing the package registers it with
// package strategies.
package costreduce

import (
	"fmt"
	"math"
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// costReduce is the wait-multiplier strategy of cost-reduce.md ("The rules,
// made exact"): take a server that can start the job now; otherwise queue
// it on the cheapest-per-core powered server unless that server's
// estimated wait exceeds est × multiplier, in which case boot the cheapest
// inactive server.
type costReduce struct {
	strategies.QueueEvents // CHKQ → DEQJ GQ 0 (rule 3, "neither")
	mult                   float64
}

func init() {
	strategies.Register(strategies.Info{
		Name:    "cost-reduce",
		Summary: "queue on the cheapest powered server unless its wait exceeds est × multiplier, then boot the cheapest inactive one",
		Params: []strategies.Param{{Name: "multiplier", Kind: strategies.Float, Default: "4",
			Help: "boot a new server when the best powered server's EJWT exceeds est × multiplier (higher: more queueing, lower cost)"}},
		New: func(p strategies.Params) (strategies.Strategy, error) {
			m := p.Float("multiplier")
			if m < 0 || math.IsNaN(m) || math.IsInf(m, 0) {
				return nil, fmt.Errorf("strategy cost-reduce: parameter multiplier=%v: want a finite number ≥ 0", m)
			}
			return &costReduce{mult: m}, nil
		},
	})
}

// ppcTol is the relative tolerance on cost-per-core ties (a choice
// cost-reduce.md records: "compare with a relative tolerance of 1e-9").
const ppcTol = 1e-9

func samePPC(a, b float64) bool { return math.Abs(a-b) <= ppcTol*math.Max(math.Abs(a), math.Abs(b)) }

// Job follows rules 1–4. Rule 4 (ERR to SCHD): the loop calls Job again
// with the refused server in View.Excluded; we then skip rule 1 (the note
// says "repeat from step 2"), send GETS Capable again and leave every
// excluded server out. When no candidate is left after a refusal the
// result is ErrNoServer (the note: "report the error if nothing is left")
// rather than ENQJ, which would hide the refusal.
func (s *costReduce) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	sys := v.System()
	if sys == nil {
		return nil, fmt.Errorf("cost-reduce: %w", strategies.ErrNoSystem)
	}
	req := job.Req()
	excluded := v.Excluded()
	if len(excluded) == 0 {
		free, err := startsNow(v, sys, req)
		if err != nil || free != nil {
			return schedOn(job, free), err
		}
	}
	c, err := cheapest(v, sys, req, excluded)
	if err != nil {
		return nil, err
	}
	return s.choose(job, c, len(excluded) > 0)
}

// schedOn schedules job on s; nothing when s is nil.
func schedOn(job protocol.Job, s *protocol.Server) []protocol.Action {
	if s == nil {
		return nil
	}
	return strategies.Sched(job, s.Ref())
}

// startsNow is rule 1: GETS Avail, then the first idle server, or active
// one with no waiting job, in the order received. Booting servers are
// never taken here (the report names idle and active only).
func startsNow(v strategies.View, sys *servertypes.System, req protocol.Requirement) (*protocol.Server, error) {
	avail, err := v.GetsAvail(req)
	if err != nil {
		return nil, fmt.Errorf("cost-reduce: %w", err)
	}
	for i := range avail {
		r := &avail[i]
		if _, known := sys.Lookup(r.Type); !known {
			continue
		}
		if r.State == protocol.Idle || (r.State == protocol.Active && r.Waiting == 0) {
			return r, nil
		}
	}
	return nil, nil
}

// candidates is rule 2's choice: the powered server with the least EJWT
// among the cheapest per core (best, with its wait), and the cheapest
// inactive server (cheap). Either may be nil.
type candidates struct {
	best, cheap *protocol.Server
	wait        int
}

// cheapest is rule 2: GETS Capable, the cheapest cost per core among the
// powered and among the inactive candidates, then EJWT of every cheapest
// powered one in the order received (first wins among equal waits; last
// wins among equally priced inactive servers).
func cheapest(v strategies.View, sys *servertypes.System, req protocol.Requirement, excluded []protocol.ServerRef) (candidates, error) {
	capable, err := v.GetsCapable(req)
	if err != nil {
		return candidates{}, fmt.Errorf("cost-reduce: %w", err)
	}
	minP, minI := math.Inf(1), math.Inf(1)
	_ = eachCandidate(sys, capable, excluded, func(r *protocol.Server, p float64) error { // never fails
		if r.State == protocol.Inactive {
			minI = math.Min(minI, p)
		} else {
			minP = math.Min(minP, p)
		}
		return nil
	})
	var c candidates
	err = eachCandidate(sys, capable, excluded, func(r *protocol.Server, p float64) error {
		if r.State == protocol.Inactive {
			if samePPC(p, minI) {
				c.cheap = r
			}
			return nil
		}
		if !samePPC(p, minP) {
			return nil
		}
		w, err := v.EstWait(r.Ref())
		if err != nil {
			return fmt.Errorf("cost-reduce: %w", err)
		}
		if c.best == nil || w < c.wait {
			c.best, c.wait = r, w
		}
		return nil
	})
	return c, err
}

// choose is rule 3: queue on the best powered server unless its wait
// exceeds est × multiplier and an inactive one can be booted instead.
func (s *costReduce) choose(job protocol.Job, c candidates, refused bool) ([]protocol.Action, error) {
	switch {
	case c.best != nil && c.cheap != nil:
		if float64(c.wait) > float64(job.EstRunTime)*s.mult {
			return strategies.Sched(job, c.cheap.Ref()), nil
		}
		return strategies.Sched(job, c.best.Ref()), nil
	case c.best != nil:
		return strategies.Sched(job, c.best.Ref()), nil
	case c.cheap != nil:
		return strategies.Sched(job, c.cheap.Ref()), nil
	case refused:
		return nil, strategies.ErrNoServer
	}
	// Every capable server unavailable: the global queue; CHKQ later
	// dequeues it and the job returns as JOBP.
	return []protocol.Action{protocol.Enqueue{}}, nil
}

// eachCandidate is the walk both passes of rule 2 share: the GETS Capable
// records in the order received, each rule-2 candidate (candidatePPC) with
// its cost per core. An error from visit ends the walk and is returned.
func eachCandidate(sys *servertypes.System, recs []protocol.Server, excluded []protocol.ServerRef,
	visit func(r *protocol.Server, ppc float64) error) error {
	for i := range recs {
		r := &recs[i]
		if p, ok := candidatePPC(sys, r, excluded); ok {
			if err := visit(r, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// candidatePPC returns the cost per core of a rule-2 candidate: a record of
// a known type, not unavailable and not excluded. Powered = booting, idle or
// active; the rest is inactive.
func candidatePPC(sys *servertypes.System, r *protocol.Server, excluded []protocol.ServerRef) (float64, bool) {
	if r.State == protocol.Unavailable || !r.State.Powered() && r.State != protocol.Inactive {
		return 0, false
	}
	ty, ok := sys.Lookup(r.Type)
	if !ok {
		return 0, false
	}
	if len(excluded) > 0 && slices.Contains(excluded, r.Ref()) {
		return 0, false
	}
	return ty.CostPerCore(), true
}
