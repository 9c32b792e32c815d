package engine

import (
	"strconv"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// machineAt returns the machine (type index, id), or nil when the id is out of range.
func (e *Engine) machineAt(ti int32, id int) *Machine {
	if id < 0 || id >= e.types[ti].Limit {
		return nil
	}
	return e.machines[e.first[ti]+int32(id)]
}

// typeIndex resolves a type name; for an unknown one it prints ds-server's
// stderr line (§7.7) and reports false.
func (e *Engine) typeIndex(typ string) (int32, bool) {
	ti, ok := e.byName[typ]
	if !ok {
		e.stderr("No such server type by " + typ + " exists!")
	}
	return ti, ok
}

// outOfBound prints ds-server's stderr line for an id beyond type ti's
// servers (§7.7); what names the argument.
func (e *Engine) outOfBound(ti int32, id int, what string) {
	e.stderr(itoa(id) + ": Out of bound! (0 - " + itoa(e.types[ti].Limit-1) + "); " + what)
}

// lookup resolves a type name and id, printing ds-server's stderr line for
// an unknown type or an id out of range; ok is false for both.
func (e *Engine) lookup(typ string, id int, what string) (s *Machine, ok bool) {
	ti, ok := e.typeIndex(typ)
	if !ok {
		return nil, false
	}
	s = e.machineAt(ti, id)
	if s == nil {
		e.outOfBound(ti, id, what)
	}
	return s, s != nil
}

// capable: s's type can hold j with mem booked (the request but for SCHM).
func (e *Engine) capable(s *Machine, j *model.Job, mem int) bool {
	t := &e.types[s.typ]
	return j.Cores <= t.Cores && mem <= t.Memory && j.Disk <= t.Disk
}

func (e *Engine) sqIndex(jobID int) int {
	for i, q := range e.sq {
		if e.jobs[q.job].ID == jobID {
			return i
		}
	}
	return -1
}

// schd is SCHD jobID type id (§5.4). idOK is false when the id token was
// missing or not a number ([UNDEFINED]; reported as out of bound, decision 3).
func (e *Engine) schd(jobID int, jobOK bool, typ string, id int, idOK bool) Refusal {
	i := -1
	if jobOK {
		i = e.sqIndex(jobID)
	}
	if i < 0 {
		return Refusal{code: rNoWaitingJob}
	}
	return e.schdAt(i, typ, id, idOK, e.jobs[e.sq[i].job].Memory)
}

// schdAt is SCHD's checks after the job lookup and the placement of SQ
// entry i with mem booked (SCHM's allocMem, or the request for SCHD).
func (e *Engine) schdAt(i int, typ string, id int, idOK bool, mem int) Refusal {
	ti, ok := e.typeIndex(typ)
	if !ok {
		return Refusal{code: rNoServerType}
	}
	s := e.machineAt(ti, id)
	if !idOK || s == nil {
		if idOK {
			e.outOfBound(ti, id, "Server ID")
		}
		return Refusal{code: rServerOOB}
	}
	if s.state == unavailable {
		return Refusal{code: rUnavailable}
	}
	q := e.sq[i]
	if !e.capable(s, &e.jobs[q.job], mem) {
		return Refusal{code: rIncapable}
	}
	e.place(q.job, s, "SCHEDULED", mem)
	e.sq = append(e.sq[:i], e.sq[i+1:]...)
	e.lastSent = -1
	return Refusal{}
}

// place puts a job on a server (§4.2) and logs the SCHEDULED/MIGRATED line,
// plus RUNNING when it starts at once (§7.2).
// mem is the memory booked (the request but for SCHM).
func (e *Engine) place(job int32, s *Machine, word string, mem int) {
	j := &e.jobs[job]
	fits := j.Cores <= s.c && mem <= s.m && j.Disk <= s.d
	x := slot{job: job, alloc: int32(mem), start: -1, end: -1}
	running := false
	switch s.state {
	case idle:
		x.start, running = e.clock, true
		s.state = active
	case inactive:
		s.curStart = e.clock + e.types[s.typ].BootupTime
		s.state = booting
		s.power = append(s.power, powerSpan{bootStart: e.clock, bootEnd: s.curStart, off: -1})
		s.mark = s.curStart
		x.start = s.curStart
	case booting:
		if (len(s.waiting) == 0 || s.waiting[len(s.waiting)-1].start >= 0) && fits {
			x.start = s.curStart
		}
	case active:
		if len(s.waiting) == 0 && fits {
			x.start, running = e.clock, true
		}
	}
	if x.start >= 0 {
		e.setEnd(s, &x)
		s.reserve(j, mem)
	}
	if running {
		s.insertRunning(x)
	} else {
		s.waiting = append(s.waiting, x)
	}
	e.touch(s)
	if e.log.event(e.clock) {
		b := append(e.log.buf, "job "...)
		b = strconv.AppendInt(b, int64(j.ID), 10)
		if running {
			b = append(b, " (running) on "...)
		} else {
			b = append(b, " (waiting) on "...)
		}
		b = e.appendRef(b, s.idx)
		b = append(b, " ("...)
		b = append(b, s.state.String()...)
		b = append(b, ") "...)
		b = append(b, word...)
		e.log.buf = append(b, '\n')
	}
	if running {
		e.log.queue(e.clock, lineRunning, job, s.idx)
		e.flushLog()
	}
}

// enqj is ENQJ GQ (§5.5); the token checks are the text front's.
func (e *Engine) enqj() Refusal {
	if e.lastSent < 0 {
		return Refusal{code: rNoJobToEnq}
	}
	for i, q := range e.sq {
		if q.job == e.lastSent {
			e.sq = append(e.sq[:i], e.sq[i+1:]...)
			break
		}
	}
	e.gq = append(e.gq, qent{t: e.clock, job: e.lastSent})
	e.lastSent = -1
	return Refusal{}
}

// deqj is DEQJ <q> qID (§5.6): the entry goes to the head of SQ, offered at
// the current clock.
func (e *Engine) deqj(qid int) Refusal {
	if qid < 0 || qid >= len(e.gq) {
		return Refusal{code: rDeqNoJob, a: qid, b: len(e.gq)}
	}
	q := e.gq[qid]
	e.gq = append(e.gq[:qid], e.gq[qid+1:]...)
	e.sq = append(e.sq, qent{})
	copy(e.sq[1:], e.sq)
	e.sq[0] = qent{t: e.clock, job: q.job}
	return Refusal{}
}

// findOn locates a job (by id) among a server's running and waiting lists.
func (e *Engine) findOn(s *Machine, jobID int) (running bool, i int) {
	for i, r := range s.running {
		if e.jobs[r.job].ID == jobID {
			return true, i
		}
	}
	for i, w := range s.waiting {
		if e.jobs[w.job].ID == jobID {
			return false, i
		}
	}
	return false, -1
}

// kilj is KILJ type id jobID (§5.12). It does not start waiting jobs
// [BUG-COMPAT], and a known-start job on a booting server keeps its
// resources reserved [BUG-COMPAT; the reference's later abort is replaced
// by going on, Appendix D].
func (e *Engine) kilj(s *Machine, jobID int) Refusal {
	running, i := e.findOn(s, jobID)
	if i < 0 {
		return Refusal{code: rKILJ}
	}
	var r slot
	if running {
		r = s.running[i]
		s.running = removeAt(s.running, i)
		s.release(&e.jobs[r.job], r.mem())
	} else {
		r = s.waiting[i]
		s.waiting = removeAt(s.waiting, i)
	}
	r.end = e.clock
	e.jobGone(s, r, "killed", s.minRunStart())
	s.killed = append(s.killed, r)
	e.touch(s)
	return Refusal{}
}

// term is TERM type id (§5.13); it returns the number of jobs killed.
func (e *Engine) term(s *Machine) (int, Refusal) {
	if !s.state.powered() {
		return 0, Refusal{code: rTERM}
	}
	n := e.evict(s, e.clock, "killed", &s.killed)
	if s.state != booting {
		s.billed += e.clock - s.curStart
	}
	e.powerDown(s)
	e.touch(s)
	return n, Refusal{}
}

// migj is MIGJ jobID src tgt (§5.11); the token and range checks are done
// by the caller (they all give "ERR: <msg>!").
func (e *Engine) migj(jobID int, src, tgt *Machine) Refusal {
	if src == tgt {
		return Refusal{code: rMigSelf}
	}
	running, i := e.findOn(src, jobID)
	if i < 0 {
		return Refusal{code: rMigNoJob, a: jobID, s: e.types[src.typ].Name + " " + strconv.Itoa(src.id)}
	}
	var r slot
	if running {
		r = src.running[i]
	} else {
		r = src.waiting[i]
	}
	if r.end == e.clock {
		return Refusal{code: rMigCompleting, a: jobID, b: e.clock}
	}
	if tgt.state == unavailable || !e.capable(tgt, &e.jobs[r.job], r.mem()) {
		return Refusal{code: rMIGJ}
	}
	e.place(r.job, tgt, "MIGRATED", r.mem())
	// Remove from the source: no trace in any history list (§5.11, §6.2).
	if running {
		src.running = removeAt(src.running, i)
		src.migOut = e.clock
	} else {
		src.waiting = removeAt(src.waiting, i)
	}
	if r.start >= 0 {
		src.release(&e.jobs[r.job], r.mem())
	}
	empty := len(src.running)+len(src.waiting) == 0
	switch {
	case src.state == booting && empty:
		e.powerDown(src)
	case src.state == active && empty:
		src.state = idle
	case src.state == active && len(src.waiting) > 0:
		e.startWaiting(src, e.clock)
		e.flushLog()
	}
	e.touch(src)
	return Refusal{}
}

// pshj is PSHJ (§5.14). handled is false when no job was on offer: the
// message is then handled exactly as REDY by the caller.
func (e *Engine) pshj() (handled bool, r Refusal) {
	if e.lastSent < 0 {
		return false, Refusal{}
	}
	i := -1
	for k, q := range e.sq {
		if q.job == e.lastSent {
			i = k
			break
		}
	}
	if i < 0 {
		// Cannot happen after a correct dialogue (the job on offer is in
		// SQ); refuse clearly rather than assert (decision 2).
		return true, Refusal{code: rPSHJNotHead}
	}
	// The reference asserts that the job is SQ's head; after a DEQJ another
	// job can be there. Taking it out wherever it is keeps going (Appendix D
	// spirit: never crash).
	q := e.sq[i]
	e.sq = append(e.sq[:i], e.sq[i+1:]...)
	t := q.t
	if len(e.sq) > 0 {
		t = e.sq[0].t + 1
		for e.next < len(e.jobs) && e.jobs[e.next].Submit < t {
			e.sq = append(e.sq, qent{t: e.jobs[e.next].Submit, job: int32(e.next)})
			e.next++
		}
	} else {
		t++
		if e.next >= len(e.jobs) && float64(t) > 1.5*float64(e.cfg.EndTime) {
			id := e.jobs[q.job].ID
			e.lastSent = -1
			return true, Refusal{code: rPSHJStuck, a: id, b: e.clock}
		}
		if e.next < len(e.jobs) {
			e.sq = append(e.sq, qent{t: e.jobs[e.next].Submit, job: int32(e.next)})
			t = e.jobs[e.next].Submit + 1
			e.next++
		}
	}
	k := 0
	for k < len(e.sq) && e.sq[k].t < t {
		k++
	}
	e.sq = append(e.sq, qent{})
	copy(e.sq[k+1:], e.sq[k:])
	e.sq[k] = qent{t: t, job: q.job}
	e.lastSent = -1
	return true, Refusal{}
}
