package engine

import "github.com/dssim-go/dssim-go/mocksrv/model"

// The fronts render a Reply's records from here (the Reply is passed by
// pointer: these run once per record): as bytes exactly as
// ds-server sends them (text front, and the log of both fronts), or as
// typed records (in-process front). A Reply's records must be rendered
// before the next Exec.

// AppendData writes the records of a DATA reply (GETS, LSTJ, LSTQ GQ *) as
// the one message that follows the DATA header (§5.2, §5.3, §5.7, §5.8).
func (e *Engine) AppendData(b []byte, r *Reply) []byte {
	switch r.Kind {
	case ReplyServers:
		return e.appendGetsBatch(b, r.sel)
	case ReplyJobs:
		return e.appendJobList(b, e.machines[r.m])
	case ReplyQueue:
		return e.appendQueueList(b)
	}
	return b
}

// GetsMachine is the machine of record i of a GETS reply; its accessors
// give the record's fields (§5.3), Engine.Failures says whether the
// failure fields are part of it.
func (e *Engine) GetsMachine(r *Reply, i int) *Machine { return e.machines[r.sel[i]] }

// Failures reports whether failures are simulated (GETS records then carry
// the six failure fields of Appendix C.4).
func (e *Engine) Failures() bool { return e.failures }

// Year is the ds-server release reproduced (the zero Options.Year
// resolved to the default).
func (e *Engine) Year() model.Year { return e.opt.Year.Resolve() }

// RecordRate is the hourly rate a 2026 GETS record of s carries, as a
// client reads it from the record's text (two decimals: a rate of 0.125
// reads 0.12); ok is false for 2025, whose records carry none.
func (e *Engine) RecordRate(s *Machine) (rate float64, ok bool) {
	if e.rates == nil {
		return 0, false
	}
	return e.rateVals[s.typ], true
}

// The fields of a machine's GETS record (§5.3, Appendix C.4).

// Type is the machine's type name.
func (s *Machine) Type() string { return s.name }

// ID is the machine's id within its type.
func (s *Machine) ID() int { return s.id }

// State is the state code (0 inactive .. 4 unavailable).
func (s *Machine) State() int { return int(s.state) }

// CurStartTime is the boot completion of the current powered period, -1
// when off.
func (s *Machine) CurStartTime() int { return s.curStart }

// Avail returns the cores, memory and disk available now.
func (s *Machine) Avail() (cores, memory, disk int) { return s.c, s.m, s.d }

// Jobs returns the numbers of waiting and running jobs.
func (s *Machine) Jobs() (waiting, running int) { return len(s.waiting), len(s.running) }

// FailureFields returns #failures, total failure time, MTTF, MTTR, MADF
// and the last start time.
func (s *Machine) FailureFields() (failures, totalFailTime, mttf, mttr, madf, lastStartTime int) {
	return s.nFail, s.totalFail, s.mttf, s.mttr, s.madf, s.lastStart
}

// JobRecord is record i of an LSTJ reply: running jobs (end order) then
// waiting ones (FIFO), as LSTJ lists them (§5.8).
func (e *Engine) JobRecord(r *Reply, i int) JobRecord {
	s := e.machines[r.m]
	if i < len(s.running) {
		return e.jobRecord(s.running[i], jobRunning)
	}
	return e.jobRecord(s.waiting[i-len(s.running)], jobWaiting)
}

// QueueRecord is record i of an LSTQ GQ * reply (§5.7).
func (e *Engine) QueueRecord(i int) QueuedJob { return e.queued(i) }

// AppendRescRecord writes record i of a RESC reply (§5.15, optional and
// mostly [NOT VERIFIED]): <type> <id> <stateCode> <availTime> <cores>
// <mem> <disk> (+ the failure fields), resources as available now.
// availTime: idle → clock; inactive → clock + boot time; unavailable → -1;
// booting/active → -1, except under RESC Avail/Bounded when the server has
// room and no waiting job: booting → its boot end, active → clock.
func (e *Engine) AppendRescRecord(b []byte, r *Reply, i int) []byte {
	s := e.machines[r.sel[i]]
	avail := -1
	switch s.state {
	case idle:
		avail = e.clock
	case inactive:
		avail = e.clock + e.types[s.typ].BootupTime
	case booting, active:
		q := r.req
		if (r.query == QueryAvail || r.query == QueryBounded) && len(s.waiting) == 0 &&
			q.Cores <= s.c && q.Memory <= s.m && q.Disk <= s.d {
			avail = e.clock
			if s.state == booting {
				avail = s.curStart
			}
		}
	}
	b = append(b, e.types[s.typ].Name...)
	b = append(b, ' ')
	b = appendInts(b, s.id, int(s.state), avail, s.c, s.m, s.d)
	if e.failures {
		b = append(b, ' ')
		b = appendInts(b, s.nFail, s.totalFail, s.mttf, s.mttr, s.madf, s.lastStart)
	}
	return b
}
