package baselines

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// lrr is the reference client's "largest round robin" (ScheLargestRR,
// baselines.md §3.2): jobs go to L 0, L 1, …, L limit-1, L 0, … where L is
// the first type in FILE order with the maximum core count. The counter is
// the only state the reference keeps across jobs (§2.2).
type lrr struct {
	strategies.IgnoreEvents
	k int // next server id of L; starts at 0 (starting at 1 is refuted, §6.3)
}

func init() {
	strategies.Register(strategies.Info{
		Name:      "lrr",
		Summary:   "largest round robin: jobs in turn to each server of the first type with the most cores",
		Reference: true,
		Order:     2,
		New:       func(strategies.Params) (strategies.Strategy, error) { return &lrr{}, nil },
	})
}

// Job sends GETS Capable (answer unused, as the reference), schedules on
// L k and advances k modulo limit(L). Every JOBN and every JOBP advances the
// counter (§3.2, §8.6): the loop calls Job once per offer, and again only
// after an ERR, where we stop before touching the counter.
func (s *lrr) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	if refused(v) {
		return nil, strategies.ErrNoServer
	}
	sys := v.System()
	if sys == nil {
		return nil, queryErr("lrr", strategies.ErrNoSystem)
	}
	if _, err := v.GetsCapable(job.Req()); err != nil {
		return nil, queryErr("lrr", err)
	}
	l := sys.Largest()
	id := s.k % l.Limit // k < limit already; the modulo guards a system change
	s.k = (id + 1) % l.Limit
	return strategies.Sched(job, protocol.ServerRef{Type: l.Name, ID: id}), nil
}
