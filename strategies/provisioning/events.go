package provisioning

import (
	"fmt"
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// Event handles everything but offers. On JCPL (B.2.4, B.6 step 5): bring
// a global-queue job back if it can now go somewhere, else MIGJ a blocked
// waiting job onto the freed server, then TERM empty surplus servers. On
// CHKQ, RESF and RESR: DEQJ the head of the global queue once it can go
// somewhere.
func (p *prov) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	l := v.Ledger()
	if err := l.ResyncIfStale(v); err != nil { // ds-server completed jobs without telling (see Ledger)
		return nil, err
	}
	now := v.Now()
	done, isJCPL := ev.(*protocol.JobCompleted)
	if isJCPL {
		p.tick(l, now)
	} else {
		p.st.integrate(now, l.PoweredCores())
	}
	if len(l.Queue()) > 0 {
		// No TERM while jobs wait in GQ: they may want the server. With
		// queue=gq, CHKQ too dequeues only a job that can go somewhere (a
		// dequeued job is always placed, so an early DEQJ would commit it to
		// one server's queue and lose the central FCFS order); CHKQ alternates
		// with JCPL while jobs run, and when nothing runs or waits anywhere
		// the head is dequeued regardless, or the server would answer CHKQ
		// forever. With per-server queues (a job a failure put in GQ) CHKQ
		// dequeues at once: the job joins a server's queue like any other.
		_, chkq := ev.(*protocol.CheckQueue)
		if p.dequeueWorth(l) || chkq && (!p.cfg.gq || idle(l)) {
			return []protocol.Action{protocol.Dequeue{QID: 0}}, nil
		}
		return nil, nil
	}
	var acts []protocol.Action
	var target protocol.ServerRef
	if isJCPL && p.cfg.migrate {
		if mig, ok := migration(l, done.Server); ok {
			acts, target = append(acts, mig), mig.To
		}
	}
	for _, m := range p.surplus(l, now, target) {
		acts = append(acts, protocol.Terminate{Server: m.Ref})
	}
	return acts, nil
}

// idle reports whether no job runs or waits on any server.
func idle(l *strategies.Ledger) bool {
	for i := range l.Machines() {
		if !l.Machines()[i].Empty() {
			return false
		}
	}
	return true
}

// dequeueWorth reports whether the head of the global queue can go
// somewhere now: a server can start it at once, booting is allowed (below
// target) or nothing capable is powered.
func (p *prov) dequeueWorth(l *strategies.Ledger) bool {
	j, ok := l.Job(l.Queue()[0].ID)
	if !ok {
		return true
	}
	capable := l.Candidates(strategies.CapableOf(j.Req()), strategies.Usable)
	if _, ok := startNow(capable, j.Req()); ok {
		return true
	}
	_, canBoot := bootCandidate(capable)
	powered := strategies.Filter(capable, strategies.Powered)
	return canBoot && (len(powered) == 0 || (p.cfg.target != targetNone && l.PoweredCores() < p.target))
}

// migration is B.6 step 5: when the server that just completed a job has
// no waiting job and free room, the oldest job blocked at the head of
// another server's queue that fits the freed room (smallest original
// submit time, then job id).
func migration(l *strategies.Ledger, freed protocol.ServerRef) (protocol.Migrate, bool) {
	to, ok := l.Machine(freed)
	if !ok || len(to.Waiting) > 0 || !to.Powered() || to.State == protocol.Booting || to.Free.Cores == 0 {
		return protocol.Migrate{}, false
	}
	var best *strategies.Placement
	var from protocol.ServerRef
	for i := range l.Machines() {
		m := &l.Machines()[i]
		if m.Ref == freed || len(m.Waiting) == 0 {
			continue
		}
		h := &m.Waiting[0]
		if !h.Req().Fits(to.Free.Cores, to.Free.Memory, to.Free.Disk) {
			continue
		}
		if best == nil || h.Job.Submit < best.Job.Submit || (h.Job.Submit == best.Job.Submit && h.Job.ID < best.Job.ID) {
			best, from = h, m.Ref
		}
	}
	if best == nil {
		return protocol.Migrate{}, false
	}
	return protocol.Migrate{JobID: best.Job.ID, From: from, To: freed}, true
}

// surplus is B.2.4: empty powered servers (no running or waiting job; a
// server emptied by a completion still says active) that may go, highest
// hourlyRate first, then most cores, then GETS order, while the powered
// cores stay at or above the target and p_min. With τ_idle = 0 only a
// server that emptied at this very time qualifies, so the TERM bills
// nothing extra (Part F); with τ_idle > 0 (thr-delay) one empty for τ_idle.
func (p *prov) surplus(l *strategies.Ledger, now int, keep protocol.ServerRef) []*strategies.Machine {
	empty := l.Candidates(func(m *strategies.Machine) bool {
		if m.Ref == keep || !m.Empty() || m.IdleSince < 0 || (m.State != protocol.Idle && m.State != protocol.Active) {
			return false
		}
		if p.cfg.tauIdle == 0 {
			return m.IdleSince == now
		}
		return now-m.IdleSince >= p.cfg.tauIdle
	})
	slices.SortStableFunc(empty, func(a, b *strategies.Machine) int {
		switch {
		case a.Type.HourlyRate != b.Type.HourlyRate:
			if a.Type.HourlyRate > b.Type.HourlyRate {
				return -1
			}
			return 1
		case a.Type.Cores != b.Type.Cores:
			return b.Type.Cores - a.Type.Cores
		}
		return 0
	})
	powered, floor := l.PoweredCores(), max(p.target, p.cfg.pmin)
	var out []*strategies.Machine
	for _, m := range empty {
		if powered-m.Type.Cores >= floor {
			out = append(out, m)
			powered -= m.Type.Cores
			p.pendingTerm = append(p.pendingTerm, max(0, now-m.IdleSince))
		}
	}
	return out
}

// Outcome counts what the server accepted, and refuses to pass over what
// must not happen: a TERM that killed jobs (TERM goes only to servers the
// ledger says are empty, so a kill means the ledger was wrong and the
// killed jobs would sit in GQ), or a refused TERM, MIGJ or DEQJ.
func (p *prov) Outcome(_ strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	switch a := o.Action.(type) {
	case protocol.Schedule:
		if o.OK() {
			if p.pendingBoot {
				p.st.boots++
			}
			p.st.idleBilled += p.pendingIdle
		}
		p.pendingBoot, p.pendingIdle = false, 0
	case protocol.Terminate:
		if !o.OK() {
			return nil, fmt.Errorf("%s: %s refused (%s): the ledger is out of step with the server", p.name, a, o.Err.Text)
		}
		if o.Killed > 0 {
			return nil, fmt.Errorf("%s: %s killed %d job(s): TERM must only reach empty servers", p.name, a, o.Killed)
		}
		p.st.terms++
		if len(p.pendingTerm) > 0 {
			p.st.idleBilled += p.pendingTerm[0]
			p.pendingTerm = p.pendingTerm[1:]
		}
	case protocol.Migrate:
		if !o.OK() {
			return nil, fmt.Errorf("%s: %s refused (%s)", p.name, a, o.Err.Text)
		}
		p.st.migrations++
	case protocol.Dequeue:
		if !o.OK() {
			return nil, fmt.Errorf("%s: %s refused (%s)", p.name, a, o.Err.Text)
		}
	}
	return nil, nil
}
