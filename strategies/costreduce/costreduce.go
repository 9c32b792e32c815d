// Package costreduce is seed 003's wait-multiplier strategy, cost-reduce
// (../shared/docs/cost-reduce.md). Importing the package registers it with
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
		// Rule 1: the first idle server, or active one with no waiting
		// job, in the order received. Booting servers are never taken here
		// (the report names idle and active only).
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
				return strategies.Sched(job, r.Ref()), nil
			}
		}
	}
	// Rule 2.
	capable, err := v.GetsCapable(req)
	if err != nil {
		return nil, fmt.Errorf("cost-reduce: %w", err)
	}
	minP, minI := math.Inf(1), math.Inf(1)
	for i := range capable {
		r := &capable[i]
		p, ok := candidatePPC(sys, r, excluded)
		if !ok {
			continue
		}
		if r.State == protocol.Inactive {
			minI = math.Min(minI, p)
		} else {
			minP = math.Min(minP, p)
		}
	}
	var best, cheap *protocol.Server
	wait := 0
	for i := range capable {
		r := &capable[i]
		p, ok := candidatePPC(sys, r, excluded)
		if !ok {
			continue
		}
		if r.State == protocol.Inactive {
			if samePPC(p, minI) {
				cheap = r // last wins among equally priced inactive servers
			}
			continue
		}
		if !samePPC(p, minP) {
			continue
		}
		w, err := v.EstWait(r.Ref())
		if err != nil {
			return nil, fmt.Errorf("cost-reduce: %w", err)
		}
		if best == nil || w < wait { // first wins among equal waits
			best, wait = r, w
		}
	}
	// Rule 3.
	switch {
	case best != nil && cheap != nil:
		if float64(wait) > float64(job.EstRunTime)*s.mult {
			return strategies.Sched(job, cheap.Ref()), nil
		}
		return strategies.Sched(job, best.Ref()), nil
	case best != nil:
		return strategies.Sched(job, best.Ref()), nil
	case cheap != nil:
		return strategies.Sched(job, cheap.Ref()), nil
	case len(excluded) > 0:
		return nil, strategies.ErrNoServer
	}
	// Every capable server unavailable: the global queue; CHKQ later
	// dequeues it and the job returns as JOBP.
	return []protocol.Action{protocol.Enqueue{}}, nil
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
