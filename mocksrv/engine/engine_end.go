package engine

import "strconv"

// quitAdvance is §1.6 step 1: every scheduled job runs to completion
// (clock "infinity"); no JCPL is sent for these completions.
func (e *Engine) quitAdvance() {
	e.batch = e.batch[:0]
	e.advance(inf)
}

// unscheduled is the number of jobs never run: never released, in SQ or in GQ (§1.6 step 3).
func (e *Engine) unscheduled() int {
	return len(e.jobs) - e.next + len(e.sq) + len(e.gq)
}

// Finish is §1.6 steps 3 and 7, after the front logged QUIT's reply: the stderr count and the
// unscheduled block (recognised -v levels only), then the report, which is
// printed at every level. It returns the report.
func (e *Engine) Finish() *Report {
	n := e.unscheduled()
	if n > 0 {
		e.stderr(itoa(n) + " jobs not scheduled!")
		if e.opt.Level.Recognised {
			e.unscheduledBlock()
		}
	}
	rep := e.report()
	rep.Unscheduled = n
	if e.log.writing() {
		e.log.buf = append(e.log.buf, rep.Text...)
	}
	e.log.sync()
	return rep
}

// unscheduledBlock prints §7.6.
func (e *Engine) unscheduledBlock() {
	l := e.log
	l.header("# -----------[ Jobs in the scheduling queue ]-----------")
	for _, q := range e.sq {
		j := &e.jobs[q.job]
		if q.t == j.Submit {
			l.header("# Job " + strconv.Itoa(j.ID) + " submitted at " + strconv.Itoa(q.t) + "...")
		} else {
			l.header("# Job " + strconv.Itoa(j.ID) + " initially submitted at " + strconv.Itoa(j.Submit) +
				" and resubmitted at " + strconv.Itoa(q.t) + "...")
		}
	}
	l.header("# ---------------------------------------------------")
	l.header("# -----------[ Jobs in the global queue ]-----------")
	for _, q := range e.gq {
		j := &e.jobs[q.job]
		l.header("# Job " + strconv.Itoa(j.ID) + " initially submitted at " + strconv.Itoa(j.Submit) +
			" and queued at " + strconv.Itoa(q.t) + "...")
	}
	l.header("# ---------------------------------------------------")
	l.header("# --------[ Jobs created and yet, submitted ]--------")
	for _, j := range e.jobs[e.next:] {
		l.header("# Job " + strconv.Itoa(j.ID) + " created to be submitted at " + strconv.Itoa(j.Submit) + "...")
	}
	l.header("# ---------------------------------------------------")
}

// Welcome prints the first AUTH line (§1.5 step 2); the front writes
// ds-system.xml between it and SystemInfo's line (the reference's order).
func (e *Engine) Welcome(user string) {
	e.log.header("# Welcome " + user + "!")
}

// SystemInfo prints the second AUTH line (§1.5 step 2).
func (e *Engine) SystemInfo() {
	e.log.header("# The system information can be read from 'ds-system.xml'")
}
