package composite

import (
	"errors"
	"fmt"
	"math"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// propose asks every member for the job and returns the proposal with the
// lowest score; the first member wins ties. A member with nothing to
// propose (ErrNoServer) is passed over; any other error ends the run, as it
// would for the member alone. When no member proposes, the error is the
// first that says more than the bare ErrNoServer (frontier's "job 7 …
// fits no server type"), named by its member and still ErrNoServer to
// errors.Is: members that say why say the same thing of one job, so one
// explanation is enough, and a join of them would repeat it.
func (c *composite) propose(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	c.view.reset(v)
	best, bestScore := -1, math.Inf(1)
	var bestActs []protocol.Action
	var why error // the first ErrNoServer with detail
	for i, m := range c.members {
		acts, err := m.Job(c.view, job)
		if errors.Is(err, strategies.ErrNoServer) {
			if why == nil && err != strategies.ErrNoServer {
				why = fmt.Errorf("member %d (%s): %w", i+1, c.names[i], err)
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("member %d (%s): %w", i+1, c.names[i], err)
		}
		s := c.score(v.Ledger(), job, acts)
		if best < 0 || s < bestScore {
			best, bestScore, bestActs = i, s, acts
		}
	}
	if best < 0 && why != nil {
		return nil, why
	}
	if best < 0 {
		return nil, strategies.ErrNoServer
	}
	c.routes.start(ownedBy(best, bestActs))
	return bestActs, nil
}

// score is the stated objective of a proposal: the billed cost it adds
// (dollars: the server's rate over the seconds by which the job extends
// the server's predicted billed time) plus weight × the job's predicted
// delay (from now to its predicted start, a boot included) priced at the
// job's cores at the cheapest rate per core in the system (a unit per
// core-hour when no type has a rate above 0: servertypes.System.CheapestPerCore). Predictions are
// the ledger's (estimated runtimes, FCFS, Ledger.EarliestStart). Actions a
// proposal takes before its SCHD (TERM, MIGJ) are not predicted. A
// proposal that queues or pushes the job back has no prediction and
// scores +Inf: it is taken only when no member schedules the job.
func (c *composite) score(l *strategies.Ledger, job protocol.Job, acts []protocol.Action) float64 {
	var m *strategies.Machine
	for _, a := range acts {
		if s, ok := a.(protocol.Schedule); ok && s.JobID == job.ID {
			m, _ = l.Machine(s.Server)
		}
	}
	if m == nil {
		return math.Inf(1)
	}
	start, end := l.EarliestStart(m, job)
	if start < 0 {
		return math.Inf(1)
	}
	extra := float64(max(0, end-c.billedUntil(l, m, start))) * m.Type.HourlyRate / 3600
	delay := float64(start-l.Now()) / 3600 * float64(job.Cores) * l.System().CheapestPerCore()
	return extra + c.weight*delay
}

// billedUntil is when the server's billing would end without the job: the
// predicted end of its last job; for an empty server, when its last job
// ended (an idle gap becomes billed once another job follows it) or its
// boot completes; start (nothing billed yet) for one that is off.
func (c *composite) billedUntil(l *strategies.Ledger, m *strategies.Machine, start int) int {
	if !m.Empty() {
		c.pred = l.Predict(m, nil, c.pred)
		last := 0
		for _, p := range c.pred {
			last = max(last, p.End)
		}
		return last
	}
	if t := l.EmptyBilledUntil(m); t >= 0 {
		return t
	}
	return start
}
