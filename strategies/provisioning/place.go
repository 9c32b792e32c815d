package provisioning

import (
	"math"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// Job places the offered job: B.3's placement for thr, fluidplan and
// costdp; B.6's queue-or-boot rule for bestpack-boot; B.7's gated form of
// it for provision.
func (p *prov) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	l := v.Ledger()
	if err := l.ResyncIfStale(v); err != nil { // ds-server completed jobs without telling (see Ledger)
		return nil, err
	}
	fresh := !p.seen[job.ID] // a JOBN; a JOBP (or a retry after ERR) is not
	p.see(job)
	p.tick(l, v.Now())
	capable := l.Candidates(strategies.CapableOf(job.Req()), strategies.NotExcluded(v))
	if len(capable) == 0 {
		return nil, strategies.ErrNoServer
	}
	capable = strategies.Filter(capable, strategies.Usable)
	if len(capable) == 0 { // every capable server has failed: wait in GQ (B.3 step 4)
		return []protocol.Action{protocol.Enqueue{}}, nil
	}
	if m, ok := startNow(capable, job.Req()); ok {
		return p.sched(v.Now(), job, m, false), nil
	}
	powered := strategies.Filter(capable, strategies.Powered)
	cand, canBoot := bootCandidate(capable)
	poweredCores := l.PoweredCores()
	switch {
	case canBoot && (len(powered) == 0 || (p.cfg.target != targetNone && poweredCores < p.target)):
		return p.sched(v.Now(), job, cand, true), nil // B.3 step 2 (and B.7's gate)
	case len(powered) == 0:
		return []protocol.Action{protocol.Enqueue{}}, nil
	}
	tq, tqStart := earliest(l, powered, job)
	if p.cfg.bestpack && canBoot && p.bootWorth(l, v.Now(), job, powered, tq, tqStart, cand) {
		p.overflow[cand.Ref] = v.Now()
		return p.sched(v.Now(), job, cand, true), nil
	}
	if p.cfg.gq && fresh {
		return []protocol.Action{protocol.Enqueue{}}, nil
	}
	return p.sched(v.Now(), job, tq, false), nil
}

// sched is SCHD, remembering what Outcome needs to count a boot and the
// idle gap the job ends.
func (p *prov) sched(now int, job protocol.Job, m *strategies.Machine, boot bool) []protocol.Action {
	p.pendingBoot = boot
	p.pendingIdle = idleGap(m, now)
	return strategies.Sched(job, m.Ref)
}

// idleGap is the billed idle time a job placed on m at now ends: the time
// since a booted server last emptied.
func idleGap(m *strategies.Machine, now int) int {
	if m.Empty() && m.IdleSince >= 0 && (m.State == protocol.Idle || m.State == protocol.Active) {
		return max(0, now-m.IdleSince)
	}
	return 0
}

// canStartNow is B.2.3: idle; active with no waiting job and room; or
// booting with room and every waiting job's start known (it then starts at
// the boot completion).
func canStartNow(m *strategies.Machine, r protocol.Requirement) bool {
	if m.StartsNow(r) {
		return true
	}
	if m.State != protocol.Booting || !r.Fits(m.Free.Cores, m.Free.Memory, m.Free.Disk) {
		return false
	}
	for _, w := range m.Waiting {
		if w.Start < 0 {
			return false
		}
	}
	return true
}

// startNow is B.2.3's best fit: smallest availCores − cores, then lower
// hourlyRate, then GETS order.
func startNow(cands []*strategies.Machine, r protocol.Requirement) (*strategies.Machine, bool) {
	ok := strategies.Filter(cands, func(m *strategies.Machine) bool { return canStartNow(m, r) })
	return strategies.MinBy(ok, func(m *strategies.Machine) float64 { return float64(m.Free.Cores - r.Cores) },
		strategies.ByHourlyRate)
}

// bootCandidate is the cheapest capable inactive server: hourlyRate, then
// fewest cores, then GETS order (the lowest inactive id of its type).
func bootCandidate(cands []*strategies.Machine) (*strategies.Machine, bool) {
	off := strategies.Filter(cands, func(m *strategies.Machine) bool { return m.State == protocol.Inactive })
	return strategies.MinBy(off, strategies.ByHourlyRate, func(m *strategies.Machine) float64 { return float64(m.Type.Cores) })
}

// earliest is the powered server where the job would start first (B.2.2);
// ties: lower hourlyRate, then GETS order.
func earliest(l *strategies.Ledger, powered []*strategies.Machine, job protocol.Job) (*strategies.Machine, int) {
	start := func(m *strategies.Machine) float64 {
		s, _ := l.EarliestStart(m, job)
		if s < 0 {
			return math.Inf(1)
		}
		return float64(s)
	}
	m, _ := strategies.MinBy(powered, start, strategies.ByHourlyRate)
	return m, int(start(m))
}

// bootGate is B.6 step 3: never boot for a job with est < b/1.5, in
// integers (3·est < 2·b) so that the D.3 boundary est = 40, b = 60 passes.
func bootGate(est, b int) bool { return 3*est >= 2*b }

// bootWorth is B.6 steps 2–4 once packing failed: queue if the pool frees
// within the boot time or the job is short; else boot iff p̂·c1·q1 > c2·q2.
func (p *prov) bootWorth(l *strategies.Ledger, now int, job protocol.Job, powered []*strategies.Machine,
	tq *strategies.Machine, tqStart int, cand *strategies.Machine) bool {
	b := cand.Type.BootupTime
	if tqStart-now <= b || !bootGate(job.EstRunTime, b) {
		return false
	}
	q1 := 1
	if p.cfg.gq {
		q1 += len(l.Queue())
	} else {
		for _, m := range powered {
			q1 += len(m.Waiting)
		}
	}
	q2 := p.overflowLoad(l, now)
	_, cmax := prices(l)
	c2 := p.cfg.c2
	if c2 < 0 {
		c2 = switchC2(cand.Type.HourlyRate, cmax, p.cfg.omega, job.EstRunTime, b)
	}
	return p.pHat(tq.Free.Cores)*p.cfg.c1*float64(q1) > c2*float64(q2)
}

// switchC2 is B.6's default c2 = (rate_b·(est + b)/3600)/(ω·est), with
// ω = c_max/3600 unless set; 0 when booting costs nothing.
func switchC2(rateB, cmax, omega float64, est, b int) float64 {
	if omega < 0 {
		omega = cmax / 3600
	}
	if rateB == 0 {
		return 0
	}
	if omega == 0 {
		return math.Inf(1)
	}
	e := float64(max(est, 1))
	return (rateB * (e + float64(b)) / 3600) / (omega * e)
}

// overflowLoad is q2: jobs running or waiting on servers booted for
// overflow within the last H.
func (p *prov) overflowLoad(l *strategies.Ledger, now int) int {
	h, q2 := p.horizon(), 0
	for ref, at := range p.overflow {
		m, ok := l.Machine(ref)
		if !ok || now-at > h || !m.Powered() {
			delete(p.overflow, ref)
			continue
		}
		q2 += m.Jobs()
	}
	return q2
}

// pHat is p̂: the share of the last 100 offered jobs narrow enough for the
// fragment (free cores) of the queueing server; 0.5 with no history.
func (p *prov) pHat(free int) float64 {
	if len(p.recent) == 0 {
		return 0.5
	}
	n := 0
	for _, c := range p.recent {
		if c <= free {
			n++
		}
	}
	return float64(n) / float64(len(p.recent))
}
