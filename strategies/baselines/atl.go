package baselines

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// atl is the reference client's "all to largest" (ScheLargest,
// baselines.md §3.1): every job goes to server 0 of L, the first type in
// FILE order with the maximum core count (servertypes.System.Largest).
type atl struct{ strategies.IgnoreEvents }

func init() {
	strategies.Register(strategies.Info{
		Name:      "atl",
		Summary:   "all to largest: every job to server 0 of the first type with the most cores",
		Reference: true,
		Order:     1,
		New:       func(strategies.Params) (strategies.Strategy, error) { return &atl{}, nil },
	})
}

// Job sends GETS Capable, ignores the answer (the reference does the same,
// and the query is part of its transcript) and schedules on L 0 without any
// capability or state check: an unavailable or incapable L 0 gets an ERR
// from the server, after which the reference quits (§3.1, §5).
func (*atl) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	if refused(v) {
		return nil, strategies.ErrNoServer
	}
	sys := v.System()
	if sys == nil {
		return nil, queryErr("atl", strategies.ErrNoSystem)
	}
	if _, err := v.GetsCapable(job.Req()); err != nil {
		return nil, queryErr("atl", err)
	}
	return strategies.Sched(job, protocol.ServerRef{Type: sys.Largest().Name, ID: 0}), nil
}
