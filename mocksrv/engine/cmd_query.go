package engine

import "strconv"

// Query is a GETS (or RESC) option (§5.3).
type Query uint8

// The GETS options, in the order ds-server tests their words.
const (
	QueryAll Query = iota
	QueryType
	QueryOne
	QueryAvail
	QueryCapable
	QueryBounded
)

// reqOK checks a GETS Capable/Avail/Bounded requirement against the largest
// type's capacity (§5.3: 1..C cores, 100..M memory, 100..D disk).
func (e *Engine) reqOK(r Req) bool {
	L := e.cfg.Largest()
	switch {
	case r.Cores < 1 || r.Cores > L.Cores:
		e.stderr(itoa(r.Cores) + ": Out of bound! (1 - " + itoa(L.Cores) + "); Core count limit")
	case r.Memory < 100 || r.Memory > L.Memory:
		e.stderr(itoa(r.Memory) + ": Out of bound! (100 - " + itoa(L.Memory) + "); Memory limit")
	case r.Disk < 100 || r.Disk > L.Disk:
		e.stderr(itoa(r.Disk) + ": Out of bound! (100 - " + itoa(L.Disk) + "); Disk limit")
	default:
		return true
	}
	return false
}

// gets selects the servers of a GETS query, in sorted type order then id
// order, appending their indices to out. The arguments are already checked.
func (e *Engine) gets(kind Query, ti int32, id int, r Req, out []int32) []int32 {
	switch kind {
	case QueryAll:
		for i := range e.machines {
			out = append(out, int32(i))
		}
	case QueryType:
		for i := 0; i < e.types[ti].Limit; i++ {
			out = append(out, e.first[ti]+int32(i))
		}
	case QueryOne:
		out = append(out, e.first[ti]+int32(id))
	case QueryCapable, QueryBounded:
		for t := range e.types {
			tp := &e.types[t]
			if r.Cores <= tp.Cores && r.Memory <= tp.Memory && r.Disk <= tp.Disk {
				for i := 0; i < tp.Limit; i++ {
					out = append(out, e.first[t]+int32(i))
				}
			}
		}
		if kind == QueryBounded && len(out) > 0 {
			// Stop after the first server of the trailing run of inactive
			// servers (§5.3, undocumented option).
			last := -1
			for k, si := range out {
				if e.machines[si].state != inactive {
					last = k
				}
			}
			if last+2 < len(out) {
				out = out[:last+2]
			}
		}
	case QueryAvail:
		for _, s := range e.machines {
			if len(s.waiting) == 0 && s.state != unavailable &&
				r.Cores <= s.c && r.Memory <= s.m && r.Disk <= s.d {
				out = append(out, s.idx)
			}
		}
	}
	return out
}

// appendRecord writes a server's GETS record (§5.3) to b: with the type's
// hourly rate third for the 2026 server.
func (e *Engine) appendRecord(b []byte, si int32) []byte {
	s := e.machines[si]
	b = append(b, e.types[s.typ].Name...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(s.id), 10)
	b = append(b, ' ')
	if e.rates != nil {
		b = append(b, e.rates[s.typ]...)
		b = append(b, ' ')
	}
	b = append(b, s.state.String()...)
	b = append(b, ' ')
	b = appendInts(b, s.curStart, s.c, s.m, s.d, len(s.waiting), len(s.running))
	if e.failures {
		b = append(b, ' ')
		b = appendInts(b, s.nFail, s.totalFail, s.mttf, s.mttr, s.madf, s.lastStart)
	}
	return b
}

// appendGetsBatch writes the records of a GETS batch as one message: joined
// by '\n', every record after the first padded with 5 + (length of the
// last log timestamp prefix) spaces [BUG-COMPAT] (§5.3).
func (e *Engine) appendGetsBatch(b []byte, ids []int32) []byte {
	pad := 5 + e.log.pad()
	for i, si := range ids {
		if i > 0 {
			b = append(b, '\n')
			for p := 0; p < pad; p++ {
				b = append(b, ' ')
			}
		}
		b = e.appendRecord(b, si)
	}
	return b
}

// getsRecLen is the constant recLen of a GETS DATA header (§5.2).
func (e *Engine) getsRecLen() int { return e.opt.Year.GetsRecLen(e.failures) }

func (e *Engine) jobRecord(x slot, st int) JobRecord {
	j := &e.jobs[x.job]
	return JobRecord{ID: j.ID, State: st, Submit: j.Submit, Start: x.start,
		EstRunTime: j.EstRunTime, Cores: j.Cores, Memory: x.mem(), Disk: j.Disk}
}

// queued returns GQ entry i as an LSTQ record (§5.7).
func (e *Engine) queued(i int) QueuedJob {
	q := e.gq[i]
	j := &e.jobs[q.job]
	return QueuedJob{ID: j.ID, QID: i, Submit: j.Submit, Queued: q.t, EstRunTime: j.EstRunTime,
		Cores: j.Cores, Memory: j.Memory, Disk: j.Disk}
}

// cntj is CNTJ's count for a job state (§5.9); ok is false for states
// outside 1..7 (0 and 8 crash the reference; they are refused here).
func (e *Engine) cntj(s *Machine, st int) (int, bool) {
	switch st {
	case jobWaiting:
		return len(s.waiting), true
	case jobRunning:
		return len(s.running), true
	case jobSuspended, jobPreempted:
		return 0, true
	case jobCompleted:
		return len(s.completed), true
	case jobFailed:
		return len(s.failed), true
	case jobKilled:
		return len(s.killed), true
	}
	return 0, false
}

// ejwt is the sum of estRunTime over the waiting jobs (§5.10).
func (e *Engine) ejwt(s *Machine) int {
	n := 0
	for _, w := range s.waiting {
		n += e.jobs[w.job].EstRunTime
	}
	return n
}

// appendJobList writes s's LSTJ records (§5.8), running jobs then waiting
// ones, one a line.
func (e *Engine) appendJobList(b []byte, s *Machine) []byte {
	for i, x := range s.running {
		if i > 0 {
			b = append(b, '\n')
		}
		b = e.appendJobRecord(b, x, jobRunning)
	}
	for i, x := range s.waiting {
		if i > 0 || len(s.running) > 0 {
			b = append(b, '\n')
		}
		b = e.appendJobRecord(b, x, jobWaiting)
	}
	return b
}

// appendQueueList writes the records of LSTQ GQ * (§5.7), one a line.
func (e *Engine) appendQueueList(b []byte) []byte {
	for i := range e.gq {
		if i > 0 {
			b = append(b, '\n')
		}
		b = e.queued(i).appendTo(b)
	}
	return b
}

func (e *Engine) appendJobRecord(b []byte, x slot, st int) []byte {
	j := &e.jobs[x.job]
	// The memory booked: the request but for SCHM (memory extension).
	return appendInts(b, j.ID, st, j.Submit, x.start, j.EstRunTime, j.Cores, x.mem(), j.Disk)
}
