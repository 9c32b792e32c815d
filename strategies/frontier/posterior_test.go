package frontier

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// Tests of posterior (the prior of actual runtimes learned by Kaplan–Meier,
// tilted by 1/a for a job's estimate) and of ratios' switch to it. Every
// expected value is derived beside it, or computed in the test by a direct
// sum over the prior's atoms, never read from a run.

// addQuarter adds n completions of runtime act whose est/act falls in
// quarter q of [0, 2) (q = 4: at 2 or above): est = ⌊act·(2q+1)/4⌋, the
// middle of the quarter, so ⌊2·est/act⌋ = q for the runtimes used here.
func addQuarter(add func(act, est int), act, q, n int) {
	for range n {
		add(act, act*(2*q+1)/4)
	}
}

// addBalanced adds perQuarter completions of runtime act in each of the
// four quarters: est/act exactly as ds-sim's generator spreads it.
func addBalanced(add func(act, est int), act, perQuarter int) {
	for q := range 4 {
		addQuarter(add, act, q, perQuarter)
	}
}

// atom is one point of the binned prior: a bin's representative runtime
// and its probability.
type atom struct{ rep, mass float64 }

// bruteMean is E[act | act ≥ lo] under the prior tilted by 1/a, by a
// direct sum over the atoms at or above lo.
func bruteMean(atoms []atom, lo float64) float64 {
	var p, w float64
	for _, a := range atoms {
		if a.rep >= lo {
			p += a.mass
			w += a.mass / a.rep
		}
	}
	return p / w
}

// bruteExcess is E[(act − c)⁺ | act ≥ lo] under the tilted prior, by a
// direct sum.
func bruteExcess(atoms []atom, lo, c float64) float64 {
	var num, den float64
	for _, a := range atoms {
		if a.rep >= lo {
			den += a.mass / a.rep
			num += a.mass / a.rep * max(0, a.rep-c)
		}
	}
	return num / den
}

// Bins are binsPerDoubling (8) per doubling of the runtime, from 1 s.
func TestBinOf(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want int
		why  string
	}{
		{0, 0, "below 1 s: the first bin"},
		{0.5, 0, "below 1 s: the first bin"},
		{1, 0, "log2 1 = 0"},
		{2, 8, "one doubling"},
		{3, 12, "⌊8·log2 3⌋ = ⌊12.68⌋"},
		{4, 16, "two doublings"},
		{100, 53, "⌊8·6.644⌋ = ⌊53.15⌋"},
		{104, 53, "⌊8·6.700⌋ = ⌊53.60⌋: the same bin as 100"},
		{1000, 79, "⌊8·9.966⌋ = ⌊79.73⌋"},
		{math.Pow(2, 31.99), 255, "⌊8·31.99⌋: the last bin"},
		{1 << 40, 255, "beyond 2^32 s: clipped to the last bin, 32·8 − 1"},
	} {
		assert.Equal(t, tc.want, binOf(tc.x), "binOf(%g): %s", tc.x, tc.why)
	}
	// binOf avoids math.Log2 (see its comment): it must agree with
	// ⌊8·log2 x⌋ on every whole second up to 2^17 and on a geometric
	// sweep to the top bin, except within rounding of a bin edge.
	check := func(x float64) {
		l := binsPerDoubling * math.Log2(x)
		if math.Abs(l-math.Round(l)) < 1e-9 {
			return
		}
		if !assert.Equal(t, min(nBins-1, int(l)), binOf(x), "binOf(%g)", x) {
			t.FailNow()
		}
	}
	for x := 1; x <= 1<<17; x++ {
		check(float64(x))
	}
	for x := 1.0; x < 1<<33; x *= 1.0137 {
		check(x)
	}
}

// With no job running, Kaplan–Meier is the empirical distribution: half
// the completions at 100 and 104 s (one bin, represented by their mean,
// 102 s), half at 1000 s. The tilted mean from lo is
// Σ_{a≥lo} m_a / Σ_{a≥lo} m_a/a, rounded up.
func TestPosteriorGolden(t *testing.T) {
	var p posterior
	addBalanced(p.add, 100, 4)  // 16 completions
	addBalanced(p.add, 104, 4)  // 16
	addBalanced(p.add, 1000, 8) // 32: 64 in all, 16 per quarter
	p.refresh(0, nil)
	require.True(t, p.ready, "64 completions, est/act a quarter in each quarter")
	atoms := []atom{{102, 0.5}, {1000, 0.5}}

	for _, tc := range []struct {
		lo   float64
		want int
		why  string
	}{
		{1, 186, "both: 1/(½/102 + ½/1000) = 185.12"},
		{50, 186, "below both: the same"},
		{102, 186, "at the lower representative: it still counts"},
		{500, 1000, "between: only 1000 is left"},
		{1000, 1000, "at the upper one"},
		{2000, 2500, "above everything seen: a quarter more than lo"},
		{2001, 2502, "⌈2001·1.25⌉ = ⌈2501.25⌉"},
	} {
		assert.Equal(t, tc.want, p.mean(tc.lo), "mean(%g): %s", tc.lo, tc.why)
		if tc.lo <= 1000 {
			assert.Equal(t, int(math.Ceil(bruteMean(atoms, tc.lo))), p.mean(tc.lo), "mean(%g) against the direct sum", tc.lo)
		}
	}

	// excess against the direct sum, c below, inside and above the atoms
	// (a negative c is an idle gap already billed: the whole runtime and
	// the gap).
	for _, tc := range []struct{ lo, c float64 }{
		{1, 0}, {50, -30}, {50, 50}, {50, 101}, {50, 102}, {50, 500}, {50, 999},
		{50, 1000}, {50, 5000}, {500, 100}, {500, 600}, {1000, 999},
	} {
		assert.InDelta(t, bruteExcess(atoms, tc.lo, tc.c), p.excess(tc.lo, tc.c), 1e-9, "excess(%g, %g)", tc.lo, tc.c)
	}
	// Two by hand: from 50 past 500 only 1000 counts, with tilted weight
	// ½/1000 out of ½/102 + ½/1000, and runs 500 past it; from 500 past 600,
	// 1000 is certain: 400.
	assert.InDelta(t, 500*(0.5/1000)/(0.5/102+0.5/1000), p.excess(50, 500), 1e-9)
	assert.InDelta(t, 400.0, p.excess(500, 600), 1e-9)
	// Above everything seen, the same quarter more than lo as mean.
	assert.InDelta(t, 2400.0, p.excess(2000, 100), 1e-12, "2000·1.25 − 100")
	assert.Zero(t, p.excess(2000, 3000), "past the fallback's end: nothing")
}

// Running jobs are censored observations: a job running for e seconds has
// act > e. Kaplan–Meier over the bins: a bin's hazard is its completions
// over those at risk (completed in it or later, or running at least that
// long).
func TestPosteriorKaplanMeier(t *testing.T) {
	running := func(n, now, elapsed int, st protocol.ServerState) *strategies.Machine {
		m := &strategies.Machine{State: st}
		for i := range n {
			m.Running = append(m.Running, strategies.Placement{Job: jb(100+i, 0, 1, 10), Start: now - elapsed})
		}
		return m
	}

	// Completions all at 10 s, none longer; 16 jobs running for 990 and
	// 1000 s. At risk at 10 s: 64 + 16 = 80, hazard 64/80: mass 0.8 at
	// 10 s, and the 0.2 that survives sits a quarter past the longest
	// running job (1250 s, bin 79 where 990 and 1000 both fall).
	var p posterior
	addBalanced(p.add, 10, 16)
	const now = 5000
	p.refresh(now, []*strategies.Machine{running(8, now, 990, protocol.Active), running(8, now, 1000, protocol.Active)})
	require.True(t, p.ready)
	assert.Equal(t, 1250, p.mean(11), "just past the longest completion: the survivors' mass")
	assert.Equal(t, 1250, p.mean(1001), "a job past the longest running one: the same mass, 1250 ≥ 1001")
	assert.Equal(t, int(math.Ceil(1/(0.8/10+0.2/1250))), p.mean(1), "⌈1/(0.8/10 + 0.2/1250)⌉ = ⌈12.47⌉")
	assert.Equal(t, 13, p.mean(1))
	assert.InDelta(t, 1250-100.0, p.excess(11, 100), 1e-9)

	// Without the running jobs nothing is known past 10 s: the fallback.
	var q posterior
	addBalanced(q.add, 10, 16)
	q.refresh(now, nil)
	assert.Equal(t, 14, q.mean(11), "⌈11·1.25⌉")

	// Censoring between completions moves mass to the later ones: 32 at
	// 10 s, 32 at 1000 s, 16 running for 100 s. At risk at 10 s: 80, hazard
	// 32/80, mass 0.4; at 1000 s: 32, hazard 1, mass 0.6 (the empirical
	// split would be 0.5 / 0.5). Stale placements on a server that is off
	// are not running jobs: they must not count.
	var r posterior
	addBalanced(r.add, 10, 8)
	addBalanced(r.add, 1000, 8)
	r.refresh(now, []*strategies.Machine{running(16, now, 100, protocol.Active), running(5, now, 4000, protocol.Inactive)})
	require.True(t, r.ready)
	assert.Equal(t, 25, r.mean(1), "⌈1/(0.4/10 + 0.6/1000)⌉ = ⌈24.63⌉ (uncensored: ⌈19.80⌉ = 20)")
	assert.Equal(t, 1000, r.mean(11), "nothing survives the last completion: no mass past it")
	assert.InDelta(t, bruteExcess([]atom{{10, 0.4}, {1000, 0.6}}, 1, 5), r.excess(1, 5), 1e-9)

	// The survivors of a bin that also has completions: 32 at 10 s, 32 at
	// 1000 s, 16 running for 1010 s (bin 79 too, [945, 1024)). At 10 s:
	// hazard 32/80, mass 0.4; at bin 79: 32/48, mass 0.6·2/3 = 0.4 at the
	// completions' 1000 s, and the 0.2 that survives sits a quarter past
	// the longest running job, 1262.5 s, in its own bin (82).
	var s posterior
	addBalanced(s.add, 10, 8)
	addBalanced(s.add, 1000, 8)
	s.refresh(now, []*strategies.Machine{running(16, now, 1010, protocol.Active)})
	assert.Equal(t, int(math.Ceil(0.6/(0.4/1000+0.2/1262.5))), s.mean(11), "⌈0.6/(0.4/1000 + 0.2/1262.5)⌉ = ⌈1074.5⌉")
	assert.Equal(t, 1075, s.mean(11))
	assert.InDelta(t, 1/(0.4/10+0.4/1000+0.2/1262.5), s.excess(1, 0), 1e-9)

	// Between the survivors' bin edge and their value: the mass 1.25 past
	// the longest running job must be found by a bound inside that gap
	// (it once stayed in the longest job's bin, 79, so excess(11, 1100)
	// came out 0 and mean(1100) fell back to 1375).
	assert.InDelta(t, 150, p.excess(11, 1100), 1e-9, "1250 − 1100, all the mass past 1100 at 1250")
	assert.Equal(t, 1250, p.mean(1100))

	// A job started this second (elapsed 0) says nothing: act > 0 is
	// known. 64 completions at 10 s and 4 at 1 s (est 1: est/act = 1);
	// 4 jobs started now must not lower the hazard at 1 s: mass 4/68 at
	// 1 s, 64/68 at 10 s.
	var u posterior
	addBalanced(u.add, 10, 16)
	addQuarter(u.add, 1, 2, 4)
	u.refresh(now, []*strategies.Machine{running(4, now, 0, protocol.Active)})
	require.True(t, u.ready)
	assert.InDelta(t, 1/(4.0/68/1+64.0/68/10), u.excess(1, 0), 1e-9, "E[act] from 1 s")
}

// fits checks ds-sim's generator's model: est/act a quarter in each
// quarter of [0, 2) within quarterSlack, fewer than strayShare at 2 or
// above, over at least minFit completions; refresh sets ready from it.
func TestFits(t *testing.T) {
	for _, tc := range []struct {
		counts [5]int // completions per quarter of est/act, the last at ≥ 2
		want   bool
		why    string
	}{
		{[5]int{16, 16, 16, 15, 0}, false, "63 completions: fewer than minFit"},
		{[5]int{16, 16, 16, 16, 0}, true, "64, balanced"},
		{[5]int{0, 0, 32, 32, 0}, false, "an SWF-like stream: est ≥ act always"},
		{[5]int{8, 24, 16, 16, 0}, false, "a quarter at 0.125: off by more than 0.08"},
		{[5]int{34, 22, 22, 22, 0}, false, "0.34: off by 0.09"},
		{[5]int{32, 23, 23, 22, 0}, true, "0.32, 0.23, 0.23, 0.22: each within 0.08"},
		{[5]int{25, 25, 24, 24, 2}, false, "2 % at 2 or above"},
		{[5]int{25, 25, 25, 24, 1}, true, "1 % at 2 or above"},
	} {
		var p posterior
		for q, n := range tc.counts {
			addQuarter(p.add, 100, q, n)
		}
		assert.Equal(t, tc.want, p.fits(), tc.why)
		p.ready = !tc.want // refresh must overwrite it either way
		p.refresh(0, nil)
		assert.Equal(t, tc.want, p.ready, "refresh: %s", tc.why)
	}

	// A model that fitted stops being trusted when the stream stops fitting.
	var p posterior
	addBalanced(p.add, 100, 16)
	p.refresh(0, nil)
	require.True(t, p.ready)
	addQuarter(p.add, 100, 2, 64) // 80 of 128 in [1, 1.5): 0.625
	p.refresh(0, nil)
	assert.False(t, p.ready)
}

// The tables are refreshed every 16 completions, then every 64 from 512.
func TestPosteriorDue(t *testing.T) {
	var p posterior
	addQuarter(p.add, 100, 0, 15)
	assert.False(t, p.due(), "15 completions")
	p.add(100, 10)
	assert.True(t, p.due(), "16")
	p.refresh(0, nil)
	assert.False(t, p.due(), "refreshed")

	var q posterior
	addBalanced(q.add, 100, 128) // 512
	q.refresh(0, nil)
	addQuarter(q.add, 100, 0, 63)
	assert.False(t, q.due(), "63 since the refresh, past 512")
	q.add(100, 10)
	assert.True(t, q.due(), "64")
}

// Before the posterior is ready, ratios predicts from the learned ratio.
func TestExpectEndOfAddedBeforeReady(t *testing.T) {
	r := newRatios()
	r.act, r.est = 2e9, 1e9 // a learned ratio of 2 (the prior is worth nothing beside it)
	require.False(t, r.post.ready)
	assert.Equal(t, 200, r.expect(100), "100 s at ratio 2")
	assert.Equal(t, 200, r.endOf(100, 0, 50), "started at 0: ends at its stretched estimate")
	assert.Equal(t, 350, r.endOf(100, 0, 300), "outran it: half its estimate more from now")
	assert.InDelta(t, 50.0, r.added(100, 0, 150), 1e-12, "no spread: its expected end past the billing, 200 − 150")
	r.spread = [3]float64{0.5, 1, 2}
	assert.InDelta(t, 50.0/3, r.added(100, 0, 150), 1e-12, "ends 50, 100 and 200: only the last extends 150, by 50")
}

// Once the posterior is ready, ratios predicts from it: the prior is half
// at 128 s and half at 8192 s (no job running), and a job's estimate puts
// act at (est+1)/2 or more, the time it has run at elapsed + 1 or more.
func TestExpectEndOfAddedAfterReady(t *testing.T) {
	r := newRatios()
	addBalanced(r.add, 128, 8)
	addBalanced(r.add, 8192, 8)
	// est/act averages 1 over the quarters' middles: the learned ratio is
	// exactly 1 (Σest = Σact), so the fallback is the estimate itself.
	require.InDelta(t, 1.0, r.mean(), 1e-12)
	assert.Equal(t, 300, r.expect(300), "not refreshed yet: the learned ratio")
	r.post.refresh(0, nil)
	require.True(t, r.post.ready)

	both := 1 / (0.5/128 + 0.5/8192) // 252.06: E[act] under the tilted prior
	assert.Equal(t, 253, r.expect(1), "⌈1/(½/128 + ½/8192)⌉")
	assert.Equal(t, 8192, r.expect(300), "act ≥ 150.5: only 8192")
	assert.Equal(t, 12501, r.expect(20000), "act ≥ 10000.5, past all: ⌈10000.5·1.25⌉")

	assert.Equal(t, 1000+253, r.endOf(100, 1000, 1050), "run 50 s: act ≥ 51, both")
	end := r.endOf(100, 1000, 1500)
	assert.Equal(t, 1000+8192, end, "run 500 s, past its estimate: act ≥ 501, only 8192")
	assert.Greater(t, end, 1500)
	end = r.endOf(100, 0, 9000)
	assert.Equal(t, 11252, end, "run past everything seen: ⌈9001·1.25⌉")
	assert.Greater(t, end, 9000)

	assert.InDelta(t, (8192-500)*(0.5/8192)/(0.5/128+0.5/8192), r.added(1, 0, 500), 1e-9,
		"only 8192 runs past 500, with tilted weight ½/8192")
	assert.InDelta(t, 8192.0, r.added(300, 0, 0), 1e-9, "act is 8192: all of it billed")
	assert.InDelta(t, both+10, r.added(1, 100, 90), 1e-9, "billing ended 10 s before the start: the gap and the whole run")
}
