package viewer

import (
	"strconv"
	"strings"
)

// event reads an event line (§7.2) at time p.t.
func (p *parser) event(s string) error {
	f := strings.Fields(s)
	if len(f) < 2 || f[0] != "job" {
		return p.errf("not a ds-server event line: %.80q", s)
	}
	j, err := p.job(f[1])
	if err != nil {
		return err
	}
	switch last := f[len(f)-1]; {
	case last == "SUBMITTED" && len(f) == 13:
		return p.submitted(j, f)
	case (last == "SCHEDULED" || last == "MIGRATED") && len(f) == 8:
		srv, err := p.server(f[4], f[5])
		if err != nil {
			return err
		}
		return p.placed(j, srv, f[6] == "(booting)", last == "MIGRATED")
	case len(f) == 6 && f[2] == "on":
		srv, err := p.server(f[3], f[4])
		if err != nil {
			return err
		}
		return p.left(j, srv, last)
	}
	return p.errf("not a ds-server event line: %.80q", s)
}

// submitted is an offer of job j at p.t: it must be cfg's job (the first
// offer at its submit time), and it ends the job's stay in the global
// queue, if any. A job offered before, neither placed nor failed since,
// and offered again at a later time went through ENQJ at its last offer
// (the clock cannot move between an offer and its ENQJ) and DEQJ now (the
// offer time of a dequeued job is the DEQJ's clock, §5.6): so the queue is
// the same at -v brief, which shows neither command.
func (p *parser) submitted(j *jobState, f []string) error {
	job := &p.run.Jobs[j.job]
	got := [4]string{f[4], f[6], f[8], f[11]}
	want := [4]int{job.Cores, job.Memory, job.Disk, job.Est}
	for i, name := range [4]string{"CPU", "Mem", "Disk", "Est Runtime"} {
		if strings.TrimSuffix(got[i], ",") != strconv.Itoa(want[i]) {
			return p.errf("job %d has %s %s in the log but %d in config %s (a log of another config?)",
				job.ID, name, strings.TrimSuffix(got[i], ","), want[i], p.cfg.Path)
		}
	}
	if !j.offered && p.t != job.Submit {
		return p.errf("job %d is first submitted at %d in the log but at %d in config %s (a log of another config?)",
			job.ID, p.t, job.Submit, p.cfg.Path)
	}
	switch {
	case j.queuedAt >= 0:
		p.queue = append(p.queue, Span{j.queuedAt, p.t})
		j.queuedAt = -1
	case j.offered && !j.placed && p.t != j.offerTime:
		p.queue = append(p.queue, Span{j.offerTime, p.t})
	}
	j.offered, j.offerTime, j.placed = true, p.t, false
	return nil
}

// placed is a SCHEDULED or MIGRATED line: a new stay on srv. A server
// reported booting that was off starts a powered period now.
func (p *parser) placed(j *jobState, srv int, booting, migrated bool) error {
	if migrated {
		if j.stay < 0 {
			return p.errf("job %d migrated but it is on no server", p.run.Jobs[j.job].ID)
		}
		p.leave(j, p.t, Migrated)
	} else if j.stay >= 0 {
		return p.errf("job %d scheduled again while still on %s", p.run.Jobs[j.job].ID, p.name(p.run.Stays[j.stay].Server))
	}
	s := &p.run.Servers[srv]
	if booting {
		n := len(s.Power)
		if n > 0 && s.Power[n-1].Off < 0 && p.t >= s.Power[n-1].BootEnd && !p.all {
			// Booting again after its boot ended: switched off by a TERM
			// the -v brief log does not show.
			s.Power[n-1].Off = p.lastJobEnd(srv, s.Power[n-1].BootEnd)
			p.note("TERM is not in -v brief logs: a server that boots again is taken as switched off after its last job")
		}
		if n == 0 || s.Power[len(s.Power)-1].Off >= 0 {
			s.Power = append(s.Power, Power{BootStart: p.t, BootEnd: p.t + p.run.Types[s.Type].Boot, Off: -1})
		}
	}
	ready := j.offerTime
	if !j.offered || migrated {
		ready = p.t
	}
	j.stay = len(p.run.Stays)
	j.placed = true
	p.open[srv]++
	p.run.Stays = append(p.run.Stays, Stay{Job: p.run.Jobs[j.job].ID, Server: srv, Ready: ready, Placed: p.t,
		Start: -1, End: -1, Outcome: Unfinished})
	return nil
}

// left is a RUNNING, COMPLETED, failed or killed line for job j on srv.
func (p *parser) left(j *jobState, srv int, what string) error {
	id := p.run.Jobs[j.job].ID
	if j.stay < 0 || p.run.Stays[j.stay].Server != srv {
		return p.errf("job %d %s on %s but it was not placed there", id, what, p.name(srv))
	}
	switch what {
	case "RUNNING":
		p.run.Stays[j.stay].Start = p.t
	case "COMPLETED":
		p.leave(j, p.t, Completed)
	case "failed", "killed":
		o := Failed
		if what == "killed" {
			o = Killed
		}
		p.leave(j, p.t, o)
		j.queuedAt = p.t // both go to the end of the global queue (§5.12, C.3)
	default:
		return p.errf("unknown job event %q", what)
	}
	return nil
}

// leave ends job j's current stay at t. A booting server that a MIGJ
// leaves empty is off (§5.11).
func (p *parser) leave(j *jobState, t int, o Outcome) {
	st := &p.run.Stays[j.stay]
	st.End, st.Outcome = t, o
	p.open[st.Server]--
	j.stay = -1
	s := &p.run.Servers[st.Server]
	if n := len(s.Power); o == Migrated && p.open[st.Server] == 0 && n > 0 && s.Power[n-1].Off < 0 && t < s.Power[n-1].BootEnd {
		s.Power[n-1].Off = t
	}
}

// lastJobEnd is the latest end of a job on srv after from (from itself
// when none): where a TERM the log does not show is assumed.
func (p *parser) lastJobEnd(srv, from int) int {
	last := from
	for _, st := range p.run.Stays {
		if st.Server == srv && st.End > last {
			last = st.End
		}
	}
	return last
}

func (p *parser) name(srv int) string {
	s := p.run.Servers[srv]
	return p.run.Types[s.Type].Name + " " + strconv.Itoa(s.ID)
}

func (p *parser) note(n string) {
	for _, m := range p.run.Notes {
		if m == n {
			return
		}
	}
	p.run.Notes = append(p.run.Notes, n)
}
