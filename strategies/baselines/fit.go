package baselines

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// This file holds the fitting baselines: ff, bf, wf (ScheFirstFit,
// ScheBestFit, ScheWorstFit; baselines.md §3.5–§3.7) and their global-queue
// variants ffq, bfq, wfq (§3.8), which share the walk, the ready() calls and
// so the LSTJ queries, but enqueue instead of falling back.

func init() {
	for _, d := range []struct {
		name, summary string
		fit           fitRule
		queue         bool
		order         int // the reference client's usage order
	}{
		{"ff", "first fit: the first ready server, smallest types first; else the first busy capable one", firstFit, false, 3},
		{"bf", "best fit: the ready server with the fewest cores left; else the busy one of the smallest type", bestFit, false, 4},
		{"wf", "worst fit: the ready server with the most cores left; else the busy one of the largest type", worstFit, false, 5},
		{"ffq", "first fit, or ENQJ GQ when no server is ready (DEQJ GQ 0 on CHKQ)", firstFit, true, 8},
		{"bfq", "best fit, or ENQJ GQ when no server is ready (DEQJ GQ 0 on CHKQ)", bestFit, true, 9},
		{"wfq", "worst fit, or ENQJ GQ when no server is ready (DEQJ GQ 0 on CHKQ)", worstFit, true, 10},
	} {
		strategies.Register(strategies.Info{
			Name:      d.name,
			Summary:   d.summary,
			Reference: true,
			Order:     d.order,
			New: func(strategies.Params) (strategies.Strategy, error) {
				return &fitter{name: d.name, fit: d.fit, queue: d.queue}, nil
			},
		})
	}
}

type fitRule int

const (
	firstFit fitRule = iota // sorted walk, stops at the first ready server
	bestFit                 // file walk, min fitness, strict <
	worstFit                // file walk, max fitness, strict >
)

// fitter is one of ff, bf, wf, ffq, bfq, wfq.
type fitter struct {
	name  string
	fit   fitRule
	queue bool // the q variant: no fallback, ENQJ GQ, DEQJ GQ 0 on CHKQ
	tab   table
}

// Job sends GETS Capable, stores the reply and applies the rule. ready()
// sends LSTJ for booting servers, so the walk order is also the order of
// the LSTJ queries (§2.5): ff stops at the first ready server, bf and wf
// examine every present server.
func (s *fitter) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	if refused(v) {
		return nil, strategies.ErrNoServer
	}
	if err := s.tab.bind(v); err != nil {
		return nil, queryErr(s.name, err)
	}
	req := job.Req()
	recs, err := v.GetsCapable(req)
	if err != nil {
		return nil, queryErr(s.name, err)
	}
	s.tab.load(recs)
	var pick *protocol.Server
	if s.fit == firstFit {
		pick, err = s.first(v, req)
	} else {
		pick, err = s.bestOrWorst(v, req)
	}
	switch {
	case err != nil:
		return nil, queryErr(s.name, err)
	case pick != nil:
		return strategies.Sched(job, pick.Ref()), nil
	case s.queue:
		return []protocol.Action{protocol.Enqueue{}}, nil
	}
	// Only reachable when every capable server is unavailable (§3.5).
	return []protocol.Action{protocol.Push{}}, nil
}

// first is ff's walk (§3.5): sorted order × id; the first ready server wins
// and ends the walk (and the LSTJ queries). The fallback, used by ff only,
// is the first non-ready booting or active server of a capable type.
func (s *fitter) first(v strategies.View, req protocol.Requirement) (*protocol.Server, error) {
	var pick, fallback *protocol.Server
	err := s.tab.walk(v, req, s.tab.sorted, func(ty *servertypes.Type, srv *protocol.Server, ready bool) bool {
		if ready {
			pick = srv
			return false
		}
		if fallback == nil && ty.Capable(req) && busy(srv.State) {
			fallback = srv
		}
		return true
	})
	switch {
	case err != nil:
		return nil, err
	case pick != nil || s.queue:
		return pick, nil
	}
	return fallback, nil
}

// bestOrWorst is the bf/wf walk (§3.6, §3.7): FILE order × id, every
// present server examined (so every present booting server gets its LSTJ).
// Ready servers compete on availCores − c; non-ready booting/active servers
// of capable types on typeCores − c (the TYPE's cores, from ds-system.xml).
// Comparisons are strict, so the first found wins ties (§8.5).
func (s *fitter) bestOrWorst(v strategies.View, req protocol.Requirement) (*protocol.Server, error) {
	worst := s.fit == worstFit
	var best, alt *protocol.Server
	bestFit, altFit := intMax, intMax
	if worst {
		bestFit, altFit = intMin, intMin
	}
	better := func(f, than int) bool {
		if worst {
			return f > than
		}
		return f < than
	}
	err := s.tab.walk(v, req, s.tab.file, func(ty *servertypes.Type, srv *protocol.Server, ready bool) bool {
		if ready {
			if f := srv.Cores - req.Cores; better(f, bestFit) {
				best, bestFit = srv, f
			}
		} else if ty.Capable(req) && busy(srv.State) {
			if f := ty.Cores - req.Cores; better(f, altFit) {
				alt, altFit = srv, f
			}
		}
		return true
	})
	switch {
	case err != nil:
		return nil, err
	case best != nil || s.queue:
		return best, nil
	}
	return alt, nil
}

// busy: booting or active, the only states a fallback may take (§3.5).
func busy(st protocol.ServerState) bool { return st == protocol.Booting || st == protocol.Active }

// Event answers CHKQ with DEQJ GQ 0 for the q variants (§3.8) and does
// nothing otherwise (the loop sends REDY; §2.2).
func (s *fitter) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	if s.queue {
		return strategies.QueueEvents{}.Event(v, ev)
	}
	return nil, nil
}
