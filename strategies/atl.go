package strategies

import "github.com/dssim-go/dssim-go/protocol"

// atl is the reference client's "all to largest" (ScheLargest,
// baselines.md §3.1): every job goes to server 0 of L, the first type in
// FILE order with the maximum core count (servertypes.System.Largest).
type atl struct{ IgnoreEvents }

func init() {
	Register(Info{
		Name:      "atl",
		Summary:   "all to largest: every job to server 0 of the first type with the most cores",
		Reference: true,
		New:       func(Params) (Strategy, error) { return &atl{}, nil },
	})
}

// Job sends GETS Capable, ignores the answer (the reference does the same,
// and the query is part of its transcript) and schedules on L 0 without any
// capability or state check: an unavailable or incapable L 0 gets an ERR
// from the server, after which the reference quits (§3.1, §5).
func (*atl) Job(v View, job protocol.Job) ([]protocol.Action, error) {
	if refused(v) {
		return nil, ErrNoServer
	}
	sys := v.System()
	if sys == nil {
		return nil, queryErr("atl", errNoSystem)
	}
	if _, err := v.GetsCapable(job.Req()); err != nil {
		return nil, queryErr("atl", err)
	}
	return Sched(job, protocol.ServerRef{Type: sys.Largest().Name, ID: 0}), nil
}
