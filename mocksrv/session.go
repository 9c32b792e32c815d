package mocksrv

import (
	"errors"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	"strconv"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
)

// Session is the in-process front door: a simulation driven with typed
// values, no text round trip. It implements client.Backend (the scheduling
// loop's view of a server) and gives the same results, log and report as
// the text front fed the same dialogue. A refused command returns a
// *protocol.ServerError whose Text is exactly the wire reply. Not safe for
// concurrent use; independent Sessions share nothing.
type Session struct {
	e       *Engine
	phase   sessPhase
	rep     *Report
	sys     *servertypes.System
	ids     []int32
	scratch []byte
	recBuf  []protocol.Server
}

type sessPhase uint8

const (
	phHandshake sessPhase = iota // before HELO/AUTH
	phPre                        // handshake done, simulation not started (§1.5 step 3)
	phMain
	phEnded
)

// ErrSessionEnded is returned for any command after QUIT.
var ErrSessionEnded = errors.New("mocksrv: the simulation has ended (QUIT was processed)")

// ErrNoHandshake is returned for commands before Handshake.
var ErrNoHandshake = errors.New("mocksrv: handshake (HELO, AUTH) not done")

// NewSession starts a simulation of cfg. opt.Log may be nil: then no log
// text is built at all.
func NewSession(cfg *simconfig.Config, opt Options) (*Session, error) {
	e, err := NewEngine(cfg, opt)
	if err != nil {
		return nil, err
	}
	return &Session{e: e}, nil
}

// Engine exposes the simulation (files, after QUIT).
func (s *Session) Engine() *Engine { return s.e }

// System returns the server types as a client reads them from the
// ds-system.xml this simulation writes: sorted order, each rate as printed
// there (%.2f of the float32 value, ds-server.md §1.7). It is that file,
// parsed.
func (s *Session) System() *servertypes.System {
	if s.sys == nil {
		sys, err := servertypes.Parse("ds-system.xml", SystemXML(s.e.cfg))
		if err != nil {
			// Cannot happen: NewEngine accepted the types, and the file is
			// servertypes' own rendering of them.
			panic("mocksrv: " + err.Error())
		}
		s.sys = sys
	}
	return s.sys
}

// Flush writes the buffered log text to Options.Log.
func (s *Session) Flush() { s.e.log.sync() }

// Report returns the end-of-run report; nil before Quit.
func (s *Session) Report() *Report { return s.rep }

func (s *Session) rcvd(msg string) { s.e.log.proto(false, msg) }

func (s *Session) sent(msg string) { s.e.log.proto(true, msg) }

// refuse logs and returns an ERR reply.
func (s *Session) refuse(cmd string, r refusal) error {
	txt := r.text(cmd)
	s.sent(txt)
	return &protocol.ServerError{Command: cmd, Text: txt}
}

// start checks the phase before a command; starts reports whether the
// command starts the simulation (REDY, GETS: §1.5 step 3). Before that,
// every other command gets "ERR".
func (s *Session) start(cmd func() string, starts bool) error {
	switch s.phase {
	case phHandshake:
		return ErrNoHandshake
	case phEnded:
		return ErrSessionEnded
	case phPre:
		if !starts {
			c := cmd()
			s.rcvd(c)
			s.e.errf("ERR: invalid message (%s)!", c)
			s.sent("ERR")
			return &protocol.ServerError{Command: c, Text: "ERR"}
		}
		s.phase = phMain
	}
	if s.e.log.protoOn() {
		s.rcvd(cmd())
	}
	return nil
}

// Handshake is HELO and AUTH user (§1.5).
func (s *Session) Handshake(user string) error {
	if s.phase != phHandshake {
		return errors.New("mocksrv: handshake already done")
	}
	s.rcvd("HELO")
	s.sent("OK")
	s.rcvd("AUTH " + user)
	s.e.welcome(" " + user)
	s.e.systemInfoLine()
	s.sent("OK")
	s.phase = phPre
	s.e.log.maybeSync()
	return nil
}

// Ready is REDY (§3.2).
func (s *Session) Ready() (protocol.Event, error) {
	if err := s.start(func() string { return "REDY" }, true); err != nil {
		return nil, err
	}
	ev := s.redy()
	s.e.log.maybeSync()
	return s.e.protoEvent(ev), nil
}

func (s *Session) redy() event {
	ev := s.e.redy()
	if ev.kind == evJCPL {
		s.e.finishJCPL(ev)
	}
	if s.e.log.protoOn() {
		s.scratch = s.e.appendEvent(s.scratch[:0], ev)
		s.e.log.protoBytes(true, s.scratch)
	}
	return ev
}

// Do carries out one action and returns the reply: "OK", or "<n> jobs
// killed" for TERM (and, for PSHJ with no job on offer, the event REDY
// would have returned, §5.14).
func (s *Session) Do(a protocol.Action) (string, error) {
	if a == nil {
		return "", errors.New("mocksrv: nil action")
	}
	if err := s.start(a.String, false); err != nil {
		return "", err
	}
	defer s.e.log.maybeSync()
	e := s.e
	var r refusal
	switch a := a.(type) {
	case protocol.Schedule:
		r = e.schd(a.JobID, true, a.Server.Type, a.Server.ID, true)
	case protocol.Enqueue:
		r = e.enqj()
	case protocol.Dequeue:
		r = e.deqj(a.QID)
	case protocol.Push:
		handled, rr := e.pshj()
		if !handled {
			ev := s.redy()
			s.scratch = e.appendEvent(s.scratch[:0], ev)
			return string(s.scratch), nil
		}
		r = rr
	case protocol.Migrate:
		src, ok1 := s.lookup(a.From, "Source Server ID")
		tgt, ok2 := s.lookup(a.To, "Target Server ID")
		if !ok1 || !ok2 {
			r = refusal{code: rMIGJ}
		} else {
			r = e.migj(a.JobID, src, tgt)
		}
	case protocol.Kill:
		if srv, ok := s.lookup(a.Server, "Server ID"); !ok {
			r = refusal{code: rKILJ}
		} else {
			r = e.kilj(srv, a.JobID)
		}
	case protocol.Terminate:
		srv, ok := s.lookup(a.Server, "Server ID")
		if !ok {
			return "", s.refuse(a.String(), refusal{code: rTERM})
		}
		n, rr := e.term(srv)
		if !rr.ok() {
			return "", s.refuse(a.String(), rr)
		}
		reply := strconv.Itoa(n) + " jobs killed"
		s.sent(reply)
		return reply, nil
	default:
		return "", s.refuse(a.String(), refusal{code: rInvalid})
	}
	if !r.ok() {
		return "", s.refuse(a.String(), r)
	}
	s.sent("OK")
	return "OK", nil
}

func (s *Session) lookup(ref protocol.ServerRef, what string) (*server, bool) {
	return s.e.lookup(ref.Type, ref.ID, what)
}

// Quit is QUIT (§1.6): every scheduled job runs to completion, then the
// report is computed (and logged).
func (s *Session) Quit() error {
	// QUIT before the simulation started gets ERR (§1.5 step 3).
	if err := s.start(func() string { return "QUIT" }, false); err != nil {
		return err
	}
	s.e.quitAdvance()
	s.sent("QUIT")
	s.phase = phEnded
	s.rep = s.e.finish()
	return nil
}

// ---- queries ----

// dataLog logs a DATA exchange as the text front would print it.
func (s *Session) dataLog(n, recLen int, records func(b []byte) []byte) {
	if !s.e.log.protoOn() {
		return
	}
	s.sent("DATA " + strconv.Itoa(n) + " " + strconv.Itoa(recLen))
	s.rcvd("OK")
	if n > 0 {
		s.scratch = records(s.scratch[:0])
		s.sent(string(s.scratch))
		s.rcvd("OK")
	}
	s.sent(".")
}

func (s *Session) servers(cmd func() string, kind getsKind, ti int32, id int, req protocol.Requirement) ([]protocol.Server, error) {
	s.ids = s.e.gets(kind, ti, id, req, s.ids[:0])
	out := s.recs(len(s.ids))
	for i, si := range s.ids {
		s.e.fillRecord(&out[i], si)
	}
	s.dataLog(len(s.ids), s.e.getsRecLen(), func(b []byte) []byte { return s.e.appendGetsBatch(b, s.ids) })
	s.e.log.maybeSync()
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
	cmd := getsCmd("All")
	if err := s.start(cmd, true); err != nil {
		return nil, err
	}
	return s.servers(cmd, getsAll, 0, 0, protocol.Requirement{})
}

// GetsType is GETS Type t.
func (s *Session) GetsType(typ string) ([]protocol.Server, error) {
	cmd := getsCmd("Type " + typ)
	if err := s.start(cmd, true); err != nil {
		return nil, err
	}
	ti, ok := s.e.byName[typ]
	if !ok || !validToken(typ) {
		s.e.errf("No such server type by %s exists!", typ)
		return nil, s.refuse(cmd(), refusal{code: rGETS})
	}
	return s.servers(cmd, getsType, ti, 0, protocol.Requirement{})
}

// GetsOne is GETS One t id; a bad id is refused (Appendix D).
func (s *Session) GetsOne(ref protocol.ServerRef) (protocol.Server, error) {
	cmd := getsCmd("One "+ref.Type, ref.ID)
	if err := s.start(cmd, true); err != nil {
		return protocol.Server{}, err
	}
	ti, ok := s.e.typeIndex(ref.Type)
	if !ok || !validToken(ref.Type) || ref.ID < 0 || ref.ID >= s.e.types[ti].Limit {
		return protocol.Server{}, s.refuse(cmd(), refusal{code: rGETS})
	}
	recs, err := s.servers(cmd, getsOne, ti, ref.ID, protocol.Requirement{})
	if err != nil {
		return protocol.Server{}, err
	}
	return recs[0], nil
}

func (s *Session) reqQuery(opt string, kind getsKind, r protocol.Requirement) ([]protocol.Server, error) {
	cmd := getsCmd(opt, r.Cores, r.Memory, r.Disk)
	if err := s.start(cmd, true); err != nil {
		return nil, err
	}
	if !s.e.reqOK(r) {
		return nil, s.refuse(cmd(), refusal{code: rGETS})
	}
	return s.servers(cmd, kind, 0, 0, r)
}

// GetsCapable is GETS Capable c m d.
func (s *Session) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	return s.reqQuery("Capable", getsCapable, r)
}

// GetsAvail is GETS Avail c m d.
func (s *Session) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	return s.reqQuery("Avail", getsAvail, r)
}

// GetsBounded is GETS Bounded c m d.
func (s *Session) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	return s.reqQuery("Bounded", getsBounded, r)
}

// validToken: a type name with white space could not travel as one token.
func validToken(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' {
			return false
		}
	}
	return true
}

// serverQuery resolves "type id" for LSTJ, CNTJ, EJWT.
func (s *Session) serverQuery(cmd func() string, ref protocol.ServerRef, code rcode) (*server, error) {
	if err := s.start(cmd, false); err != nil {
		return nil, err
	}
	srv, ok := s.lookup(ref, "Server ID")
	if !ok || !validToken(ref.Type) {
		return nil, s.refuse(cmd(), refusal{code: code})
	}
	return srv, nil
}

// ListJobs is LSTJ t id (§5.8).
func (s *Session) ListJobs(ref protocol.ServerRef) ([]protocol.JobRecord, error) {
	srv, err := s.serverQuery(func() string { return "LSTJ " + ref.String() }, ref, rLSTJ)
	if err != nil {
		return nil, err
	}
	out := s.e.jobRecords(srv, make([]protocol.JobRecord, 0, len(srv.running)+len(srv.waiting)))
	s.dataLog(len(out), 59, func(b []byte) []byte { return s.e.appendJobList(b, srv) })
	s.e.log.maybeSync()
	return out, nil
}

// CountJobs is CNTJ t id state (§5.9); states 0 and 8 are refused.
func (s *Session) CountJobs(ref protocol.ServerRef, st protocol.JobState) (int, error) {
	cmd := func() string { return "CNTJ " + ref.String() + " " + strconv.Itoa(int(st)) }
	srv, err := s.serverQuery(cmd, ref, rCNTJ)
	if err != nil {
		return 0, err
	}
	n, ok := s.e.cntj(srv, int(st))
	if !ok {
		s.e.errf("%d: Out of bound! (0 - 8); Job state", int(st))
		return 0, s.refuse(cmd(), refusal{code: rCNTJ})
	}
	s.sent(strconv.Itoa(n))
	return n, nil
}

// EstWait is EJWT t id (§5.10).
func (s *Session) EstWait(ref protocol.ServerRef) (int, error) {
	srv, err := s.serverQuery(func() string { return "EJWT " + ref.String() }, ref, rEJWT)
	if err != nil {
		return 0, err
	}
	n := s.e.ejwt(srv)
	s.sent(strconv.Itoa(n))
	return n, nil
}

// QueueLen is LSTQ GQ #.
func (s *Session) QueueLen() (int, error) {
	if err := s.start(func() string { return "LSTQ GQ #" }, false); err != nil {
		return 0, err
	}
	n := len(s.e.gq)
	s.sent(strconv.Itoa(n))
	return n, nil
}

// ListQueue is LSTQ GQ *.
func (s *Session) ListQueue() ([]protocol.QueuedJob, error) {
	if err := s.start(func() string { return "LSTQ GQ *" }, false); err != nil {
		return nil, err
	}
	out := make([]protocol.QueuedJob, len(s.e.gq))
	for i := range out {
		out[i] = s.e.queued(i)
	}
	s.dataLog(len(out), 55, s.e.appendQueueList)
	s.e.log.maybeSync()
	return out, nil
}

// recs returns a slice for n GETS records: the Session's single buffer, or
// with Options.FreshRecords a fresh one (the caller owns it).
func (s *Session) recs(n int) []protocol.Server {
	if s.e.opt.FreshRecords {
		return make([]protocol.Server, n)
	}
	if cap(s.recBuf) < n {
		s.recBuf = make([]protocol.Server, n)
	}
	return s.recBuf[:n]
}
