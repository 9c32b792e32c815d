// Package servertypes describes the server types of a ds-sim system as a
// client sees them: read from the ds-system.xml that ds-server writes at AUTH
// or, when no such file is available, derived from a GETS All reply.
//
// Two orders matter (docs/baselines.md): file order, the
// order of the <server> lines, and sorted order, the types stably sorted by
// core count ascending. ds-server writes the file already sorted, so the two
// coincide unless a user hand-edits the file.
package servertypes

import (
	"fmt"
	"math"
	"sort"

	"github.com/dssim-go/dssim-go/protocol"
)

// Type is one server type.
type Type struct {
	Name       string
	Limit      int // number of servers; ids 0 .. Limit-1
	BootupTime int // seconds
	HourlyRate float64
	Cores      int
	Memory     int
	Disk       int
}

// Capable reports whether the type's capacity covers the requirement.
func (t Type) Capable(r protocol.Requirement) bool { return r.Fits(t.Cores, t.Memory, t.Disk) }

// CostPerCore is the hourly rate divided by the core count.
func (t Type) CostPerCore() float64 { return t.HourlyRate / float64(t.Cores) }

// System is the list of server types, in file order.
type System struct {
	types  []Type
	sorted []Type
	index  map[string]int
	// Source says where the description came from ("ds-system.xml", a path,
	// or "GETS All"); used in messages.
	Source string
}

// New builds a System from types in file order. Names must be unique and
// limits and capacities positive.
func New(source string, types []Type) (*System, error) {
	if len(types) == 0 {
		return nil, fmt.Errorf("%s: no server types", source)
	}
	s := &System{types: append([]Type(nil), types...), index: make(map[string]int, len(types)), Source: source}
	for i, t := range s.types {
		if t.Name == "" {
			return nil, fmt.Errorf("%s: server type %d has no name", source, i+1)
		}
		if _, dup := s.index[t.Name]; dup {
			return nil, fmt.Errorf("%s: server type %q listed twice", source, t.Name)
		}
		if t.Limit < 1 || t.Cores < 1 || t.Memory < 0 || t.Disk < 0 {
			return nil, fmt.Errorf("%s: server type %q: limit and cores must be positive, memory and disk non-negative", source, t.Name)
		}
		s.index[t.Name] = i
	}
	s.sorted = append([]Type(nil), s.types...)
	sort.SliceStable(s.sorted, func(i, j int) bool { return s.sorted[i].Cores < s.sorted[j].Cores })
	return s, nil
}

// Types returns the types in file order. The slice must not be modified.
func (s *System) Types() []Type { return s.types }

// Sorted returns the types stably sorted by cores ascending. The slice must
// not be modified.
func (s *System) Sorted() []Type { return s.sorted }

// Lookup returns the type with the given name.
func (s *System) Lookup(name string) (Type, bool) {
	i, ok := s.index[name]
	if !ok {
		return Type{}, false
	}
	return s.types[i], true
}

// Largest returns the reference client's largest type: the first type in
// file order with the maximum core count (a later type with equal cores
// never replaces it; baselines.md §2.4). ds-server's own notion differs (the
// last such type), which is why this is named for the client.
func (s *System) Largest() Type {
	best := s.types[0]
	for _, t := range s.types[1:] {
		if t.Cores > best.Cores {
			best = t
		}
	}
	return best
}

// QuickestBoot is the shortest bootupTime of any type (0 for a system
// without types, or with a negative boot time).
func (s *System) QuickestBoot() int {
	q := -1
	for _, t := range s.types {
		if q < 0 || t.BootupTime < q {
			q = t.BootupTime
		}
	}
	return max(q, 0)
}

// UnpricedPerCore is what CheapestPerCore returns when no type has a rate
// above 0: 1 per core-hour, a unit, not a price.
const UnpricedPerCore = 1.0

// CheapestPerCore is the lowest hourly rate per core among the types
// whose rate is above 0 (and finite): what a strategy that weighs delay
// against cost prices a core-hour of delay at. A rate of 0 or below says
// nothing of the price: a System from GETS All has no rates (FromServers),
// ds-system.xml prints a rate below 0.005 as 0.00 (ds-server.md §1.7), and
// ds-server accepts negative rates (§2.3). With no rate above 0 it is
// UnpricedPerCore, so that delay keeps a positive price: with every rate
// 0, a price of 0 made every delay free, every score tie and the jobs
// queue on one server; with a positive price delay alone decides.
func (s *System) CheapestPerCore() float64 {
	best := math.Inf(1)
	for _, t := range s.types {
		if r := t.CostPerCore(); r > 0 && r < best {
			best = r
		}
	}
	if math.IsInf(best, 1) {
		return UnpricedPerCore
	}
	return best
}

// TotalServers is the number of servers over all types.
func (s *System) TotalServers() int {
	n := 0
	for _, t := range s.types {
		n += t.Limit
	}
	return n
}
