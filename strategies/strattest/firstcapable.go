package strattest

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// FirstCapable is the smallest strategy that completes a run, for tests
// that need one: each job goes to the first server GETS Capable lists that
// has not refused it yet (View.Excluded), so it also exercises the client
// loop's SCHD-ERR retry, which the reference baselines never do (they quit
// on ERR). With every capable server refused it returns ErrNoServer. It
// reacts to no other event.
type FirstCapable struct{ strategies.IgnoreEvents }

// Job schedules on the first capable server not refused yet.
func (FirstCapable) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	recs, err := v.GetsCapable(j.Req())
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if !slices.Contains(v.Excluded(), r.Ref()) {
			return strategies.Sched(j, r.Ref()), nil
		}
	}
	return nil, strategies.ErrNoServer
}
