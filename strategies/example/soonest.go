// Package example holds the strategy kit's worked example (docs/strategy-kit.md):
// a complete strategy built on the kit (the ledger, filter-then-score, the
// outcome hook), small enough to read in one sitting, registered as
// `soonest` and tested both ways the kit offers (a table test through
// strattest.FakeView, whole runs through strattest.Run).
package example

import (
	"fmt"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// soonest schedules each job on the server where the ledger predicts it
// will start soonest (estimated runtimes, ds-server's FCFS rule), the
// cheaper rate per core on ties, and powers a server off as soon as it has
// nothing left to run. Jobs that come back through the global queue
// (killed by a failure) are dequeued at the next event. It sends no query
// (the ledger knows what GETS and LSTJ would have said, so its messages are
// its actions) except in the one case where the ledger says it is Stale.
type soonest struct {
	strategies.WithLedger // the client keeps a Ledger for us: View.Ledger
	powerOff              bool
}

func init() {
	strategies.Register(strategies.Info{
		Name:    "soonest",
		Summary: "kit example: the server where the job is predicted to start soonest (ledger), cheapest per core on ties; idle servers powered off",
		Params: []strategies.Param{{Name: "powerOff", Kind: strategies.Bool, Default: "true",
			Help: "TERM a server when its last job completes and no job waits in the global queue"}},
		New: func(p strategies.Params) (strategies.Strategy, error) {
			return &soonest{powerOff: p.Bool("powerOff")}, nil
		},
	})
}

// Job: filter the servers that can take the job, then score them.
func (s *soonest) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	l := v.Ledger()
	if err := l.ResyncIfStale(v); err != nil { // ds-server completed jobs without telling (see Ledger)
		return nil, err
	}
	cands := l.Candidates(strategies.CapableOf(job.Req()), strategies.Usable, strategies.NotExcluded(v))
	predictedStart := func(m *strategies.Machine) float64 {
		start, _ := l.EarliestStart(m, job)
		return float64(start)
	}
	best, ok := strategies.MinBy(cands, predictedStart, strategies.ByRatePerCore)
	if !ok {
		return nil, strategies.ErrNoServer
	}
	return strategies.Sched(job, best.Ref), nil
}

// Event: bring queued jobs back, and power off a server that has just
// emptied.
func (s *soonest) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	l := v.Ledger()
	if len(l.Queue()) > 0 {
		return []protocol.Action{protocol.Dequeue{QID: 0}}, nil // offered again as JOBP
	}
	done, ok := ev.(*protocol.JobCompleted)
	if !ok || !s.powerOff {
		return nil, nil
	}
	if m, ok := l.Machine(done.Server); ok && m.Empty() && m.Powered() {
		return []protocol.Action{protocol.Terminate{Server: done.Server}}, nil
	}
	return nil, nil
}

// Outcome: TERM is sent only to servers the ledger says are empty, so a
// TERM that killed jobs means the ledger was wrong — a bug to report, never
// to pass over (the killed jobs would wait in the global queue). A refused
// TERM or DEQJ means the same; a refused SCHD needs nothing here: the
// client asks Job again without that server.
func (s *soonest) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	switch o.Action.(type) {
	case protocol.Terminate, protocol.Dequeue:
		if !o.OK() {
			return nil, fmt.Errorf("%s refused (%s): the ledger is out of step with the server", o.Action, o.Err.Text)
		}
		if o.Killed > 0 {
			return nil, fmt.Errorf("%s killed %d job(s) the ledger did not know of", o.Action, o.Killed)
		}
	}
	return nil, nil
}
