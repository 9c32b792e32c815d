package baselines

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// firstCapable is the reference client's fc (ScheFirstCapable, baselines.md
// §3.3) and, with avail set, fafc (ScheFAFC, §3.4).
type firstCapable struct {
	strategies.IgnoreEvents
	name  string
	avail bool // fafc: GETS Avail first, GETS Capable only if Avail is empty
	tab   table
}

func init() {
	strategies.Register(strategies.Info{
		Name:      "fc",
		Summary:   "first capable: the first present server of a capable type, smallest types first",
		Reference: true,
		Order:     6,
		New:       func(strategies.Params) (strategies.Strategy, error) { return &firstCapable{name: "fc"}, nil },
	})
	strategies.Register(strategies.Info{
		Name:      "fafc",
		Summary:   "first available (GETS Avail), else first capable: smallest types first",
		Reference: true,
		Order:     7,
		New: func(strategies.Params) (strategies.Strategy, error) {
			return &firstCapable{name: "fafc", avail: true}, nil
		},
	})
}

// Job walks sorted order × id and takes the first server that is present
// (in the last GETS reply, not unavailable) and of a capable type. No LSTJ,
// no availability test. Finding nothing is only possible when every capable
// server has failed; the reference then aborts without a message
// (decision 4), which we report as ErrNoServer so that the loop QUITs.
func (s *firstCapable) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	if refused(v) {
		return nil, strategies.ErrNoServer
	}
	if err := s.tab.bind(v); err != nil {
		return nil, queryErr(s.name, err)
	}
	req := job.Req()
	var recs []protocol.Server
	var err error
	if s.avail {
		// §3.4: "present" is "listed by Avail" whenever Avail lists
		// anything; the fallback is taken on DATA 0 only, so a non-empty
		// reply of unknown types does not trigger it.
		recs, err = v.GetsAvail(req)
		if err == nil && len(recs) == 0 {
			recs, err = v.GetsCapable(req)
		}
	} else {
		recs, err = v.GetsCapable(req)
	}
	if err != nil {
		return nil, queryErr(s.name, err)
	}
	t := &s.tab
	t.load(recs)
	for _, ti := range t.sorted {
		if !t.types[ti].Capable(req) {
			continue
		}
		for id := range t.rows[ti] {
			if srv, ok := t.present(ti, id); ok {
				return strategies.Sched(job, srv.Ref()), nil
			}
		}
	}
	return nil, strategies.ErrNoServer
}
