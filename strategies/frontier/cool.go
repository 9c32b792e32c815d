package frontier

import (
	"cmp"
	"math"
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// look brings frontier's picture up to the ledger at the top of each
// decision, before any rule reads it: the servers other members of a
// composite powered on or queued on (index.follow), the kept servers they
// took or powered off, or that failed (forgotten, see settleTaken), and
// the TERMs of kept servers returned before and not done (weighed again).
// Run with cool, it left settle, which asks the bet (keep) before cool
// runs, judging on the last decision's picture: a server another member
// had powered off still counted as an open bet, and the same emptied
// server was kept or powered off by whether a decision came in between.
func (f *frontier) look(l *strategies.Ledger) {
	f.ix.follow(l)
	f.warm.kept.clearOffs()
	for _, k := range f.changedKept(l) {
		f.settleTaken(k)
	}
}

// cool settles the bets: a server kept on past its hold is powered off
// (its idle time lost, once the TERM is done: see poweredOff), unless the
// demand forecast still wants it (warm=demand, see demand: weighed again
// at every decision). One another member's job has taken (frontier's own
// settle when done: see taken) is forgotten, its idle time paid: up to the
// job's start while it is there, up to the last decision that saw the
// server empty once the job has left (the ledger no longer shows when it
// came). It skips the servers touched this decision and adds those it
// powers off to them. The kept servers taken or powered off since the last
// decision were forgotten by look.
//
// Its work is in what can change, not in the servers kept on (thousands
// in the scale benchmark's turnaround run, each weighed at every decision
// before: half of the run's CPU): the kept servers the ledger changed
// since the last decision (see changedKept, in look), and per type the front of
// its list, where the servers the forecast wants and those whose hold is
// over are (see holdsOver). The decisions are those of weighing every
// kept server in the order kept, as before.
func (f *frontier) cool(l *strategies.Ledger, touched []protocol.ServerRef) ([]protocol.Action, []protocol.ServerRef) {
	w := &f.warm
	var acts []protocol.Action
	for _, k := range f.holdsOver(l, touched) {
		w.kept.markOff(k)
		acts = append(acts, protocol.Terminate{Server: k.m.Ref})
		touched = append(touched, k.m.Ref)
	}
	w.cools++
	w.lastCool = l.Now()
	return acts, touched
}

// changedKept is the kept servers the ledger changed since the last cool
// (ledger.Changes), in seq order: only these can have been powered off or
// taken by another member's job since (frontier's own moves settle theirs
// when done: see taken, poweredOff), as a kept server left alone stays
// powered and empty. When the ledger cannot tell (a Resync, a mark from
// another ledger), every kept server.
func (f *frontier) changedKept(l *strategies.Ledger) []*kept {
	w := &f.warm
	changed, next, ok := l.Changes(w.mark)
	ok = ok && w.ledger == l
	w.ledger, w.mark = l, next
	if !ok {
		return w.kept.inOrder()
	}
	f.changed = f.changed[:0]
	ms := l.Machines()
	for _, i := range changed {
		if k := w.kept.on[&ms[i]]; k != nil {
			f.changed = append(f.changed, k)
		}
	}
	slices.SortFunc(f.changed, func(a, b *kept) int { return cmp.Compare(a.seq, b.seq) })
	return slices.Compact(f.changed)
}

// settleTaken forgets k once its server is off, or another member's job
// has taken it (paying its idle time: see cool).
func (f *frontier) settleTaken(k *kept) {
	switch m := k.m; {
	case !m.Powered():
	case !m.Empty(): // taken by another member's job
		first := m.Waiting
		if len(m.Running) > 0 {
			first = m.Running
		}
		f.warm.net -= k.idleUntil(first[0].Start)
	case m.IdleSince != k.idle: // taken by another member's job, which has left
		f.warm.net -= k.idleUntil(f.warm.seen(k))
	default:
		return
	}
	f.warm.kept.remove(k)
}

// seen is the last decision that found k's server empty since it was
// kept: the last cool, or its keeping when no cool has run since.
func (w *warmth) seen(k *kept) int {
	if k.cools == w.cools {
		return k.since
	}
	return w.lastCool
}

// holdsOver is the kept servers cool powers off, in seq order: per type,
// past the first ones the forecast wants (warm=demand: as many as
// wantedCount says, counted past those touched, which are skipped), the
// untouched ones whose hold is over, the oldest.
func (f *frontier) holdsOver(l *strategies.Ledger, touched []protocol.ServerRef) []*kept {
	now := l.Now()
	busy := f.touchedKept(l, touched)
	f.ending = f.ending[:0]
	for _, t := range f.warm.kept.types {
		if len(t.list) == 0 {
			continue
		}
		m := t.list[0].m // the terms depend on the type alone
		hold, wanted := f.hold(m), 0
		if f.dem.active {
			wanted = wantedCount(f.demandFor(m, now))
		}
		i := wanted // the first past the wanted ones: each touched one before it is skipped
		for _, k := range busy {
			if k.m.Ref.Type == t.name && t.pos(k) < i {
				i++
			}
		}
	walk:
		for _, k := range t.list[min(i, len(t.list)):] {
			switch {
			case slices.Contains(busy, k): // a move of this decision onto it: settled when done (see taken)
			case now-k.since >= hold:
				f.ending = append(f.ending, k)
			case !f.warm.kept.unordered:
				break walk // the rest were kept later: their holds are not over either
			}
		}
	}
	slices.SortFunc(f.ending, func(a, b *kept) int { return cmp.Compare(a.seq, b.seq) })
	return f.ending
}

// touchedKept is the kept servers among touched, in seq order, each once.
func (f *frontier) touchedKept(l *strategies.Ledger, touched []protocol.ServerRef) []*kept {
	f.busy = f.busy[:0]
	if f.warm.kept.len() == 0 {
		return f.busy
	}
	for _, ref := range touched {
		if m, ok := l.Machine(ref); ok && f.warm.kept.has(m) {
			f.busy = append(f.busy, f.warm.kept.on[m])
		}
	}
	slices.SortFunc(f.busy, func(a, b *kept) int { return cmp.Compare(a.seq, b.seq) })
	return slices.Compact(f.busy)
}

// wantedCount is how many kept servers of a type the forecast wants, on
// demandFor's terms: wants holds for ahead = 0, 1, …, up to it (the
// integers below limit, when keeping one pays).
func wantedCount(limit float64, pays bool) int {
	switch {
	case !pays || !(limit > 0): // NaN included: wants never holds
		return 0
	case limit > math.MaxInt32:
		return math.MaxInt32
	}
	return int(math.Ceil(limit))
}
