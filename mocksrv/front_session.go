package mocksrv

import (
	"errors"

	"github.com/dssim-go/dssim-go/mocksrv/engine"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
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
	e       *engine.Engine
	cfg     *simconfig.Config
	fresh   bool // Options.FreshRecords
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
func NewSession(cfg *Config, opt Options) (*Session, error) {
	e, err := engine.NewEngine(cfg, opt)
	if err != nil {
		return nil, err
	}
	return &Session{e: e, cfg: cfg, fresh: opt.FreshRecords}, nil
}

// Engine exposes the simulation (files, after QUIT).
func (s *Session) Engine() *engine.Engine { return s.e }

// System returns the server types as a client reads them from the
// ds-system.xml this simulation writes: sorted order, each rate as printed
// there (%.2f of the float32 value, ds-server.md §1.7). It is that file,
// parsed, so it refuses what a client refuses: a rate that is NaN or
// infinite, which ds-server and the simulation accept (servertypes.Parse).
func (s *Session) System() (*servertypes.System, error) {
	if s.sys == nil {
		sys, err := servertypes.Parse("ds-system.xml", SystemXML(s.cfg, s.e.Year()))
		if err != nil {
			return nil, err
		}
		s.sys = sys
	}
	return s.sys, nil
}

// Flush writes the buffered log text to Options.Log.
func (s *Session) Flush() { s.e.Flush() }

// Report returns the end-of-run report; nil before Quit.
func (s *Session) Report() *Report { return s.rep }

func (s *Session) rcvd(msg string) { s.e.LogRcvd(msg) }

func (s *Session) sent(msg string) { s.e.LogSent(msg) }

// refuse logs and returns an ERR reply.
func (s *Session) refuse(cmd string, r engine.Refusal) error {
	txt := r.Text(cmd)
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
			s.e.Stderr("ERR: invalid message (" + c + ")!")
			s.sent("ERR")
			return &protocol.ServerError{Command: c, Text: "ERR"}
		}
		s.phase = phMain
	}
	if s.e.ProtoOn() {
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
	s.e.Welcome(" " + user)
	s.e.SystemInfo()
	s.sent("OK")
	s.phase = phPre
	s.e.MaybeFlush()
	return nil
}

// Ready is REDY (§3.2).
func (s *Session) Ready() (protocol.Event, error) {
	if err := s.start(func() string { return "REDY" }, true); err != nil {
		return nil, err
	}
	ev := s.event(s.e.Exec(&engine.Command{Op: engine.OpREDY}).Event)
	s.e.MaybeFlush()
	return s.protoEvent(ev), nil
}

// event logs an event reply (REDY, or PSHJ with no job on offer).
func (s *Session) event(ev engine.Event) engine.Event {
	if s.e.ProtoOn() {
		s.scratch = s.e.AppendEvent(s.scratch[:0], ev)
		s.e.LogSentBytes(s.scratch)
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
	defer s.e.MaybeFlush()
	c := actionCommand(a)
	r := s.e.Exec(&c)
	switch r.Kind {
	case engine.ReplyRefused:
		return "", s.refuse(a.String(), r.Refusal)
	case engine.ReplyEvent:
		ev := s.event(r.Event)
		s.scratch = s.e.AppendEvent(s.scratch[:0], ev)
		return string(s.scratch), nil
	}
	reply := r.Line()
	s.sent(reply)
	return reply, nil
}

// actionCommand is the engine command of an action; an unknown action type
// is an invalid command (decision 3).
func actionCommand(a protocol.Action) engine.Command {
	switch a := a.(type) {
	case protocol.Schedule:
		return engine.Command{Op: engine.OpSCHD, Job: a.JobID, Server: engine.Ref(a.Server)}
	case protocol.Enqueue:
		return engine.Command{Op: engine.OpENQJ, Queue: protocol.GlobalQueue}
	case protocol.Dequeue:
		return engine.Command{Op: engine.OpDEQJ, N: a.QID}
	case protocol.Push:
		return engine.Command{Op: engine.OpPSHJ}
	case protocol.Migrate:
		return engine.Command{Op: engine.OpMIGJ, Job: a.JobID, Server: engine.Ref(a.From), To: engine.Ref(a.To)}
	case protocol.Kill:
		return engine.Command{Op: engine.OpKILJ, Job: a.JobID, Server: engine.Ref(a.Server)}
	case protocol.Terminate:
		return engine.Command{Op: engine.OpTERM, Server: engine.Ref(a.Server)}
	case protocol.ScheduleMem:
		// The memory extension's SCHM; the engine refuses it as an invalid
		// command when the extension is off, as ds-server does.
		return engine.Command{Op: engine.OpSCHM, Job: a.JobID, Server: engine.Ref(a.Server), Alloc: a.AllocMem}
	}
	return engine.Command{Op: engine.OpInvalid}
}

// protoEvent is the typed value of a REDY outcome.
func (s *Session) protoEvent(ev engine.Event) protocol.Event {
	switch ev.Kind() {
	case engine.EventJob:
		j := s.e.JobOf(ev)
		return &protocol.JobOffer{Job: protocol.Job{ID: j.ID, Submit: ev.Time(), Cores: j.Cores, Memory: j.Memory,
			Disk: j.Disk, EstRunTime: j.EstRunTime}, Resubmitted: ev.Resubmitted()}
	case engine.EventJCPL:
		return &protocol.JobCompleted{Time: ev.Time(), JobID: s.e.JobOf(ev).ID, Server: protocol.ServerRef(s.e.ServerOf(ev))}
	case engine.EventRESF:
		return &protocol.ServerFailed{Server: protocol.ServerRef(s.e.ServerOf(ev)), Time: ev.Time()}
	case engine.EventRESR:
		return &protocol.ServerRecovered{Server: protocol.ServerRef(s.e.ServerOf(ev)), Time: ev.Time()}
	case engine.EventCHKQ:
		return &protocol.CheckQueue{}
	}
	return &protocol.NoMoreJobs{}
}

// Quit is QUIT (§1.6): every scheduled job runs to completion, then the
// report is computed (and logged).
func (s *Session) Quit() error {
	// QUIT before the simulation started gets ERR (§1.5 step 3).
	if err := s.start(func() string { return "QUIT" }, false); err != nil {
		return err
	}
	s.e.Exec(&engine.Command{Op: engine.OpQUIT})
	s.sent("QUIT")
	s.phase = phEnded
	s.rep = s.e.Finish()
	return nil
}
