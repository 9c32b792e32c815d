package mocksrv

import (
	"strconv"

	"github.com/dssim-go/dssim-go/mocksrv/engine"
	"github.com/dssim-go/dssim-go/protocol"
)

// The in-process front's queries: GETS, LSTJ, CNTJ, EJWT, LSTQ as typed
// results, logged as the text front would log their DATA exchanges.

// query runs a query command after the phase check; a refusal is logged
// and returned as a *protocol.ServerError.
func (s *Session) query(cmd func() string, starts bool, c *engine.Command) (engine.Reply, error) {
	if err := s.start(cmd, starts); err != nil {
		return engine.Reply{}, err
	}
	r := s.e.Exec(c)
	if r.Kind == engine.ReplyRefused {
		return r, s.refuse(cmd(), r.Refusal)
	}
	return r, nil
}

// dataLog logs a DATA exchange as the text front would print it.
func (s *Session) dataLog(r *engine.Reply) {
	if !s.e.ProtoOn() {
		return
	}
	s.sent("DATA " + strconv.Itoa(r.N) + " " + strconv.Itoa(r.RecLen))
	s.rcvd("OK")
	if r.N > 0 {
		s.scratch = s.e.AppendData(s.scratch[:0], r)
		s.sent(string(s.scratch))
		s.rcvd("OK")
	}
	s.sent(".")
}

// servers runs a GETS query and returns its records, written field by
// field into the reused slice (the hot path of an in-process run).
func (s *Session) servers(cmd func() string, c *engine.Command) ([]protocol.Server, error) {
	c.Op = engine.OpGETS
	r, err := s.query(cmd, true, c)
	if err != nil {
		return nil, err
	}
	out := s.recs(r.N)
	failures := s.e.Failures()
	for i := range out {
		rec, m := &out[i], s.e.GetsMachine(&r, i)
		rec.Type, rec.ID, rec.State, rec.CurStartTime = m.Type(), m.ID(), protocol.ServerState(m.State()), m.CurStartTime()
		rec.Cores, rec.Memory, rec.Disk = m.Avail()
		rec.Waiting, rec.Running = m.Jobs()
		rec.Rate, rec.HasRate = s.e.RecordRate(m)
		rec.Failure = nil
		if failures {
			rec.Failure = failureFields(m)
		}
	}
	s.dataLog(&r)
	s.e.MaybeFlush()
	return out, nil
}

func getsCmd(opt string, args ...int) func() string {
	return func() string {
		b := []byte("GETS " + opt)
		for _, a := range args {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(a), 10)
		}
		return string(b)
	}
}

// GetsAll is GETS All.
func (s *Session) GetsAll() ([]protocol.Server, error) {
	return s.servers(getsCmd("All"), &engine.Command{Query: engine.QueryAll})
}

// GetsType is GETS Type t.
func (s *Session) GetsType(typ string) ([]protocol.Server, error) {
	return s.servers(getsCmd("Type "+typ), &engine.Command{Query: engine.QueryType, Server: engine.Ref{Type: typ}})
}

// GetsOne is GETS One t id; a bad id is refused (Appendix D).
func (s *Session) GetsOne(ref protocol.ServerRef) (protocol.Server, error) {
	recs, err := s.servers(getsCmd("One "+ref.Type, ref.ID), &engine.Command{Query: engine.QueryOne, Server: engine.Ref(ref)})
	if err != nil {
		return protocol.Server{}, err
	}
	return recs[0], nil
}

func (s *Session) reqQuery(opt string, q engine.Query, r protocol.Requirement) ([]protocol.Server, error) {
	return s.servers(getsCmd(opt, r.Cores, r.Memory, r.Disk), &engine.Command{Query: q, Req: engine.Req(r)})
}

// GetsCapable is GETS Capable c m d.
func (s *Session) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	return s.reqQuery("Capable", engine.QueryCapable, r)
}

// GetsAvail is GETS Avail c m d.
func (s *Session) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	return s.reqQuery("Avail", engine.QueryAvail, r)
}

// GetsBounded is GETS Bounded c m d.
func (s *Session) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	return s.reqQuery("Bounded", engine.QueryBounded, r)
}

// ListJobs is LSTJ t id (§5.8).
func (s *Session) ListJobs(ref protocol.ServerRef) ([]protocol.JobRecord, error) {
	r, err := s.query(func() string { return "LSTJ " + ref.String() }, false, &engine.Command{Op: engine.OpLSTJ, Server: engine.Ref(ref)})
	if err != nil {
		return nil, err
	}
	out := make([]protocol.JobRecord, r.N)
	for i := range out {
		j := s.e.JobRecord(&r, i)
		out[i] = protocol.JobRecord{ID: j.ID, State: protocol.JobState(j.State), Submit: j.Submit, Start: j.Start,
			EstRunTime: j.EstRunTime, Cores: j.Cores, Memory: j.Memory, Disk: j.Disk}
	}
	s.dataLog(&r)
	s.e.MaybeFlush()
	return out, nil
}

// CountJobs is CNTJ t id state (§5.9); states 0 and 8 are refused.
func (s *Session) CountJobs(ref protocol.ServerRef, st protocol.JobState) (int, error) {
	cmd := func() string { return "CNTJ " + ref.String() + " " + strconv.Itoa(int(st)) }
	return s.number(cmd, &engine.Command{Op: engine.OpCNTJ, Server: engine.Ref(ref), N: int(st)})
}

// EstWait is EJWT t id (§5.10).
func (s *Session) EstWait(ref protocol.ServerRef) (int, error) {
	return s.number(func() string { return "EJWT " + ref.String() }, &engine.Command{Op: engine.OpEJWT, Server: engine.Ref(ref)})
}

// QueueLen is LSTQ GQ #.
func (s *Session) QueueLen() (int, error) {
	return s.number(func() string { return "LSTQ GQ #" }, &engine.Command{Op: engine.OpLSTQCount})
}

// number runs a query whose reply is a number.
func (s *Session) number(cmd func() string, c *engine.Command) (int, error) {
	r, err := s.query(cmd, false, c)
	if err != nil {
		return 0, err
	}
	s.sent(r.Line())
	return r.N, nil
}

// ListQueue is LSTQ GQ *.
func (s *Session) ListQueue() ([]protocol.QueuedJob, error) {
	r, err := s.query(func() string { return "LSTQ GQ *" }, false, &engine.Command{Op: engine.OpLSTQAll})
	if err != nil {
		return nil, err
	}
	out := make([]protocol.QueuedJob, r.N)
	for i := range out {
		out[i] = protocol.QueuedJob(s.e.QueueRecord(i))
	}
	s.dataLog(&r)
	s.e.MaybeFlush()
	return out, nil
}

// failureFields are the six failure fields of a GETS record (Appendix C.4).
func failureFields(m *engine.Machine) *protocol.Failure {
	f := &protocol.Failure{}
	f.Failures, f.TotalFailTime, f.MTTF, f.MTTR, f.MADF, f.LastStartTime = m.FailureFields()
	return f
}

// recs returns a slice for n GETS records: the Session's single buffer, or
// with Options.FreshRecords a fresh one (the caller owns it).
func (s *Session) recs(n int) []protocol.Server {
	if s.fresh {
		return make([]protocol.Server, n)
	}
	if cap(s.recBuf) < n {
		s.recBuf = make([]protocol.Server, n)
	}
	return s.recBuf[:n]
}
