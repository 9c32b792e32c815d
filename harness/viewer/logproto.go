package viewer

import (
	"strconv"
	"strings"
)

// sent reads a message the server sent (§7.3): the clock moves with
// every JOBN, JOBP, JCPL, RESF and RESR; failures and recoveries and a
// TERM's reply change a server's power.
func (p *parser) sent(msg string) error {
	if p.batch > 0 && msg != "." { // first record of a DATA batch
		p.cont, p.batch, p.batchLine = p.batch-1, 0, p.line
		return nil
	}
	if !briefSent(msg) {
		p.all = true
	}
	f := strings.Fields(msg)
	if len(f) == 0 {
		return nil
	}
	var err error
	switch f[0] {
	case "JOBN", "JOBP":
		err = p.setClock(f, 2, 7)
	case "JCPL":
		err = p.setClock(f, 1, 5)
	case "RESF", "RESR":
		err = p.failure(f)
	case "DATA":
		if len(f) == 3 {
			n, e := strconv.Atoi(f[1])
			if e != nil || n < 0 {
				return p.errf("bad DATA header %.80q", msg)
			}
			p.batch = n
		}
	case "QUIT":
		p.quit = true
	}
	if p.term >= 0 {
		srv := p.term
		p.term = -1
		if len(f) == 3 && f[1] == "jobs" && f[2] == "killed" {
			p.powerOff(srv, p.clock)
		}
	}
	return err
}

// rcvd reads a client message: only TERM matters (its reply says whether
// it was done); the others show in the event lines.
func (p *parser) rcvd(msg string) error {
	f := strings.Fields(msg)
	if len(f) == 0 {
		return nil
	}
	if !briefRcvd(msg) {
		p.all = true
	}
	if f[0] == "TERM" && len(f) == 3 {
		srv, err := p.server(f[1], f[2])
		if err != nil {
			return err
		}
		p.term = srv
	}
	return nil
}

// setClock takes the clock from field i of a message of n fields.
func (p *parser) setClock(f []string, i, n int) error {
	if len(f) != n {
		return p.errf("bad %s message %.80q", f[0], strings.Join(f, " "))
	}
	t, err := strconv.Atoi(f[i])
	if err != nil || t < 0 {
		return p.errf("bad time in %.80q", strings.Join(f, " "))
	}
	p.clock = t
	return nil
}

// failure is RESF/RESR type id t: the server fails (off, and unavailable)
// or recovers (inactive again).
func (p *parser) failure(f []string) error {
	if err := p.setClock(f, 3, 4); err != nil {
		return err
	}
	srv, err := p.server(f[1], f[2])
	if err != nil {
		return err
	}
	s := &p.run.Servers[srv]
	if f[0] == "RESF" {
		p.powerOff(srv, p.clock)
		if n := len(s.Fails); n == 0 || s.Fails[n-1].To >= 0 {
			s.Fails = append(s.Fails, Span{p.clock, -1})
		}
		return nil
	}
	if n := len(s.Fails); n > 0 && s.Fails[n-1].To < 0 {
		s.Fails[n-1].To = p.clock
	}
	return nil
}

func (p *parser) powerOff(srv, t int) {
	s := &p.run.Servers[srv]
	if n := len(s.Power); n > 0 && s.Power[n-1].Off < 0 {
		s.Power[n-1].Off = t
	}
}

// briefSent and briefRcvd are the messages -v brief shows (§7.3): a log
// with any other is a -v all log.
func briefSent(m string) bool {
	return strings.HasPrefix(m, "JOB") || m == "OK" || m == "NONE" || strings.HasPrefix(m, "JCPL") ||
		strings.HasPrefix(m, "RESF") || strings.HasPrefix(m, "RESR") || m == "QUIT"
}

func briefRcvd(m string) bool {
	return m == "HELO" || strings.HasPrefix(m, "AUTH") || m == "REDY" || strings.HasPrefix(m, "SCHD") ||
		strings.HasPrefix(m, "MIGJ") || m == "QUIT"
}
