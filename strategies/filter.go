package strategies

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
)

// Filter, then score: the helpers below let a decision read as "the
// candidates that pass these tests, the best by these keys" instead of a
// loop over raw state. They work on any candidate type: ledger machines
// (*Machine) or GETS records (protocol.Server).

// Filter returns the candidates for which every test holds, in their
// order, in a new slice (a GETS slice is the View's buffer, so it is never
// filtered in place).
func Filter[T any](cands []T, tests ...func(T) bool) []T {
	var out []T
next:
	for _, c := range cands {
		for _, ok := range tests {
			if !ok(c) {
				continue next
			}
		}
		out = append(out, c)
	}
	return out
}

// MinBy returns the candidate with the smallest keys, compared in order
// (the second key breaks ties of the first, and so on); among equal
// candidates the first in the slice wins, which for GETS records and ledger
// machines is ds-server's order. ok is false when there is no candidate.
func MinBy[T any](cands []T, keys ...func(T) float64) (best T, ok bool) {
	for i, c := range cands {
		if i == 0 || less(c, best, keys) {
			best, ok = c, true
		}
	}
	return best, ok
}

func less[T any](a, b T, keys []func(T) float64) bool {
	for _, k := range keys {
		ka, kb := k(a), k(b)
		if ka != kb {
			return ka < kb
		}
	}
	return false
}

// Candidates returns pointers to the ledger's machines that pass every
// test, in GETS order. They are the ledger's own, read only, as Machines':
// the ledger changes them only from events and accepted actions.
func (l *Ledger) Candidates(tests ...func(*Machine) bool) []*Machine {
	var out []*Machine
next:
	for i := range l.machines {
		m := &l.machines[i]
		for _, ok := range tests {
			if !ok(m) {
				continue next
			}
		}
		out = append(out, m)
	}
	return out
}

// Tests on ledger machines.

// CapableOf keeps servers whose type can ever run r.
func CapableOf(r protocol.Requirement) func(*Machine) bool {
	return func(m *Machine) bool { return m.Capable(r) }
}

// NotExcluded keeps servers that did not refuse the job on offer
// (View.Excluded).
func NotExcluded(v View) func(*Machine) bool {
	ex := v.Excluded()
	return func(m *Machine) bool { return !slices.Contains(ex, m.Ref) }
}

// Usable keeps servers that are not unavailable (failed).
func Usable(m *Machine) bool { return m.Usable() }

// Powered keeps servers that are booting, idle or active.
func Powered(m *Machine) bool { return m.Powered() }

// Keys for MinBy on ledger machines.

// PoweredFirst ranks powered servers before inactive ones.
func PoweredFirst(m *Machine) float64 {
	if m.Powered() {
		return 0
	}
	return 1
}

// ByRatePerCore ranks by the type's hourly rate per core.
func ByRatePerCore(m *Machine) float64 { return m.RatePerCore() }

// ByHourlyRate ranks by the type's hourly rate.
func ByHourlyRate(m *Machine) float64 { return m.Type.HourlyRate }

// Tests on GETS records.

// RecordNotExcluded keeps records of servers that did not refuse the job.
func RecordNotExcluded(v View) func(protocol.Server) bool {
	ex := v.Excluded()
	return func(s protocol.Server) bool { return !slices.Contains(ex, s.Ref()) }
}

// RecordUsable keeps records of servers that are not unavailable.
func RecordUsable(s protocol.Server) bool { return s.State != protocol.Unavailable }

// RecordPowered keeps records of booting, idle and active servers.
func RecordPowered(s protocol.Server) bool {
	return s.State == protocol.Booting || s.State == protocol.Idle || s.State == protocol.Active
}
