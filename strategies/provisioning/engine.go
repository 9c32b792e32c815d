package provisioning

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// prov is the engine every strategy of the package runs.
type prov struct {
	strategies.WithLedger
	name string
	cfg  config

	// Epochs and forecasts (B.2.1).
	nextEpoch int     // index k of the next epoch boundary k·Δt not yet processed
	lastEpoch int     // time of the last processed epoch; -1 before the first
	lambda    ewma    // λ̂, core-seconds per second
	sampleCS  float64 // core-seconds (cores × κ·est) first offered since the last epoch
	ests      []int   // every estimate seen, sorted (H's P90)
	coreSum   float64 // Σ cores and Σ est of the jobs seen (the reference job)
	estSum    float64
	seen      map[int]bool
	recent    []int // cores of the last 100 offered jobs (p̂), a ring
	recentAt  int
	target    int // V_s, cores
	dp        dpScratch

	// Queue-or-boot (B.6): servers booted for overflow, with their boot time.
	overflow map[protocol.ServerRef]int

	st stats

	// What Outcome needs to count the action it reports.
	pendingBoot bool
	pendingIdle int
	pendingTerm []int
}

func newProv(name string, cfg config) *prov {
	return &prov{name: name, cfg: cfg, lastEpoch: -1, seen: map[int]bool{},
		overflow: map[protocol.ServerRef]int{}, target: cfg.pmin, st: stats{lastT: -1}}
}

// see records a job the first time it is offered: the λ̂ sample, the
// estimates' P90, the reference job and p̂'s window.
func (p *prov) see(j protocol.Job) {
	if p.seen[j.ID] {
		return
	}
	p.seen[j.ID] = true
	p.sampleCS += float64(j.Cores) * p.cfg.kappa * float64(j.EstRunTime)
	p.ests = insertSorted(p.ests, j.EstRunTime)
	p.coreSum += float64(j.Cores)
	p.estSum += float64(j.EstRunTime)
	if len(p.recent) < recentWindow {
		p.recent = append(p.recent, j.Cores)
	} else {
		p.recent[p.recentAt] = j.Cores
		p.recentAt = (p.recentAt + 1) % recentWindow
	}
}

// recentWindow is B.6's "last 100 offered jobs" for p̂.
const recentWindow = 100

func insertSorted(s []int, v int) []int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := (lo + hi) / 2
		if s[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	s = append(s, 0)
	copy(s[lo+1:], s[lo:])
	s[lo] = v
	return s
}

// horizon is H: the parameter, or max(Δt, 2 × P90 of est seen so far).
func (p *prov) horizon() int {
	if p.cfg.horizon > 0 {
		return p.cfg.horizon
	}
	return autoHorizon(p.cfg.dt, p.ests)
}

// autoHorizon is max(Δt, 2 × P90) with the nearest-rank P90 of sorted ests.
func autoHorizon(dt int, sorted []int) int {
	if len(sorted) == 0 {
		return dt
	}
	i := (9*len(sorted)+9)/10 - 1 // ⌈0.9·n⌉ − 1
	return max(dt, 2*sorted[i])
}

// tick processes an epoch if the event's time has reached the next
// boundary (B.2.1: the first event at or after k·Δt; several passed
// boundaries make one epoch). It also integrates powered cores over time.
func (p *prov) tick(l *strategies.Ledger, now int) {
	p.st.integrate(now, l.PoweredCores())
	if now < p.nextEpoch*p.cfg.dt {
		return
	}
	if p.lastEpoch >= 0 && now > p.lastEpoch {
		p.lambda.update(p.sampleCS/float64(now-p.lastEpoch), float64(now-p.lastEpoch), float64(p.horizon()))
		p.sampleCS = 0
	}
	p.lastEpoch = now
	p.nextEpoch = now/p.cfg.dt + 1
	p.target = p.computeTarget(l, now)
	p.st.epoch(now, l.PoweredCores(), p.target)
}

// ewma is λ̂ (B.2.1): λ̂ ← λ̂ + (1 − 2^{−Δ/H})·(x − λ̂), the first sample
// initialising it.
type ewma struct {
	v    float64
	init bool
}

func (e *ewma) update(x, elapsed, half float64) {
	if !e.init {
		e.v, e.init = x, true
		return
	}
	e.v += (1 - pow2(-elapsed/half)) * (x - e.v)
}
