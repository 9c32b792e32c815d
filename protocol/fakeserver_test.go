package protocol_test

import (
	"fmt"
	"io"
	"net"
	"testing"
	"time"
)

// peer is the server side of a scripted loopback connection.
type peer struct {
	c  net.Conn
	nl bool // newline framing
}

// expect reads the client's next message and checks it is exactly cmd.
func (p *peer) expect(cmd string) error {
	want := cmd
	if p.nl {
		want += "\n"
	}
	buf := make([]byte, len(want))
	_ = p.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(p.c, buf); err != nil {
		return fmt.Errorf("waiting for %q: %v (got %q)", cmd, err, buf)
	}
	if string(buf) != want {
		return fmt.Errorf("client sent %q, want %q", buf, want)
	}
	return nil
}

// send writes one server message, in the given pieces (each its own write,
// 2ms apart, so that the client sees several reads).
func (p *peer) send(pieces ...string) error {
	if p.nl {
		pieces[len(pieces)-1] += "\n"
	}
	for i, s := range pieces {
		if i > 0 {
			time.Sleep(2 * time.Millisecond)
		}
		if _, err := io.WriteString(p.c, s); err != nil {
			return err
		}
	}
	return nil
}

// holdUntilClosed keeps the connection open and silent until the client
// closes its end (at most 30 s), for scripts whose client must give up on
// its own read timeout: the client then times out however slowly a loaded
// machine runs the script, instead of racing a fixed pause of the script.
// Anything the client sends meanwhile is an error.
func (p *peer) holdUntilClosed() error {
	_ = p.c.SetReadDeadline(time.Now().Add(30 * time.Second))
	got, err := io.ReadAll(p.c)
	switch {
	case len(got) > 0:
		return fmt.Errorf("client sent %q while the server was silent", got)
	case err != nil:
		return fmt.Errorf("holding the connection until the client closes it: %v", err)
	}
	return nil
}

// reply is expect then send.
func (p *peer) reply(cmd string, pieces ...string) error {
	if err := p.expect(cmd); err != nil {
		return err
	}
	return p.send(pieces...)
}

// fakeServer runs script on the first connection to a loopback listener
// and returns the address; the test fails if the script fails. The
// connection is closed when the script returns.
func fakeServer(t *testing.T, nl bool, script func(p *peer) error) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		ln.Close()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		done <- script(&peer{c: c, nl: nl})
	}()
	t.Cleanup(func() {
		ln.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("fake server: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("fake server: script did not finish")
		}
	})
	return ln.Addr().String()
}
