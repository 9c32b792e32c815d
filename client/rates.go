package client

import (
	"fmt"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// rateNotes reads the hourly rates a 2026 ds-server's GETS records carry,
// once per type: it hands each to the ledger (Ledger.SentRate) and checks
// it against the rate the strategies price with, the server types'
// (ds-system.xml). ds-server writes both with the same %.2f, so they never
// differ for a ds-system.xml the server wrote; one that differs is not this
// server's (a stale file in the client's folder), which is said once per
// type. The types still win: they were fixed before the first decision,
// so a strategy prices the same whichever year the server is and cannot
// see its prices change in the middle of a run. Against a 2025 server the
// records carry no rate and nothing is noted.
type rateNotes struct {
	sys     *servertypes.System
	ledger  *strategies.Ledger
	seen    map[string]bool
	pending int // types whose rate is not noted yet: 0 ends the work
	differ  func(error)
	last    string // the type of the last record looked at
}

func newRateNotes(sys *servertypes.System, ledger *strategies.Ledger, differ func(error)) *rateNotes {
	return &rateNotes{sys: sys, ledger: ledger, seen: map[string]bool{}, pending: len(sys.Types()), differ: differ}
}

// records notes the rates of a GETS reply. Records come in type order, so
// a type is looked up only where the type changes; once every type's rate
// is noted this returns at once.
func (n *rateNotes) records(recs []protocol.Server) {
	if n.pending == 0 {
		return
	}
	n.last = ""
	for i := range recs {
		if r := &recs[i]; r.HasRate && r.Type != n.last {
			n.last = r.Type
			n.note(r)
		}
	}
}

func (n *rateNotes) note(r *protocol.Server) {
	if n.seen[r.Type] {
		return
	}
	n.seen[r.Type] = true
	t, ok := n.sys.Lookup(r.Type)
	if !ok {
		return // a type the System does not know: the first query that needs it says so
	}
	n.pending--
	if n.ledger != nil {
		n.ledger.NoteSentRate(r.Type, r.Rate)
	}
	if r.Rate != t.HourlyRate {
		n.differ(fmt.Errorf("server type %q: %s gives the hourly rate %s, the server's GETS records %s: that file is not this server's (strategies price with the file's)",
			r.Type, n.sys.Source, protocol.FormatRate(t.HourlyRate), protocol.FormatRate(r.Rate)))
	}
}
