package estimator

import "math"

// Paper is the corrected Algorithm 1 of estimation.md B.1 ("paper mode"):
// per group only E and α; on success E ← E'/α (line 9, literal: the
// rounded E', erratum E1); on failure E ← min(E'·α, R), α ← max(α^β, 1),
// E ← E/α (lines 11–13 with the clamp of E3 and line 13 corrected, E2).
// It is the sequential model of the paper; the sgme strategy uses Online.
// Dispatches and outcomes are separate calls so the tests can show what
// the sequential model does when two jobs of a group are in flight (E6).
type Paper struct {
	Alpha, Beta float64
	Round       Rounder
	// The printed errata, for the tests that show why they are errata:
	// Literal13 uses the failed E' on line 13 (the group then fails for
	// ever, E2); DivideEstimate divides E, not E', on success (the reading
	// E1 rejects: it reaches levels the paper says it never reaches).
	Literal13, DivideEstimate bool

	groups map[Key]*paperGroup
}

type paperGroup struct{ e, a float64 }

// PaperTicket is one dispatch of Paper, handed back with its outcome.
type PaperTicket struct {
	key Key
	r   float64
	// Alloc is E', the amount the job was dispatched with.
	Alloc float64
}

// State returns a group's E and α (ok false for an unknown group).
func (p *Paper) State(k Key) (e, alpha float64, ok bool) {
	g, ok := p.groups[k]
	if !ok {
		return 0, 0, false
	}
	return g.e, g.a, true
}

// Dispatch is lines 3–7: find or create the group and return E'.
func (p *Paper) Dispatch(k Key, r float64) PaperTicket {
	if p.groups == nil {
		p.groups = map[Key]*paperGroup{}
	}
	g, ok := p.groups[k]
	if !ok {
		g = &paperGroup{e: r, a: p.Alpha}
		p.groups[k] = g
	}
	return PaperTicket{key: k, r: r, Alloc: p.Round.RoundUp(math.Min(g.e, r), r)}
}

// Outcome is lines 8–14 for one dispatch.
func (p *Paper) Outcome(t PaperTicket, ok bool) {
	g := p.groups[t.key]
	if ok {
		if p.DivideEstimate {
			g.e /= g.a
		} else {
			g.e = t.Alloc / g.a
		}
		return
	}
	g.e = math.Min(t.Alloc*g.a, t.r)
	g.a = math.Max(math.Pow(g.a, p.Beta), 1)
	if p.Literal13 {
		g.e = t.Alloc / g.a
	} else {
		g.e /= g.a
	}
}
