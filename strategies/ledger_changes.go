package strategies

// Changes tells which servers changed since mark, a mark an earlier call
// returned (0: since the ledger was made): their positions in Machines,
// in the order they changed (a server may be there more than once, or
// without a visible change), and the mark to ask from next time. A change
// is anything that moves a server's State, BootEnd, IdleSince, Free,
// Running, Waiting or Failures, whoever's action or event it was (in a
// composite, every member's). The slice is the ledger's: read it before
// the ledger changes again. ok is false when the ledger cannot tell:
// Resync rewrote every server since mark, or mark is older than the
// changes kept (see touch), or beyond the last; then any server may have
// changed. A mark is a plain count: one from another ledger is not told
// apart, so a caller that may see two ledgers keeps the ledger with its
// mark (frontier does). It lets a strategy that follows a few servers
// (frontier's servers kept on, the servers other members power on) look at
// the ones that changed at each decision instead of walking them all.
func (l *Ledger) Changes(mark int) (changed []int32, next int, ok bool) {
	end := l.changesFrom + len(l.changes)
	if mark < l.changesFrom || mark > end {
		return nil, end, false
	}
	return l.changes[mark-l.changesFrom:], end, true
}

// touch notes a change of m for Changes. The log keeps at least the last
// len(machines) + 1024 changes: older ones are dropped half a log at a
// time (amortised O(1) a change), and a mark before them gets ok false.
func (l *Ledger) touch(m *Machine) {
	if len(l.changes) >= 2*len(l.machines)+2048 {
		half := len(l.changes) / 2
		l.changes = l.changes[:copy(l.changes, l.changes[half:])]
		l.changesFrom += half
	}
	l.changes = append(l.changes, m.idx)
}

// forgetChanges makes every mark given so far unknown to Changes (Resync
// rewrites every server).
func (l *Ledger) forgetChanges() {
	l.changesFrom += len(l.changes) + 1
	l.changes = l.changes[:0]
}
