package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// replanMax caps the waiting jobs reconsidered at one decision, so that a
// long backlog (the scale benchmark's) costs a bounded amount per event.
const replanMax = 8

// replan reconsiders jobs queued behind running jobs. A job was queued
// where its predicted wait looked short; estimates are often wrong by 2×
// or more (§4.2), and a job queued behind one that overruns can wait far
// longer than a boot. So once a completion batch is over, a waiting job
// whose forecast start is now further than the quickest boot moves to a
// server that starts it at once or to a server it boots, when that scores
// better (extra cost + weight × delay, as in place) than staying (weight ×
// the distrusted wait; what the move saves on its server is not counted,
// so a move needs a clear gain). Sources and targets are returned as
// touched: nothing else is decided on them before the ledger shows the
// moves. A job an earlier action of the decision moves is not moved again
// (see moving).
func (f *frontier) replan(l *strategies.Ledger, excluded, touched []protocol.ServerRef, earlier []protocol.Action) ([]protocol.Action, []protocol.ServerRef) {
	now := l.Now()
	if !f.priced() || now <= f.lastDone || now == f.replannedAt {
		return nil, touched
	}
	acts, touched := f.reconsider(l, excluded, touched, earlier)
	if len(acts) == 0 {
		f.replannedAt = now // once a second; moves count once done (see confirmed), or are looked for again
	}
	f.replanned = append(f.replanned[:0], acts...)
	return acts, touched
}

// reconsider is replan's walk over the waiting jobs.
func (f *frontier) reconsider(l *strategies.Ledger, excluded, touched []protocol.ServerRef, earlier []protocol.Action) ([]protocol.Action, []protocol.ServerRef) {
	now := l.Now()
	// A wait shorter than the quickest boot has no escape but a server freed
	// by a completion (see migrateOnto).
	quick := l.System().QuickestBoot()
	var acts []protocol.Action
	seen := 0
	for _, m := range f.ix.waitingServers() {
		if m.State == protocol.Booting || !movableFrom(m) || slices.Contains(touched, m.Ref) {
			continue
		}
		f.fc.run(l, m, nil, &f.learn)
		f.starts = append(f.starts[:0], f.fc.starts...) // copied: escape's calls to score run the forecast again, over f.fc.starts
		for k, p := range m.Waiting {
			start := f.starts[k]
			if start >= 0 && start-now <= quick {
				continue
			}
			if seen++; seen > replanMax {
				return acts, touched
			}
			if start < 0 {
				start = now + 24*3600 // never starts there by the forecast: a day
			}
			stay := f.delayPrice(p.Job.Cores) * queueDistrust * float64(start-now)
			c, ok := f.escape(l, p.Job, excluded, append(touched, m.Ref))
			if ok && c.score < stay && !moving(earlier, p.Job.ID) {
				acts = append(acts, protocol.Migrate{JobID: p.Job.ID, From: m.Ref, To: c.m.Ref})
				touched = append(touched, m.Ref, c.m.Ref)
				break // m's queue changes: the rest of it next time
			}
		}
	}
	return acts, touched
}

// escape is the best server for a waiting job among those that start it
// at once and the first inactive server of each type (a server where it
// would queue again is no escape). It looks at place's next window of the
// powered servers without moving it on (index.scan; rehome uses window):
// up to replanMax escapes a decision moved it on by maxScored each, so the
// job on offer was scored on another window than the one due.
func (f *frontier) escape(l *strategies.Ledger, job protocol.Job, excluded, skip []protocol.ServerRef) (choice, bool) {
	var best choice
	found := false
	f.candidates(l, f.ix.scan(), job, excluded, skip, func(m *strategies.Machine) {
		if m.Powered() && !m.StartsNow(job.Req()) {
			return
		}
		if c, ok := f.score(l, m, job); ok && (!found || better(c, best)) {
			best, found = c, true
		}
	})
	return best, found
}
