package estimator

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// tol is the tolerance of the level comparisons (B.1: "smallest level ≥
// min(x, R) − 1e-9"), so an estimate that is a level up to floating-point
// noise (8 = 16/2 exactly, 5.657·1.414 ≈ 8) rounds to that level.
const tol = 1e-9

// Rounder turns a group's estimate x into the amount dispatched, E', for a
// job requesting R (the ⌈·⌉ of Algorithm 1, erratum E8: "≥", not ">").
type Rounder interface {
	RoundUp(x, r float64) float64
}

// Levels rounds up to the distinct memory capacities of the server types.
// Paper (B.1, roundUp_paper): the smallest level ≥ min(x, R), else the
// smallest level ≥ R; E' may exceed R (it is a machine size). Clamped
// (B.2, roundUp_clamped): the smallest level ≥ x among the levels ≤ R, or R
// when there is none; E' never exceeds R.
type Levels struct {
	levels []float64 // ascending, distinct
	paper  bool
}

// NewLevels makes a level rounder; the levels need not be sorted or
// distinct, but there must be one, and every level must be positive.
func NewLevels(levels []float64, paper bool) (*Levels, error) {
	if len(levels) == 0 {
		return nil, fmt.Errorf("levels: none given")
	}
	l := slices.Clone(levels)
	slices.Sort(l)
	l = slices.Compact(l)
	if l[0] <= 0 || math.IsInf(l[len(l)-1], 0) || math.IsNaN(l[0]) {
		return nil, fmt.Errorf("levels: %v: every level must be a positive finite number", levels)
	}
	return &Levels{levels: l, paper: paper}, nil
}

// Values returns the levels, ascending.
func (l *Levels) Values() []float64 { return slices.Clone(l.levels) }

// RoundUp implements Rounder.
func (l *Levels) RoundUp(x, r float64) float64 {
	if l.paper {
		if v, ok := l.smallestAtLeast(math.Min(x, r), math.Inf(1)); ok {
			return v
		}
		if v, ok := l.smallestAtLeast(r, math.Inf(1)); ok {
			return v
		}
		return r // no machine holds R: the server refuses it anyway
	}
	if v, ok := l.smallestAtLeast(x, r); ok {
		return v
	}
	return r
}

// smallestAtLeast is the smallest level in [x − tol, hi + tol].
func (l *Levels) smallestAtLeast(x, hi float64) (float64, bool) {
	i, _ := slices.BinarySearchFunc(l.levels, x-tol, cmp.Compare[float64])
	if i < len(l.levels) && l.levels[i] <= hi+tol {
		return l.levels[i], true
	}
	return 0, false
}

// Granularity rounds up to a multiple of G, at least Floor and at most R
// (B.2 roundUp_g, shared mode): ds-sim requests are multiples of 100 MB and
// GETS refuses memory below 100 (ds-server.md §5.3, Part F), hence the
// defaults G = 100, Floor = 100.
type Granularity struct {
	G, Floor float64
}

// RoundUp implements Rounder.
func (g Granularity) RoundUp(x, r float64) float64 {
	v := g.G * math.Ceil(x/g.G-tol)
	return math.Min(r, math.Max(g.Floor, v))
}
