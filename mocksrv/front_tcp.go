package mocksrv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// DefaultReadTimeout is how long a connection may stay silent before the
// simulation is abandoned: generous, since a person may be typing the
// client's side, but finite so that a dead client never hangs dsmock.
const DefaultReadTimeout = 10 * time.Minute

// maxMessage is ds-server's read size: one read of at most 1023 bytes is
// one message in plain mode (§1.2, decision 1).
const maxMessage = 1023

// logFlushEvery is how often ServeConn writes the buffered log.
const logFlushEvery = 50 * time.Millisecond

// ErrDisconnected is the cause when a client goes away without QUIT
// (decision 4: no report, no files).
var ErrDisconnected = errors.New("the client disconnected without QUIT")

// ErrSilent is the cause when a client sends nothing for the read timeout.
var ErrSilent = errors.New("the client sent nothing for too long")

// ServeConn runs the dialogue of t over c until QUIT, a fatal message or a
// broken connection; it does not close c. Plain mode reads one chunk per
// message, newline mode one line (decision 1). Every read has a deadline
// of readTimeout (DefaultReadTimeout when 0). It returns nil after QUIT, a
// *Fatal for ds-server's abnormal ends, or an error wrapping
// ErrDisconnected or ErrSilent.
func ServeConn(c net.Conn, t *Text, readTimeout time.Duration) error {
	if readTimeout <= 0 {
		readTimeout = DefaultReadTimeout
	}
	defer t.e.Flush()
	cr := &connReader{c: c, t: t}
	var lr *lineReader
	if t.nl {
		lr = &lineReader{r: cr}
	}
	buf := make([]byte, maxMessage)
	lastFlush := time.Now()
	for {
		// The log is buffered; someone watching it live sees it at most
		// logFlushEvery late, without a write per message.
		if now := time.Now(); now.Sub(lastFlush) >= logFlushEvery {
			t.e.Flush()
			lastFlush = now
		}
		var msg string
		if lr != nil {
			line, err := lr.next(readTimeout)
			if err != nil {
				return readErr(err, readTimeout)
			}
			// A message without its '\n' (a client in plain framing, or
			// one that closed) goes to the text front, which reports
			// ds-server's "No new line" error and ends the session.
			msg = line
		} else {
			n, err := cr.read(buf, readTimeout)
			if n == 0 {
				if err == nil {
					continue
				}
				return readErr(err, readTimeout)
			}
			msg = string(buf[:n])
		}
		reply, done, ferr := t.Handle(msg)
		if reply != nil {
			if err := c.SetWriteDeadline(time.Now().Add(readTimeout)); err != nil {
				return fmt.Errorf("%w: %v", ErrDisconnected, err)
			}
			if _, err := c.Write(reply); err != nil {
				if ferr != nil {
					return ferr
				}
				if done && t.rep != nil {
					// QUIT was processed: the simulation is complete even
					// if the client did not wait for the reply.
					return nil
				}
				return fmt.Errorf("%w: %v", ErrDisconnected, err)
			}
		}
		if ferr != nil {
			return ferr
		}
		if done {
			return nil
		}
	}
}

// connReader reads the client's messages for ServeConn. A read that waits
// longer than logFlushEvery writes the buffered log while it waits: the
// lines just before a stall (a client waiting for a reply that will not
// come, such as the records of a DATA it did not answer with OK) are then
// on stdout while the session waits, not only when it ends, which may be
// never when the user interrupts dsmock. A client that answers at once
// never meets that deadline, so a well-behaved run writes no more often.
type connReader struct {
	c net.Conn
	t *Text
}

// read reads into p, waiting at most wait for something to arrive. Errors
// are the connection's (a timeout when nothing came within wait).
func (r *connReader) read(p []byte, wait time.Duration) (int, error) {
	now := time.Now()
	end := now.Add(wait)
	deadline := end
	if r.t.e.LogPending() && wait > logFlushEvery {
		deadline = now.Add(logFlushEvery)
	}
	for {
		if err := r.c.SetReadDeadline(deadline); err != nil {
			return 0, err
		}
		n, err := r.c.Read(p)
		if n > 0 || deadline.Equal(end) || !errors.Is(err, os.ErrDeadlineExceeded) {
			return n, err
		}
		r.t.e.Flush() // the client is silent: show what it is waiting after
		deadline = end
	}
}

// maxLine bounds a newline-mode message: a client that never sends '\n'
// cannot make dsmock buffer without limit.
const maxLine = 64 << 10

// ErrTooLong is the cause when a newline-mode message exceeds maxLine.
var ErrTooLong = errors.New("the client sent a line longer than 64 KiB")

// partialLineWait is how long newline framing waits for the rest of a
// message that arrived without its '\n'. ds-server reads each message with
// one read and exits at once when it does not end in '\n' (§1.4): that is
// what a client speaking plain framing to a server run with -n meets, and
// it must not wait for its own timeout. A message split by TCP has its
// rest within microseconds on loopback and milliseconds over a network, so
// a short wait keeps such a split harmless and a framing mismatch ends
// well within a second.
const partialLineWait = 100 * time.Millisecond

// lineReader reads newline-framed messages through r.
type lineReader struct {
	r     *connReader
	buf   []byte // received, not yet returned
	chunk [4096]byte
}

// next returns the next message: a line with its '\n'; or, when bytes
// without a '\n' are followed by nothing for partialLineWait or by the end
// of the connection, those bytes. Reads wait at most timeout for the first
// byte of a message; an error is returned only when no byte of a message
// arrived.
func (r *lineReader) next(timeout time.Duration) (string, error) {
	for {
		if i := bytes.IndexByte(r.buf, '\n'); i >= 0 {
			line := string(r.buf[:i+1])
			r.buf = r.buf[:copy(r.buf, r.buf[i+1:])]
			return line, nil
		}
		if len(r.buf) > maxLine {
			return "", ErrTooLong
		}
		wait := timeout
		if len(r.buf) > 0 {
			wait = partialLineWait
		}
		n, err := r.r.read(r.chunk[:], wait)
		r.buf = append(r.buf, r.chunk[:n]...)
		if err != nil && bytes.IndexByte(r.buf, '\n') < 0 {
			if len(r.buf) == 0 {
				return "", err
			}
			msg := string(r.buf)
			r.buf = r.buf[:0]
			return msg, nil
		}
	}
}

func readErr(err error, timeout time.Duration) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("%w (%v)", ErrSilent, timeout)
	}
	if errors.Is(err, io.EOF) {
		return ErrDisconnected
	}
	if errors.Is(err, ErrTooLong) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrDisconnected, err)
}

// Listener serves simulations of one config over TCP (the name says what
// it does with a net.Listener; protocol.Server is a GETS record).
type Listener struct {
	Config *Config
	// Options for every simulation. In Serve mode each connection's log is
	// collected and written to Log in one piece when it ends, so that
	// concurrent logs never interleave; Options.Log is then ignored.
	Options     Options
	Log         io.Writer
	ReadTimeout time.Duration
	// WrapConn, when not nil, wraps each accepted connection before use:
	// the commands pass a busy-polling reader here (it saves the thread
	// wake-up on each of the protocol's round trips), which this package
	// leaves to them. nil: the plain connection.
	WrapConn func(net.Conn) net.Conn
	// OnAuth receives ds-system.xml at each AUTH (§1.5).
	OnAuth func(systemXML []byte) error
	// MaxRefusedOffers is Text.MaxRefusedOffers for every connection: 0
	// (dsmock) serves as ds-server does, looping with a client that is
	// refused forever.
	MaxRefusedOffers int
	// Command is Text.Command for every connection: the command named in
	// the hints of a session ended on a message the server cannot read
	// ("dsmock" when empty).
	Command string
	// OnEnd is called when a connection's simulation ends, after its log
	// and report are written, with its text front (files, report) and the
	// error that ended it (nil after QUIT). In Serve mode with
	// SessionLabel set, that error is a *SessionError carrying the
	// session's label, which t.Label() gives after a QUIT too.
	OnEnd func(t *Text, err error)
	// SessionLabel, when not nil, names each connection in Serve mode
	// (n counts them from 1): "# " and the label are written to Log as a
	// line before the session's log and report, so that the reports of concurrent
	// sessions can be told apart, and Text.Label returns it. nil: no
	// label (the reports as ds-server prints them).
	SessionLabel func(n int, remote net.Addr) string
	// MaxSessions bounds the sessions Serve runs at once (0: no bound): a
	// connection beyond it is sent a refusal ("ERR: ...") and closed, and
	// the refusal said on Options.Stderr.
	MaxSessions int
	// SessionLogMax bounds a Serve session's log in bytes (0: no bound):
	// a session whose log passes it is ended, with the log so far and an
	// error wrapping ErrLogTooLarge. Below it a session's log is kept in
	// memory up to 64 KiB, then in a temporary file, so that memory stays
	// bounded whatever a client makes the log grow to.
	SessionLogMax int64
}

// SessionError is the error that ended a labelled session (Serve with
// SessionLabel): the label and the cause, which errors.As and errors.Is see.
type SessionError struct {
	Label string
	Err   error
}

func (e *SessionError) Error() string { return e.Label + ": " + e.Err.Error() }
func (e *SessionError) Unwrap() error { return e.Err }

func (s *Listener) wrap(c net.Conn) net.Conn {
	if s.WrapConn == nil {
		return c
	}
	return s.WrapConn(c)
}

// ServeOne is ds-server's behaviour: accept one connection, run it, return
// (§1.1). The header lines are logged (to Options.Log) before accepting.
func (s *Listener) ServeOne(ln net.Listener) (*Text, error) {
	return s.ServeOneContext(context.Background(), ln)
}

// ServeOneContext is ServeOne that ctx can interrupt: when ctx is done
// before the simulation ends, the listener and the connection are closed,
// the log written so far is flushed, and the error wraps ctx's cause (the
// user pressed Ctrl-C while a client stalled: what was logged must not be
// lost with the process).
func (s *Listener) ServeOneContext(ctx context.Context, ln net.Listener) (*Text, error) {
	t, err := NewText(s.Config, s.Options)
	if err != nil {
		return nil, err
	}
	t.e.Flush()
	t.OnAuth = s.OnAuth
	t.MaxRefusedOffers = s.MaxRefusedOffers
	t.Command = s.Command
	stopLn := context.AfterFunc(ctx, func() { ln.Close() })
	c, err := ln.Accept()
	stopLn()
	if err != nil {
		return t, interrupted(ctx, err)
	}
	defer c.Close()
	// Closing the connection ends ServeConn's read, and ServeConn flushes
	// the log as it returns (it is not safe to flush from here).
	stopConn := context.AfterFunc(ctx, func() { c.Close() })
	err = interrupted(ctx, ServeConn(s.wrap(c), t, s.ReadTimeout))
	stopConn()
	if s.OnEnd != nil {
		s.OnEnd(t, err)
	}
	return t, err
}

// interrupted is err, or when ctx is done and err is not nil (the
// simulation did not end), an error that wraps ctx's cause.
func interrupted(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	return fmt.Errorf("interrupted: %w (%v)", context.Cause(ctx), err)
}

// Serve keeps accepting until ctx is done or ln is closed; each
// connection is an independent simulation of the same config, run
// concurrently. A failed accept (out of file descriptors, say) is said on
// Options.Stderr and retried with a growing delay, up to a second, while
// the sessions go on. It closes ln when ctx is done and waits for running
// connections to end. The header lines are not logged (the caller prints
// them once).
func (s *Listener) Serve(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	st := &serving{gate: sessionGate{max: s.MaxSessions}}
	defer st.end()
	var b acceptBackoff
	for sessions := 0; ; {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			b.wait(ctx, err, s.Options.Stderr, st.gate.count())
			continue
		}
		b.recovered(s.Options.Stderr)
		if running, ok := st.gate.enter(); !ok {
			s.refuse(c, running)
			continue
		}
		sessions++
		label := ""
		if s.SessionLabel != nil {
			label = s.SessionLabel(sessions, c.RemoteAddr())
		}
		st.conns.Store(c, struct{}{})
		st.wg.Add(1)
		go func() {
			defer st.wg.Done()
			defer st.gate.leave()
			defer st.conns.Delete(c)
			defer c.Close()
			s.session(c, label, &st.logMu)
		}()
	}
}

// serving is what Serve's sessions share.
type serving struct {
	wg    sync.WaitGroup
	logMu sync.Mutex // serialises log output
	conns sync.Map   // live connections, closed when Serve returns
	gate  sessionGate
}

// end closes the live connections and waits for their sessions.
func (st *serving) end() {
	st.conns.Range(func(k, _ any) bool { k.(net.Conn).Close(); return true })
	st.wg.Wait()
}

// session runs one Serve connection: its log is spooled (memory, then a
// temporary file) and written to Log in one piece when it ends.
func (s *Listener) session(c net.Conn, label string, logMu *sync.Mutex) {
	opt := s.Options
	opt.NoHeader = true
	opt.Log = nil
	var sp *spool
	if s.Log != nil {
		sp = &spool{max: s.SessionLogMax, over: func() { c.Close() }}
		defer sp.close()
		opt.Log = sp
	}
	t, err := NewText(s.Config, opt)
	if err == nil {
		t.OnAuth = s.OnAuth
		t.MaxRefusedOffers = s.MaxRefusedOffers
		t.Command = s.Command
		t.label = label
		err = ServeConn(s.wrap(c), t, s.ReadTimeout)
	}
	if sp != nil && sp.err != nil {
		err = sp.err // the log's end closed the connection: that is why it ended
	}
	if err != nil && label != "" {
		err = &SessionError{Label: label, Err: err}
	}
	if s.Log != nil {
		logMu.Lock()
		if label != "" {
			fmt.Fprintln(s.Log, "# "+label)
		}
		sp.writeTo(s.Log)
		if sp.err != nil {
			fmt.Fprintf(s.Log, "\n# dsmock: the log ends here: %v\n", sp.err)
		}
		logMu.Unlock()
	}
	if s.OnEnd != nil { // after the log, as in ServeOne: what it says follows the report
		s.OnEnd(t, err)
	}
}

// refuse turns away a connection beyond MaxSessions: stderr says it, the
// client's first read gets the reason, and the connection is closed.
// stderr first: once the client has read to the end, the line is there
// (said after the close, a client or test that looked at once could miss it).
func (s *Listener) refuse(c net.Conn, running int) {
	if s.Options.Stderr != nil {
		fmt.Fprintf(s.Options.Stderr, "dsmock: refused client %s: %d sessions run, the most at once (--max-sessions %d)\n", c.RemoteAddr(), running, s.MaxSessions)
	}
	msg := fmt.Sprintf("ERR: dsmock runs %d sessions, its most at once (--max-sessions): try again later", running)
	if s.Options.Newline || s.Config.Newline {
		msg += "\n"
	}
	c.SetWriteDeadline(time.Now().Add(time.Second))
	c.Write([]byte(msg))
	c.Close()
}
