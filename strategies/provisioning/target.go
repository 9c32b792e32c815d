package provisioning

import (
	"math"

	"github.com/dssim-go/dssim-go/strategies"
)

func pow2(x float64) float64 { return math.Exp2(x) }

// workload is W_s (B.2.1): for every running job cores × max(0, κ·est −
// (now − start)), for every waiting job and every job in the global queue
// cores × κ·est, over all servers; extra is the job on offer, if any,
// which is waiting too.
func workload(l *strategies.Ledger, now int, kappa float64) float64 {
	w := 0.0
	for i := range l.Machines() {
		m := &l.Machines()[i]
		for _, r := range m.Running {
			w += float64(r.Job.Cores) * math.Max(0, kappa*float64(r.Job.EstRunTime)-float64(now-r.Start))
		}
		for _, r := range m.Waiting {
			w += float64(r.Job.Cores) * kappa * float64(r.Job.EstRunTime)
		}
	}
	for _, q := range l.Queue() {
		if j, ok := l.Job(q.ID); ok {
			w += float64(j.Cores) * kappa * float64(j.EstRunTime)
		}
	}
	if j, ok := l.Offered(); ok {
		w += float64(j.Cores) * kappa * float64(j.EstRunTime)
	}
	return w
}

// requiredCores is B.3's V = ⌈(W + A)/(H·u_max)⌉ (before clamping).
func requiredCores(w, a float64, h int, umax float64) int {
	return int(math.Ceil((w + a) / (float64(h) * umax)))
}

// totalCores is the capacity of every usable server.
func totalCores(l *strategies.Ledger) int {
	n := 0
	for i := range l.Machines() {
		if m := &l.Machines()[i]; m.Usable() {
			n += m.Type.Cores
		}
	}
	return n
}

// prices are the cost figures B.5 needs: the cheapest rate per core and
// c_max, the highest hourly rate (over every type: the project's reading
// of "capable types" for a reference job that any type can hold).
func prices(l *strategies.Ledger) (ratePerCore, cmax float64) {
	ratePerCore = math.Inf(1)
	for _, t := range l.System().Types() {
		ratePerCore = math.Min(ratePerCore, t.CostPerCore())
		cmax = math.Max(cmax, t.HourlyRate)
	}
	if math.IsInf(ratePerCore, 1) {
		ratePerCore = 0
	}
	return ratePerCore, cmax
}

// computeTarget is V_s in cores for the configured target, clamped to
// [p_min, total cores].
func (p *prov) computeTarget(l *strategies.Ledger, now int) int {
	total := totalCores(l)
	if p.cfg.target == targetNone {
		return min(p.cfg.pmin, total)
	}
	h := p.horizon()
	w := workload(l, now, p.cfg.kappa)
	a := p.lambda.v * float64(h)
	v := requiredCores(w, a, h, p.cfg.umax)
	if p.cfg.target != targetThr && len(p.seen) > 0 {
		v = p.planTarget(l, w, a, h, total)
	}
	return max(p.cfg.pmin, min(v, total))
}

// planTarget is fluidplan's and costdp's V := q·c̄ (B.5), in reference
// jobs and servers: c̄ mean cores per job, x̄ = κ × mean est.
func (p *prov) planTarget(l *strategies.Ledger, w, a float64, h, total int) int {
	n := float64(len(p.seen))
	// The reference job and λ̂ on a 1 % grid: plans that agree to 1 % are
	// the same plan, so a steady epoch reuses the last epoch's DP tables.
	cbar := quantize(p.coreSum / n)
	xbar := quantize(math.Max(1, p.cfg.kappa*p.estSum/n))
	lambda := quantize(p.lambda.v)
	rpc, cmax := prices(l)
	omega := p.cfg.omega
	if omega < 0 {
		omega = cmax / 3600
	}
	dt := float64(p.cfg.dt)
	pr := plan{
		n0:    math.Min(math.Round(w/(cbar*xbar)), float64(p.cfg.n)),
		p0:    float64(l.PoweredCores()) / cbar,
		arr:   lambda / (cbar * xbar) * dt,
		pc:    1 - math.Exp(-dt/xbar),
		qmin:  int(math.Ceil(float64(p.cfg.pmin) / cbar)),
		qmax:  int(math.Floor(float64(total) / cbar)),
		cq:    cbar * rpc * dt / 3600,
		wait:  omega * dt,
		churn: cbar * rpc * float64(l.System().QuickestBoot()) / 3600,
		term:  xbar * cmax / 3600,
		gQ:    (math.Floor(float64(total)/cbar)*cbar*float64(h)*p.cfg.umax - a) / (cbar * xbar),
		k:     p.cfg.k, cap: p.cfg.n, ntarget: p.cfg.ntarget,
	}
	if pr.qmax < pr.qmin {
		pr.qmax = pr.qmin
	}
	var q int
	switch raw := w / (cbar * xbar); {
	case p.cfg.target == targetFluid:
		q = pr.fluid()
	case raw >= pr.gQ || raw >= float64(p.cfg.n):
		// (4.14)'s forced branch, judged on the backlog before the cap N: at
		// or past N the DP cannot see how deep the backlog is (every state
		// above N is N), so the plan is blind there and takes Q as well.
		q = pr.qmax
	default:
		pr.mono = p.cfg.target == targetCostMono
		if p.cfg.target == targetCostNoM {
			pr.churn = 0
		}
		q = p.dp.solve(&pr)
	}
	return int(math.Ceil(float64(q) * cbar))
}

// quantize rounds x > 0 to a grid of 1 % steps (0 stays 0).
func quantize(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return math.Exp(math.Round(math.Log(x)*100) / 100)
}
