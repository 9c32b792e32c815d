package frontier

import (
	"math"

	"github.com/dssim-go/dssim-go/strategies"
)

// posterior predicts a job's actual runtime from its estimate the way
// ds-sim's generator makes estimates (job-generation.md §5.4): err is
// drawn uniformly below act and est = act − err or act + err, so given
// act, est takes every value of [1, 2act−1] with probability 1/(2act),
// except est = act itself (err = 0 either way), which has 1/act. Then, for
// a prior density π(a) of actual runtimes, the posterior of act given est
// is
//
//	p(a | est) ∝ π(a) / a   for a ≥ (est+1)/2
//
// (with twice the weight at a = est exactly, a single second among
// thousands: frontier leaves it out),
// and a running job that has already run e seconds only raises that lower
// bound: given est and act > e, act follows the same tilted prior π(a)/a
// from max(e+1, (est+1)/2) up. One table of that tilted prior therefore
// answers every question frontier asks: the expected runtime of a job
// waiting (its mean from (est+1)/2), the expected end of a running one
// (its mean from the larger bound), and the billed time a job adds (the
// expected excess of its runtime over a bound, see excess).
//
// What this buys over a single learned ratio: the ratio a job's estimate
// should be stretched by depends on the estimate. A 10 s estimate is most
// likely an instant job but may be a 300 s one (with the job types of the
// shared configs — 20 % of 1–30 s, 50 % of 31–300 s, the rest longer —
// the formula gives an expected 53 s, about 5×), a 5,000 s estimate
// cannot hide less than 2,500 s; and a job that overruns its estimate is
// expected to run on by what jobs that long run, not by a fixed fraction
// of the estimate. Measured as a bound: with estimates made exact (est =
// act in every job list), balanced's cost ratio falls from 1.18 to 1.11 on
// the 18 configs. The posterior took most of its gain in turnaround
// instead (about 0.01 of TAT ratio at equal cost, README).
//
// The prior is learned online, by the Kaplan–Meier estimate over the
// completed jobs' actual runtimes, with the running jobs as censored
// observations (a job still running at e seconds has act > e): long jobs
// complete last, and the plain histogram of completions would miss them
// early in a run. It is held in logarithmic bins (binsPerDoubling per
// doubling), each represented by the mean of the runtimes completed in it.
//
// The model is checked, not assumed: estimates from another source (an
// SWF trace's requested times, for example, which are rarely below the
// actual runtime) do not follow est/act ~ U(0, 2). Until the completed
// jobs' est/act falls in the four quarters of [0, 2) within quarterSlack
// of a quarter each, with fewer than strayShare at 2 or above, over at
// least minFit completions, posterior is not ready and frontier keeps the
// learned ratio (see ratios).
type posterior struct {
	events  [nBins]float64 // completions by actual runtime
	sumAct  [nBins]float64 // their runtimes, for each bin's representative
	quarter [5]int         // completions by est/act: [0,.5) [.5,1) [1,1.5) [1.5,2) [2,∞)
	n       int            // completions
	fresh   int            // completions since the tables were refreshed

	rep   [nBins]float64     // a bin's representative runtime
	tailP [nBins + 1]float64 // Σ_{j≥b} mass_j, the prior's survival
	tailW [nBins + 1]float64 // Σ_{j≥b} mass_j / rep_j, the tilted prior's
	ready bool
}

const (
	binsPerDoubling = 8
	nBins           = 32 * binsPerDoubling // up to 2^32 s
	minFit          = 64                   // completions before the model is trusted
	quarterSlack    = 0.08                 // each quarter of est/act within 0.25 ± this
	strayShare      = 0.02                 // est/act ≥ 2 happens only by rounding
)

// refreshEvery is how many completions pass between refreshes of the
// tables (more often early, when each completion changes the prior more).
func (p *posterior) refreshEvery() int {
	if p.n < 512 {
		return 16
	}
	return 64
}

// binOf is ⌊binsPerDoubling · log₂ x⌋, clipped to the bins, from the
// exponent and a scan of the mantissa against the bin edges within one
// doubling: forecasts call it for every job on every server scored, and
// math.Log2 was a tenth of the scale benchmark's time.
func binOf(x float64) int {
	if x < 1 {
		return 0
	}
	frac, exp := math.Frexp(x) // x = frac · 2^exp, frac in [0.5, 1)
	m, k := 2*frac, 0          // m in [1, 2)
	for k+1 < binsPerDoubling && m >= edgeWithin[k+1] {
		k++
	}
	return min(nBins-1, binsPerDoubling*(exp-1)+k)
}

// edgeWithin[k] is 2^(k/binsPerDoubling): where bin k of a doubling starts.
var edgeWithin = func() (e [binsPerDoubling]float64) {
	for k := range e {
		e[k] = math.Exp2(float64(k) / binsPerDoubling)
	}
	return e
}()

// add learns one completion.
func (p *posterior) add(act, est int) {
	act, est = max(act, 1), max(est, 1)
	b := binOf(float64(act))
	p.events[b]++
	p.sumAct[b] += float64(act)
	p.quarter[min(4, 2*est/act)]++ // est/act in quarters of [0, 2): ⌊2·est/act⌋
	p.n++
	p.fresh++
}

// due tells whether the tables should be refreshed now.
func (p *posterior) due() bool { return p.fresh >= p.refreshEvery() }

// fits checks the generator's model on the completions so far.
func (p *posterior) fits() bool {
	if p.n < minFit {
		return false
	}
	n := float64(p.n)
	for _, q := range p.quarter[:4] {
		if math.Abs(float64(q)/n-0.25) > quarterSlack {
			return false
		}
	}
	return float64(p.quarter[4])/n < strayShare
}

// refresh rebuilds the tables from the completions and the jobs running
// on the powered servers (censored at their elapsed time).
func (p *posterior) refresh(now int, powered []*strategies.Machine) {
	p.fresh = 0
	p.ready = p.fits()
	if !p.ready {
		return
	}
	var censored [nBins]float64 // running jobs by elapsed time
	var longest [nBins]float64  // the longest elapsed time in each bin
	for _, m := range powered {
		if !m.Powered() {
			continue
		}
		for _, r := range m.Running {
			e := float64(now - r.Start)
			if e < 1 {
				continue
			}
			b := binOf(e)
			censored[b]++
			longest[b] = max(longest[b], e)
		}
	}
	// Kaplan–Meier over the bins: a bin's hazard is its completions over
	// those at risk (completed or running at least that long).
	var atRisk [nBins + 1]float64
	for b := nBins - 1; b >= 0; b-- {
		atRisk[b] = atRisk[b+1] + p.events[b] + censored[b]
	}
	var mass [nBins]float64
	surv, lastCensored := 1.0, -1
	for b := range nBins {
		if censored[b] > 0 {
			lastCensored = b
		}
		if p.events[b] == 0 || atRisk[b] == 0 {
			continue
		}
		h := p.events[b] / atRisk[b]
		mass[b] = surv * h
		surv *= 1 - h
	}
	for b := range nBins {
		p.rep[b] = 0
		if p.events[b] > 0 {
			p.rep[b] = p.sumAct[b] / p.events[b]
		}
	}
	// What survives every completed runtime ran longer than anything that
	// completed at or after its time: it sits a quarter past the longest
	// running job, in a bin of its own (no completion is that long: the
	// hazard of a bin beyond every censored one is 1, so nothing would
	// survive it), where from() finds it.
	if surv > 1e-9 && lastCensored >= 0 {
		v := longest[lastCensored] * 1.25
		b := binOf(v)
		p.rep[b] = v
		mass[b] += surv
	}
	p.tailP[nBins], p.tailW[nBins] = 0, 0
	for b := nBins - 1; b >= 0; b-- {
		p.tailP[b], p.tailW[b] = p.tailP[b+1], p.tailW[b+1]
		if mass[b] > 0 && p.rep[b] > 0 {
			p.tailP[b] += mass[b]
			p.tailW[b] += mass[b] / p.rep[b]
		}
	}
}

// from is the first bin whose representative is at least lo: a bin that
// straddles lo is kept or dropped whole (so mean and excess are exact for
// the binned prior, to within a bin's width, 9 %, of the true one).
func (p *posterior) from(lo float64) int {
	b := binOf(lo)
	if p.rep[b] < lo {
		b++
	}
	return b
}

// mean is the expected actual runtime given act ≥ lo (lo from the estimate,
// and from the time already run).
func (p *posterior) mean(lo float64) int {
	b := p.from(lo)
	if b >= nBins || p.tailW[b] == 0 { // longer than anything seen: a quarter more
		return int(math.Ceil(lo * 1.25))
	}
	return max(int(math.Ceil(lo)), int(math.Ceil(p.tailP[b]/p.tailW[b])))
}

// lower is the bound the estimate puts on act: est ≤ 2act − 1.
func lower(est int) float64 { return float64(est+1) / 2 }

// excess is E[(act − c)⁺ | act ≥ lo]: how far a job's runtime is expected
// to run past c (exact for the binned prior: the tilted tail sums give it
// in closed form).
func (p *posterior) excess(lo, c float64) float64 {
	j := p.from(lo)
	if j >= nBins || p.tailW[j] == 0 {
		return max(0, lo*1.25-c)
	}
	k := j
	if c > lo {
		k = max(j, p.from(c))
	}
	if k >= nBins {
		return 0
	}
	return max(0, (p.tailP[k]-c*p.tailW[k])/p.tailW[j])
}
