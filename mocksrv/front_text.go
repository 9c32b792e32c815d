package mocksrv

import (
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv/engine"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// The text front: ds-server's dialogue as text (§1.2-§1.5, §5.1, §5.2),
// its syntax and its replies as bytes. The commands themselves are the
// engine's (engine.Exec); dispatching and parsing them is in
// front_text_dispatch.go.

// Fatal ends a connection the way ds-server ends its process: an exit
// status and a stderr message (decision 2; §1.4, §1.5).
type Fatal struct {
	Status int
	Msg    string // ds-server's stderr line
	// Logged says that Msg is already on Options.Stderr: a handshake
	// failure prints it, as ds-server does, before its ERR.
	Logged bool
	// Hint is dsmock's own explanation for the person running the client
	// (the message as received, quoted, and the likely framing mismatch),
	// "" when there is none. Not ds-server's: print it apart from Msg.
	Hint string
	// Command is the command the hint is from (Text.Command): "dsmock"
	// when empty.
	Command string
}

func (f *Fatal) Error() string { return f.Msg }

// StderrLines are the lines dsmock prints as f ends its session, after
// any the session printed itself: ds-server's line unless it is out
// already (Logged), then the hint, marked as dsmock's.
func (f *Fatal) StderrLines() []string {
	var lines []string
	if !f.Logged {
		lines = append(lines, f.Msg)
	}
	if f.Hint != "" {
		lines = append(lines, commandName(f.Command)+": "+f.Hint)
	}
	return lines
}

// textState is where the text front is in the dialogue.
type textState uint8

const (
	stHELO  textState = iota // waiting for HELO (§1.5)
	stAUTH                   // waiting for AUTH
	stPre                    // pre-simulation loop: only REDY or GETS… start it
	stMain                   // main loop (§5)
	stData1                  // sent DATA n len; waiting for OK (§5.2)
	stData2                  // sent the records; waiting for OK
	stResc                   // RESC: one record per OK (§5.15)
	stDone                   // QUIT processed or fatal
)

// Text is the text front door: one client message in, the reply bytes out,
// exactly as ds-server sends them, and the log written to Options.Log. TCP
// serving uses it. Not safe for concurrent use.
type Text struct {
	e     *engine.Engine
	cfg   *simconfig.Config
	nl    bool
	state textState
	prev  []byte // previous main-loop message, as last sent (newlines accumulate in -n mode, §1.4)
	out   []byte // reply under construction
	data  []byte // pending DATA records
	ndata int
	ids   []int32
	resc  []string // RESC records still to send
	rep   *Report
	// OnAuth is called at AUTH with the ds-system.xml text, between the
	// welcome line and the "system information" line (§1.5); dsmock writes
	// the file there. A non-nil error ends the connection.
	OnAuth func(systemXML []byte) error
	// Command is the command the user ran, named in the hints of a
	// session ended on a message the server cannot read ("dsmock" when
	// empty): dsbench's user is told of dsbench's -n, not dsmock's.
	Command string
	// MaxRefusedOffers, when positive, ends the dialogue with a *Fatal
	// when one job would be offered more than this many times in a row
	// with no action accepted in between (see offerStall); 0, ds-server's
	// behaviour, never ends it.
	MaxRefusedOffers int
	stall            offerStall
	label            string // see Label
	noneSent         bool   // see NoneSent
}

// NoneSent reports whether NONE was sent: every job is done and the
// client's next step is QUIT, which gets it the report.
func (t *Text) NoneSent() bool { return t.noneSent }

// Label is the session's label when Listener.Serve ran it with a
// SessionLabel, "" otherwise: for OnEnd's messages about the session.
func (t *Text) Label() string { return t.label }

// NewText starts a simulation of cfg behind a text front. The header lines
// (§7.1) are logged at once unless opt.NoHeader.
func NewText(cfg *Config, opt Options) (*Text, error) {
	if cfg.Newline {
		opt.Newline = true
	}
	e, err := engine.NewEngine(cfg, opt)
	if err != nil {
		return nil, err
	}
	return &Text{e: e, cfg: cfg, nl: opt.Newline}, nil
}

// Engine exposes the simulation (for files and the report after QUIT).
func (t *Text) Engine() *engine.Engine { return t.e }

// Done reports whether the dialogue is over (QUIT processed, or fatal).
func (t *Text) Done() bool { return t.state == stDone }

// Flush writes the buffered log text to Options.Log. The log is buffered
// (as ds-server's stdout is when redirected) and written in large pieces,
// at the end of the run and when the caller flushes.
func (t *Text) Flush() { t.e.Flush() }

// Report returns the report once QUIT has been processed, else nil.
func (t *Text) Report() *Report { return t.rep }

// Handle processes one client message (in newline mode including its final
// '\n') and returns the bytes to send, nil when ds-server sends nothing
// (a non-OK message inside a DATA exchange, §5.2). The returned slice is
// valid until the next call. done is true when the connection must be
// closed after sending the reply; err is a *Fatal when the reference would
// exit abnormally.
func (t *Text) Handle(raw string) (reply []byte, done bool, err error) {
	defer t.e.MaybeFlush()
	if t.state == stDone {
		return nil, true, nil
	}
	// ds-server handles a message as a C string: a NUL byte ends it
	// ("HELO\x00zz" is HELO). In newline mode the '\n' after a NUL is
	// then not the message's last byte, and the message is refused as
	// ds-server refuses one without its newline.
	msg, _, nul := strings.Cut(raw, "\x00")
	if t.nl {
		if len(msg) == 0 || msg[len(msg)-1] != '\n' {
			err := t.fatal(noNewline + msg + "!")
			err.Hint, err.Command = noNewlineHint(raw, t.cfg.Newline, t.Command), t.Command
			if nul {
				err.Hint = nulHint(raw)
			}
			return nil, true, err
		}
		msg = msg[:len(msg)-1]
	}
	t.out = t.out[:0]
	t.e.LogRcvd(msg)
	switch t.state {
	case stHELO, stAUTH:
		return t.handshake(msg, raw)
	case stPre:
		if msg != "REDY" && !strings.HasPrefix(msg, "GETS") {
			t.e.Stderr(invalidMessage + msg + ")!")
			return t.sendMain("ERR"), false, nil
		}
		t.state = stMain
	case stResc, stData1, stData2:
		return t.dataOK(msg), false, nil
	}
	return t.dispatch(msg)
}

// fatal ends the dialogue with a *Fatal of status 1.
func (t *Text) fatal(msg string) *Fatal {
	t.state = stDone
	t.e.Flush()
	return &Fatal{Status: 1, Msg: msg}
}

// handshake is HELO then AUTH (§1.5); raw is msg as received.
func (t *Text) handshake(msg, raw string) ([]byte, bool, error) {
	if t.state == stHELO {
		if msg != "HELO" {
			return t.handshakeFail(msg, raw)
		}
		t.state = stAUTH
		return t.sendMain("OK"), false, nil
	}
	if len(msg) <= 4 || !strings.HasPrefix(msg, "AUTH") {
		return t.handshakeFail(msg, raw)
	}
	t.e.Welcome(msg[4:])
	if t.OnAuth != nil {
		if err := t.OnAuth(SystemXML(t.cfg, t.e.Year())); err != nil {
			return nil, true, t.fatal(err.Error()) // it names the file (OnAuth)
		}
	}
	t.e.SystemInfo()
	t.state = stPre
	return t.sendMain("OK"), false, nil
}

// dataOK is the client's message inside a DATA exchange (§5.2) or a RESC
// listing (§5.15): only OK moves it on.
func (t *Text) dataOK(msg string) []byte {
	if msg != "OK" {
		t.e.Stderr("The message is supposed to be \"OK\", but received \"" + msg + "\"")
		return nil
	}
	if t.state == stResc {
		if len(t.resc) > 0 {
			r := t.resc[0]
			t.resc = t.resc[1:]
			return t.sendData([]byte(r))
		}
	} else if t.state == stData1 && t.ndata > 0 {
		t.state = stData2
		return t.sendData(t.data)
	}
	t.state = stMain
	return t.sendMain(".")
}

// handshakeFail: the reference replies ERR and crashes [CRASH]; dsmock
// replies ERR and closes with status 1 (Appendix D). The Fatal carries
// ds-server's line, already printed, and dsmock's hint.
func (t *Text) handshakeFail(msg, raw string) ([]byte, bool, error) {
	line := invalidMessage + msg + ")!"
	t.e.Stderr(line)
	first := t.state == stHELO
	r := t.sendMain("ERR")
	f := t.fatal(line)
	f.Logged = true
	f.Hint, f.Command = handshakeHint(raw, first, t.nl, t.cfg.Newline, commandName(t.Command)), t.Command
	return r, true, f
}

// sendMain sends a main-loop message: it becomes the previous message.
func (t *Text) sendMain(msg string) []byte {
	t.e.LogSent(msg)
	t.prev = append(t.prev[:0], msg...)
	if t.nl {
		t.prev = append(t.prev, '\n')
	}
	return t.prev
}

// resend re-sends the previous message; in -n mode the stored buffer gets
// one more '\n' each time [BUG-COMPAT] (§1.4, §5.1). The log shows it
// without the newline added now.
func (t *Text) resend() []byte {
	t.e.LogSentBytes(t.prev)
	if t.nl {
		t.prev = append(t.prev, '\n')
	}
	return t.prev
}

// sendData sends a DATA header or the records (not stored as previous).
func (t *Text) sendData(msg []byte) []byte {
	t.e.LogSentBytes(msg)
	t.out = append(t.out[:0], msg...)
	if t.nl {
		t.out = append(t.out, '\n')
	}
	return t.out
}

// startData begins a DATA exchange with the records already in t.data.
func (t *Text) startData(n, recLen int) []byte {
	t.ndata = n
	t.state = stData1
	h := append([]byte("DATA "), strconv.Itoa(n)...)
	h = append(h, ' ')
	h = strconv.AppendInt(h, int64(recLen), 10)
	return t.sendData(h)
}

// commandName is the command named in hints: cmd, or dsmock.
func commandName(cmd string) string {
	if cmd == "" {
		return "dsmock"
	}
	return cmd
}
