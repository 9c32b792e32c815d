package frontier

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// index keeps decisions from walking the whole cluster: frontier changes
// which servers are powered and which hold waiting jobs only through its
// own actions, so it notes those servers as it acts and drops them lazily
// once they are off or their queue is empty. Decisions then cost in the
// powered servers (capped, see maxScored) and the server types, not in
// the servers of the cluster (10,000 in the scale benchmark).
type index struct {
	on      machineSet            // servers frontier scheduled or moved a job to, or saw powered (see follow): may be powered
	waiting machineSet            // servers where a job may wait
	rr      int                   // where the last capped scan of on stopped
	calls   int                   // powered calls since on was last pruned
	wrapped []*strategies.Machine // window's scratch, for a window that wraps round the end of on

	ledger *strategies.Ledger // the ledger mark is of
	mark   int                // where its Changes were read up to (see follow)
}

// maxScored caps the powered servers scored for one job. Up to this many
// powered servers every one is scored (the 18 shared configs have at most
// 100 servers); beyond, the scan continues round robin from where the last
// one stopped, and the first inactive server of each type is always
// scored, so a job has a place unless every capable server is powered and
// outside the window (it is then pushed back, PSHJ, and the next offer
// scores the next window: see park).
const maxScored = 128

// pruneEvery is how many decisions may pass between two prunings of the
// powered list; in between, servers switched off are skipped as met.
const pruneEvery = 32

// machineSet is an insertion-ordered set of the ledger's servers. It
// holds pointers into the ledger's server list, which never moves (Resync
// rewrites the servers in place); Ledger.Machine's lookup by type name
// cost more than the scoring it fed.
type machineSet struct {
	list []*strategies.Machine
	in   map[*strategies.Machine]bool
}

func (s *machineSet) add(m *strategies.Machine) {
	if s.in == nil {
		s.in = map[*strategies.Machine]bool{}
	}
	if !s.in[m] {
		s.in[m] = true
		s.list = append(s.list, m)
	}
}

// prune keeps the servers for which keep holds.
func (s *machineSet) prune(keep func(*strategies.Machine) bool) {
	out := s.list[:0]
	for _, m := range s.list {
		if keep(m) {
			out = append(out, m)
		} else {
			delete(s.in, m)
		}
	}
	s.list = out
}

// noted records a server frontier just sent a job to.
func (ix *index) noted(m *strategies.Machine) {
	ix.on.add(m)
	if len(m.Waiting) > 0 {
		ix.waiting.add(m)
	}
}

// follow notes the servers that are powered, or hold waiting jobs, among
// those the ledger changed since the last decision (Ledger.Changes): in a
// composite, the servers other members powered on or queued jobs on,
// which frontier's own actions never note (it proposed boots beside
// servers another member kept running, and never moved a job waiting
// there). Alone, frontier has noted each of them already, at its own
// SCHD or MIGJ, so nothing moves. When the ledger cannot tell (a Resync,
// a mark too old or of another ledger), every powered server.
func (ix *index) follow(l *strategies.Ledger) {
	changed, next, ok := l.Changes(ix.mark)
	ok = ok && ix.ledger == l
	ix.ledger, ix.mark = l, next
	if !ok {
		ix.rebuild(l)
		return
	}
	ms := l.Machines()
	for _, i := range changed {
		if m := &ms[i]; m.Powered() {
			ix.noted(m)
		}
	}
}

// rebuild notes every server from the ledger (after a Resync).
func (ix *index) rebuild(l *strategies.Ledger) {
	ms := l.Machines()
	for i := range ms {
		if ms[i].Powered() {
			ix.noted(&ms[i])
		}
	}
}

// powered returns the powered servers place scores: all of them up to
// maxScored, else maxScored of them round robin (see scan), and moves the
// window on. Servers switched off since the last pruning may be among them.
func (ix *index) powered() []*strategies.Machine {
	w := ix.scan()
	if len(ix.on.list) > maxScored {
		ix.rr += maxScored
	}
	return w
}

// scan is the next window (see window) after the pruning due every
// pruneEvery scans, without moving the window on: for the rules that score
// servers beside place (replan's escape) and must not shift which of them
// place scores. Their scans count towards the pruning as place's do: the
// pruning reorders the list (a server pruned and noted again comes last),
// and rehome takes its moves in the list's order.
func (ix *index) scan() []*strategies.Machine {
	if ix.calls++; ix.calls >= pruneEvery {
		ix.on.prune((*strategies.Machine).Powered)
		ix.calls = 0
	}
	return ix.window()
}

// window is what powered returns next, without moving on: for rules that
// look at the powered servers beside place (rehome) and must not shift
// which of them place scores.
func (ix *index) window() []*strategies.Machine {
	if len(ix.on.list) <= maxScored {
		return ix.on.list
	}
	n := len(ix.on.list)
	ix.rr %= n
	start := ix.rr
	if start+maxScored <= n {
		return ix.on.list[start : start+maxScored]
	}
	ix.wrapped = append(append(ix.wrapped[:0], ix.on.list[start:n]...), ix.on.list[:start+maxScored-n]...)
	return ix.wrapped
}

// all returns every server frontier has noted since the last pruning,
// powered or not (see powered), uncapped: for the rare walks that must
// see every running job (posterior.refresh).
func (ix *index) all() []*strategies.Machine { return ix.on.list }

// waitingServers returns the servers where a job of frontier's waits.
func (ix *index) waitingServers() []*strategies.Machine {
	ix.waiting.prune(func(m *strategies.Machine) bool { return len(m.Waiting) > 0 })
	return ix.waiting.list
}

// firstInactive visits, per server type that can hold req, the inactive
// server with the lowest id (any inactive server of a type is as good as
// another while nothing fails; the lowest keeps runs reproducible), from
// the ledger's Ledger.LowestInactive: it sees every power-off, another
// member's in a composite too (a hint frontier kept from its own TERMs hid
// the servers other members powered off). With rank (see
// reliability.leastLikelyToFail), servers that have failed are passed over
// for the first inactive one that has not, and ranked only when every
// inactive server of the type has failed: the walk then covers the type.
// Servers for which pass holds (refused, or touched by an action of this
// decision that the ledger has not seen: a server a move just booted is
// still inactive there) are walked past, not taken as the type's one
// candidate: the next inactive server of the type stands in for them.
// Types that cannot hold req are not walked at all: the caller would drop
// their servers, and a type whose inactive servers have all failed is
// ranked server by server (a job that waits out a long failure is placed
// again at every offer, and walked every type).
func firstInactive(l *strategies.Ledger, req protocol.Requirement, visit func(*strategies.Machine), rank func(*strategies.Machine) float64, pass func(*strategies.Machine) bool) {
	for _, t := range l.System().Sorted() {
		if !t.Capable(req) {
			continue
		}
		first, ok := l.LowestInactive(t.Name)
		if !ok {
			continue
		}
		var best *strategies.Machine
		bestRank := 0.0
		ms := l.OfType(t.Name)
		for id := first.Ref.ID; id < len(ms); id++ {
			m := &ms[id]
			if m.State != protocol.Inactive {
				continue
			}
			if pass != nil && pass(m) {
				continue
			}
			if rank == nil || m.Failures == 0 {
				best = m
				break
			}
			if r := rank(m); best == nil || r < bestRank {
				best, bestRank = m, r
			}
		}
		if best != nil {
			visit(best)
		}
	}
}
