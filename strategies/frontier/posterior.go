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
// instead (about 0.01 of TAT ratio at equal cost, the study, docs/frontier-study.md).
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

	// Before minFit completions (see early): the estimates of the jobs
	// offered so far, by bin, stand in for the prior.
	ests           [nBins]float64
	sumEst         [nBins]float64
	offers         int
	freshEarly     int  // offers since the early tables were built
	early          bool // the tables hold the estimates' prior (see early)
	estimatesPrior bool // the estimates' prior may be used (frontier's prior setting)
}

const (
	binsPerDoubling = 8
	nBins           = 32 * binsPerDoubling // up to 2^32 s
	minFit          = 64                   // completions before the model is trusted
	quarterSlack    = 0.08                 // each quarter of est/act within 0.25 ± this
	strayShare      = 0.02                 // est/act ≥ 2 happens only by rounding
)

// Early: a run of few jobs (the generated corpus's tiny and small
// classes, 20–200 jobs) never reaches minFit completions, and in any run
// the first decisions come before it does. Until then the learned ratio
// predicted, and it expects a running job that has outrun its stretched
// estimate to end within half its estimate: on a tiny overloaded cluster
// a job of estimate 207 s that had run 969 s was expected to end within
// 103 s, and four jobs queued behind it for 1,200–1,600 s (it ran 2,625
// s). What is known from the first offers is the estimates, and
// ds-sim's model says how they blur the runtimes (est uniform on [1,
// 2·act − 1] given act): so, until minFit completions are in and while
// no completion contradicts the model (see contradicted), the posterior
// predicts with a prior of runtimes deconvolved from the estimates offered
// so far (see deconvolve), which the first completions, the short jobs',
// would bias. Once minFit completions are in, the model is checked as
// before and the Kaplan–Meier prior (or the learned ratio) takes over.
// Measured on the generated corpus (the study, docs/frontier-study.md): the cost preset's TAT + 0.18
// × cost −0.021 ± 0.009 per config on its development part, −0.025 ±
// 0.012 on the held-out part; balanced and turnaround showed no effect to
// rely on and keep the learned ratio (frontier's prior setting).
const minOffers = 8 // estimates before they make a prior

// usable tells whether the posterior predicts: the model checked on
// minFit completions (ready), or, before them, the estimates' prior (early).
func (p *posterior) usable() bool { return p.ready || p.early }

// offered learns the estimate of a job offered for the first time, and
// rebuilds the early tables every so often (every 4 offers at first, then
// every eighth of the offers so far: each early offer moves the prior).
func (p *posterior) offered(est int) {
	est = max(est, 1)
	b := binOf(float64(est))
	p.ests[b]++
	p.sumEst[b] += float64(est)
	p.offers++
	if p.freshEarly++; p.estimatesPrior && !p.ready && p.n < minFit && p.freshEarly >= max(4, p.offers/8) {
		p.refreshEarly()
	}
}

// contradicted tells whether the completions so far rule ds-sim's
// estimate model out, as far as so few can: est/act at 2 or more, which
// the model never gives (est ≤ 2·act − 1), for more than one completion
// and at least strayShare of them, or a quarter of [0, 2) holding a share
// further from 0.25 than three binomial standard deviations (with 8
// completions, 0.71: exact estimates put every one in [1, 1.5)).
func (p *posterior) contradicted() bool {
	if p.n == 0 {
		return false
	}
	n := float64(p.n)
	if s := float64(p.quarter[4]); s > 1 && s/n >= strayShare {
		return true
	}
	band := 3 * math.Sqrt(0.25*0.75/n)
	for _, q := range p.quarter[:4] {
		if math.Abs(float64(q)/n-0.25) > band {
			return true
		}
	}
	return false
}

// refreshEarly rebuilds the tables from the estimates offered, while
// fewer than minFit completions are in and none contradicts the model.
func (p *posterior) refreshEarly() {
	p.freshEarly = 0
	p.early = p.estimatesPrior && p.offers >= minOffers && !p.contradicted()
	if !p.early {
		return
	}
	var mass [nBins]float64
	p.deconvolve(&mass)
	p.tails(&mass)
}

// emRounds is how many expectation-maximisation rounds deconvolve runs.
const emRounds = 40

// deconvolve sets the prior of runtimes (mass, and each bin's
// representative) that best explains the estimates offered under ds-sim's
// model, by expectation maximisation: a runtime a gives each estimate of
// [1, 2a − 1] the likelihood 1/(2a), so each round spreads every
// estimate's count over the runtimes it could have come from, in
// proportion to prior × likelihood, and the prior becomes their sum. The
// runtimes considered reach a doubling beyond the estimates both ways (a
// runtime is at least half its estimate; one far above every estimate
// would have given larger ones). The histogram of the estimates itself
// as the prior, wider than the runtimes' (an estimate spreads its runtime
// over a factor of 2 either way), was measured too, and was not better
// (the study, docs/frontier-study.md).
func (p *posterior) deconvolve(mass *[nBins]float64) {
	lo, hi := -1, -1
	for b := range nBins {
		if p.ests[b] > 0 {
			if lo < 0 {
				lo = b
			}
			hi = b
		}
	}
	alo, ahi := max(0, lo-binsPerDoubling), min(nBins-1, hi+binsPerDoubling)
	for b := range nBins {
		p.rep[b], mass[b] = 0, 0
	}
	for a := alo; a <= ahi; a++ {
		p.rep[a] = math.Exp2((float64(a) + 0.5) / binsPerDoubling) // the bin's middle on a log scale
		mass[a] = 1 / float64(ahi-alo+1)
	}
	var next [nBins]float64
	for range emRounds {
		clear(next[alo : ahi+1])
		for e := lo; e <= hi; e++ {
			if p.ests[e] > 0 {
				p.spread(mass, &next, p.sumEst[e]/p.ests[e], p.ests[e], alo, ahi)
			}
		}
		total := 0.0
		for a := alo; a <= ahi; a++ {
			total += next[a]
		}
		if total == 0 { // no runtime explains an estimate: cannot happen with the support above
			return
		}
		for a := alo; a <= ahi; a++ {
			mass[a] = next[a] / total
		}
	}
}

// spread adds count estimates est to next, over the runtimes a of
// [alo, ahi] that could have given it, in proportion to mass × 1/(2a).
func (p *posterior) spread(mass, next *[nBins]float64, est, count float64, alo, ahi int) {
	sum := 0.0
	for a := alo; a <= ahi; a++ {
		if est <= 2*p.rep[a]-1 {
			sum += mass[a] / p.rep[a]
		}
	}
	if sum == 0 {
		return
	}
	for a := alo; a <= ahi; a++ {
		if est <= 2*p.rep[a]-1 {
			next[a] += count * mass[a] / p.rep[a] / sum
		}
	}
}

// tails sums the tables' tails from each bin's mass and representative.
func (p *posterior) tails(mass *[nBins]float64) {
	p.tailP[nBins], p.tailW[nBins] = 0, 0
	for b := nBins - 1; b >= 0; b-- {
		p.tailP[b], p.tailW[b] = p.tailP[b+1], p.tailW[b+1]
		if mass[b] > 0 && p.rep[b] > 0 {
			p.tailP[b] += mass[b]
			p.tailW[b] += mass[b] / p.rep[b]
		}
	}
}

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
	if p.early && p.contradicted() {
		p.early = false // back to the learned ratio at once
	}
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
		if p.n < minFit {
			p.refreshEarly()
		} else {
			p.early = false // checked on minFit completions, and failed: the learned ratio
		}
		return
	}
	p.early = false
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
	p.tails(&mass)
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
