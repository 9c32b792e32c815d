package frontier

import (
	"cmp"
	"slices"

	"github.com/dssim-go/dssim-go/strategies"
)

// keptSet is the servers kept on, empty (see warmth), per type in the
// order they were kept (seq). That order is part of the decisions: cool
// returns its TERMs in it, the bet's sums are added in it (a float sum
// depends on its order: see exposed), and per type the demand forecast
// wants the first servers it meets in it. Kept in time order, each type's
// oldest are also at its front: so cool finds the servers the forecast
// wants and those whose hold is over at the front of each type, without
// walking the rest. Thousands are kept in the scale benchmark's
// turnaround run, where walking every one at every decision was half of
// the run's CPU.
type keptSet struct {
	types  []*keptType // in the order first kept: what walks them is the same in every run
	byType map[string]*keptType
	on     map[*strategies.Machine]*kept
	offs   []*kept // the TERMs the last cool returned, not yet done, in seq order
	seq    int     // the next one's
	last   int     // the latest since so far
	// unordered: a server was kept with a since before one kept earlier
	// (completions come in time order: only a test does that), so a
	// type's oldest may not be at its front; cool then reads each type
	// to its end.
	unordered bool
}

// keptType is one type's kept servers, in seq order, and how many of them
// are off (their TERM returned by the last cool).
type keptType struct {
	name string
	list []*kept
	off  int
}

type kept struct {
	m     *strategies.Machine
	seq   int // its place in the order of keeping
	since int
	idle  int  // m.IdleSince when kept: it moves once another member's job has taken m and left (see cool)
	cools int  // cools run before it was kept: until one more has, no decision has seen m empty after since (see seen)
	off   bool // cool returned its TERM, not yet done: the bet is settled once it is (see poweredOff)
}

func newKeptSet() keptSet {
	return keptSet{byType: map[string]*keptType{}, on: map[*strategies.Machine]*kept{}}
}

// has tells whether m is kept on.
func (s *keptSet) has(m *strategies.Machine) bool { return s.on[m] != nil }

// add notes m kept on since now; a server kept already stays as it was
// (a second entry would never leave: on names one of them).
func (s *keptSet) add(m *strategies.Machine, now, cools int) {
	if s.on[m] != nil {
		return
	}
	k := &kept{m: m, seq: s.seq, since: now, idle: m.IdleSince, cools: cools}
	s.seq++
	if now < s.last {
		s.unordered = true
	}
	s.last = max(s.last, now)
	t := s.byType[m.Ref.Type]
	if t == nil {
		t = &keptType{name: m.Ref.Type}
		s.byType[t.name] = t
		s.types = append(s.types, t)
	}
	t.list = append(t.list, k)
	s.on[m] = k
}

// remove forgets k, settled.
func (s *keptSet) remove(k *kept) {
	delete(s.on, k.m)
	t := s.byType[k.m.Ref.Type]
	i := t.pos(k)
	t.list = slices.Delete(t.list, i, i+1)
	if k.off {
		t.off--
		i, _ := slices.BinarySearchFunc(s.offs, k.seq, bySeq)
		s.offs = slices.Delete(s.offs, i, i+1)
	}
}

// pos is k's index in t's list.
func (t *keptType) pos(k *kept) int {
	i, _ := slices.BinarySearchFunc(t.list, k.seq, bySeq)
	return i
}

func bySeq(k *kept, seq int) int { return cmp.Compare(k.seq, seq) }

// markOff notes k's TERM returned.
func (s *keptSet) markOff(k *kept) {
	k.off = true
	s.byType[k.m.Ref.Type].off++
	i, _ := slices.BinarySearchFunc(s.offs, k.seq, bySeq)
	s.offs = slices.Insert(s.offs, i, k)
}

// clearOffs: the TERMs the last cool returned and not done are weighed
// again.
func (s *keptSet) clearOffs() {
	for _, k := range s.offs {
		k.off = false
		s.byType[k.m.Ref.Type].off = 0
	}
	s.offs = s.offs[:0]
}

// open counts the servers of type t kept on and not being powered off.
func (s *keptSet) open(t string) int {
	if kt := s.byType[t]; kt != nil {
		return len(kt.list) - kt.off
	}
	return 0
}

// inOrder is every kept server in seq order: for the rare walks that need
// them all (see changedKept, exposed).
func (s *keptSet) inOrder() []*kept {
	var out []*kept
	for _, t := range s.types {
		out = append(out, t.list...)
	}
	slices.SortFunc(out, func(a, b *kept) int { return cmp.Compare(a.seq, b.seq) })
	return out
}

// len is how many servers are kept on.
func (s *keptSet) len() int { return len(s.on) }
