package strategies_test

import (
	"fmt"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// cheapestReady is a complete strategy: among the servers that can run the
// job, the cheapest per core that would start it now (idle, or active with
// room and nothing waiting), else the first capable one. It sees the
// cluster only through the View; the client sends its queries and actions.
type cheapestReady struct {
	strategies.IgnoreEvents // nothing to do on completions and failures
}

func (cheapestReady) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	servers, err := v.GetsCapable(job.Req())
	if err != nil {
		return nil, err
	}
	var best *protocol.Server
	bestRate := 0.0
	for i := range servers {
		s := &servers[i]
		t, _ := v.System().Lookup(s.Type)
		ready := s.State == protocol.Idle || s.State == protocol.Active && s.Waiting == 0 && s.Fits(job.Req())
		if ready && (best == nil || t.CostPerCore() < bestRate) {
			best, bestRate = s, t.CostPerCore()
		}
	}
	if best == nil {
		best = &servers[0] // nothing free now: the first capable server queues it
	}
	return strategies.Sched(job, best.Ref()), nil
}

// A strategy is a decision over a View, run here in-process on a config
// of the embedded suite (strattest runs it as dsclient would against
// ds-server, from the handshake to QUIT).
func Example() {
	m, err := strattest.RunFS(configs.FS(), "light-short-small.xml", cheapestReady{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d jobs: avg turnaround %d s, cost $%.2f, %d servers used\n", m.Jobs, m.AvgTurnaround, m.TotalCost, m.ServersUsed)
	// Output:
	// 400 jobs: avg turnaround 302 s, cost $5.84, 4 servers used
}
