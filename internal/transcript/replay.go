package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// ReplayOptions configure Replay.
type ReplayOptions struct {
	// Newline replays in -n framing: "\n" after every message both ways
	// (ds-server.md §1.4). The shared transcripts were recorded without it.
	Newline bool
	// OnAuth runs when the client's AUTH has arrived, before the server's
	// OK: the point where ds-server writes ds-system.xml (§1.5). It gets
	// the user name (everything after "AUTH ").
	OnAuth func(user string) error
	// Timeout bounds the wait for each client message (default 10s).
	Timeout time.Duration
	// SkipCloseCheck returns right after the last message instead of
	// waiting for the client to close the connection: for scripts that
	// end a dialogue abruptly (the caller then closes or holds it).
	SkipCloseCheck bool
}

// Replay plays the server's side of a recorded dialogue over conn: it
// writes every Sent message with one write, as ds-server does, and checks
// that every message the client sends is, byte for byte, the next Rcvd
// message. After the last message the client must close the connection
// without sending anything more. The error names the first difference and
// its log line.
func Replay(conn net.Conn, msgs []Message, opt ReplayOptions) error {
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Second
	}
	r := &replayer{c: conn, opt: opt}
	for i, m := range msgs {
		if m.Dir == Sent {
			out := m.Text
			if opt.Newline {
				out += "\n"
			}
			if _, err := io.WriteString(conn, out); err != nil {
				return fmt.Errorf("transcript line %d (message %d of %d): writing %q: %w", m.Line, i+1, len(msgs), m.Text, err)
			}
			continue
		}
		if err := r.expect(m); err != nil {
			return fmt.Errorf("transcript line %d (message %d of %d): %w", m.Line, i+1, len(msgs), err)
		}
		if user, ok := m.authUser(); ok && opt.OnAuth != nil {
			if err := opt.OnAuth(user); err != nil {
				return fmt.Errorf("transcript line %d: at AUTH: %w", m.Line, err)
			}
		}
	}
	if opt.SkipCloseCheck {
		return nil
	}
	return r.expectClose()
}

type replayer struct {
	c       net.Conn
	opt     ReplayOptions
	pending []byte
}

func (r *replayer) read(deadline time.Time) error {
	if err := r.c.SetReadDeadline(deadline); err != nil {
		return err
	}
	buf := make([]byte, 4096)
	n, err := r.c.Read(buf)
	r.pending = append(r.pending, buf[:n]...)
	if n > 0 {
		return nil
	}
	return err
}

// expect reads the client's next message and compares it with m.
func (r *replayer) expect(m Message) error {
	want := []byte(m.Text)
	if r.opt.Newline {
		want = append(want, '\n')
	}
	deadline := time.Now().Add(r.opt.Timeout)
	for {
		if len(r.pending) >= len(want) || !bytes.HasPrefix(want, r.pending) {
			if !bytes.HasPrefix(r.pending, want) {
				r.gather()
				return fmt.Errorf("client sent %q, transcript has %q", r.pending, want)
			}
			if len(r.pending) > len(want) {
				return fmt.Errorf("client sent %q, transcript has %q (the rest came without waiting for a reply)", r.pending, want)
			}
			r.pending = r.pending[:0]
			return nil
		}
		if err := r.read(deadline); err != nil {
			if len(r.pending) == 0 {
				return fmt.Errorf("waiting for the client's %q: %w", want, err)
			}
			return fmt.Errorf("waiting for the client's %q: got only %q: %w", want, r.pending, err)
		}
	}
}

// gather collects what else the client sends within a short while, so
// that a mismatch shows the client's whole message.
func (r *replayer) gather() {
	stop := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(stop) {
		if r.read(stop) != nil {
			return
		}
	}
}

// expectClose checks the client closes the connection after the dialogue.
func (r *replayer) expectClose() error {
	deadline := time.Now().Add(r.opt.Timeout)
	for {
		err := r.read(deadline)
		if len(r.pending) > 0 {
			return fmt.Errorf("client sent %q after the last message of the transcript", r.pending)
		}
		switch {
		case err == nil:
			continue
		case errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed):
			return nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			return fmt.Errorf("client did not close the connection within %v after the last message", r.opt.Timeout)
		}
		return nil // reset by the peer: closed too
	}
}
