package engine

import "github.com/dssim-go/dssim-go/protocol"

// The fronts render a Reply's records from here: as bytes exactly as
// ds-server sends them (text front, and the log of both fronts), or as
// typed records (in-process front). A Reply's records must be rendered
// before the next Exec.

// AppendData writes the records of a DATA reply (GETS, LSTJ, LSTQ GQ *) as
// the one message that follows the DATA header (§5.2, §5.3, §5.7, §5.8).
func (e *Engine) AppendData(b []byte, r Reply) []byte {
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

// FillServers writes the GETS records of r into out, which has r.N
// elements.
func (e *Engine) FillServers(out []protocol.Server, r Reply) {
	for i, si := range r.sel {
		e.fillRecord(&out[i], si)
	}
}

// JobRecords appends the LSTJ records of r to out.
func (e *Engine) JobRecords(r Reply, out []protocol.JobRecord) []protocol.JobRecord {
	return e.jobRecords(e.machines[r.m], out)
}

// QueueRecords returns the LSTQ GQ * records.
func (e *Engine) QueueRecords() []protocol.QueuedJob {
	out := make([]protocol.QueuedJob, len(e.gq))
	for i := range out {
		out[i] = e.queued(i)
	}
	return out
}

// AppendRescRecord writes record i of a RESC reply (§5.15, optional and
// mostly [NOT VERIFIED]): <type> <id> <stateCode> <availTime> <cores>
// <mem> <disk> (+ the failure fields), resources as available now.
// availTime: idle → clock; inactive → clock + boot time; unavailable → -1;
// booting/active → -1, except under RESC Avail/Bounded when the server has
// room and no waiting job: booting → its boot end, active → clock.
func (e *Engine) AppendRescRecord(b []byte, r Reply, i int) []byte {
	s := e.machines[r.sel[i]]
	avail := -1
	switch s.state {
	case protocol.Idle:
		avail = e.clock
	case protocol.Inactive:
		avail = e.clock + e.types[s.typ].BootupTime
	case protocol.Booting, protocol.Active:
		q := r.req
		if (r.query == QueryAvail || r.query == QueryBounded) && len(s.waiting) == 0 &&
			q.Cores <= s.c && q.Memory <= s.m && q.Disk <= s.d {
			avail = e.clock
			if s.state == protocol.Booting {
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
