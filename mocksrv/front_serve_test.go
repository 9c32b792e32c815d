package mocksrv_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
)

// startServe runs srv.Serve on a loopback listener (wrapped by wrap when
// not nil) until the returned stop is called; stop returns Serve's error.
func startServe(t *testing.T, srv *mocksrv.Listener, wrap func(net.Listener) net.Listener) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	if wrap != nil {
		ln = wrap(ln)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	return addr, func() error { cancel(); return <-done }
}

// handshake opens a session and sends HELO and AUTH.
func handshake(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 256)
	for _, m := range []string{"HELO", "AUTH x"} {
		if _, err := c.Write([]byte(m)); err != nil {
			t.Fatal(err)
		}
		n, err := c.Read(buf)
		if err != nil || string(buf[:n]) != "OK" {
			t.Fatalf("%s: %q, %v", m, buf[:n], err)
		}
	}
	return c
}

// failingAccepts is a listener whose Accept fails with EMFILE, as when
// the process is out of file descriptors, while fail is set.
type failingAccepts struct {
	net.Listener
	mu    sync.Mutex
	fail  bool
	tries int
}

func (l *failingAccepts) Accept() (net.Conn, error) {
	for {
		l.mu.Lock()
		fail := l.fail
		if fail {
			l.tries++
		}
		l.mu.Unlock()
		if !fail {
			return l.Listener.Accept()
		}
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
}

func (l *failingAccepts) set(fail bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fail = fail
	return l.tries
}

// TestServeRetriesFailedAccepts: accept failing (out of file descriptors)
// no longer ends Serve, and with it every live session: it is said once,
// retried at growing intervals while a session goes on, and once accepting
// works the next client is served.
func TestServeRetriesFailedAccepts(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	sys := systemOf(t, cfg)
	var stderr lockedBuffer
	srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Level: mocksrv.LevelBrief, Stderr: &stderr}, Log: &lockedBuffer{}}
	var fl *failingAccepts
	addr, stop := startServe(t, srv, func(ln net.Listener) net.Listener { fl = &failingAccepts{Listener: ln}; return fl })
	live := handshake(t, addr) // accepted before the failures
	defer live.Close()
	fl.set(true)
	// Serve waits in an accept that began before: a connection ends it,
	// and the accepts after it fail.
	trigger, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	trigger.Close()
	time.Sleep(300 * time.Millisecond)
	tries := fl.set(false)
	if tries < 3 || tries > 100 {
		t.Errorf("%d tries in 300 ms: want a few, at growing intervals (5 ms doubling)", tries)
	}
	// The live session goes on, and the next connection is served: the
	// retry after the failures is at most a second away.
	if _, err := live.Write([]byte("REDY")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	if n, err := live.Read(buf); err != nil || !strings.HasPrefix(string(buf[:n]), "JOBN") {
		t.Fatalf("the live session after the failures: %q, %v", buf[:n], err)
	}
	if err := runWire(t, addr, "ff", protocol.Plain, sys, nil); err != nil {
		t.Fatalf("a session after the failures: %v", err)
	}
	live.Close()
	if err := stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	msgs := stderr.String()
	if !regexp.MustCompile(`dsmock: accepting a connection failed: accept tcp: accept4: too many open files; retrying, at most a second apart, while the [12] sessions go on\n`).MatchString(msgs) ||
		strings.Count(msgs, "accepting a connection failed") != 1 || !strings.Contains(msgs, "dsmock: accepting connections again after ") {
		t.Errorf("stderr %q", msgs)
	}
}

// TestServeMaxSessions: beyond MaxSessions live sessions a connection is
// refused with a message the client reads, and said on stderr; once a
// session ends, a new one is served.
func TestServeMaxSessions(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	var stderr lockedBuffer
	srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Stderr: &stderr}, Log: &lockedBuffer{}, MaxSessions: 2}
	addr, stop := startServe(t, srv, nil)
	a, b := handshake(t, addr), handshake(t, addr)
	defer b.Close()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	c.Write([]byte("HELO"))
	var got bytes.Buffer
	got.ReadFrom(c)
	c.Close()
	if want := "ERR: dsmock runs 2 sessions, its most at once (--max-sessions): try again later"; got.String() != want {
		t.Errorf("the third client read %q, want %q", got.String(), want)
	}
	if !strings.Contains(stderr.String(), "sessions run, the most at once (--max-sessions 2)") {
		t.Errorf("stderr %q", stderr.String())
	}
	a.Close()
	ok := false
	for i := 0; i < 100 && !ok; i++ { // a's session ends as its read fails
		d, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		d.SetDeadline(time.Now().Add(10 * time.Second))
		d.Write([]byte("HELO"))
		buf := make([]byte, 128)
		n, _ := d.Read(buf)
		d.Close()
		ok = string(buf[:n]) == "OK"
		time.Sleep(10 * time.Millisecond)
	}
	if !ok {
		t.Error("no session served after one ended")
	}
	b.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestServeSessionLogMax: a client that makes its session's log grow past
// SessionLogMax (junk at -v all) is ended with ErrLogTooLarge and the log
// so far, which says where it ends; a session beside it is untouched.
func TestServeSessionLogMax(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	sys := systemOf(t, cfg)
	var log lockedBuffer
	var mu sync.Mutex
	var ends []error
	srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Level: mocksrv.LevelAll, Stderr: &lockedBuffer{}}, Log: &log,
		SessionLogMax: 1 << 20, SessionLabel: func(n int, _ net.Addr) string { return fmt.Sprint("session ", n) },
		OnEnd: func(_ *mocksrv.Text, err error) { mu.Lock(); ends = append(ends, err); mu.Unlock() }}
	addr, stop := startServe(t, srv, nil)
	flood := handshake(t, addr)
	defer flood.Close()
	junk := []byte(strings.Repeat("x", 1000))
	buf := make([]byte, 2048)
	sent := 0
	for ; sent < 100000; sent++ {
		if _, err := flood.Write(junk); err != nil {
			break
		}
		if _, err := flood.Read(buf); err != nil {
			break
		}
	}
	if sent == 100000 {
		t.Fatal("the flooding client was never ended")
	}
	if err := runWire(t, addr, "atl", protocol.Plain, sys, nil); err != nil {
		t.Fatalf("a session beside the flood: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	// The sessions end in either order (the flood's ends as its
	// connection's close is seen).
	if len(ends) != 2 || (ends[0] == nil) == (ends[1] == nil) || !errors.Is(ends[0], mocksrv.ErrLogTooLarge) && !errors.Is(ends[1], mocksrv.ErrLogTooLarge) {
		t.Fatalf("sessions ended with %v, want ErrLogTooLarge and nil", ends)
	}
	out := log.String()
	start := strings.Index(out, "# session 1\n") + len("# session 1\n")
	end := strings.Index(out, "\n# dsmock: the log ends here: the session's log passed its limit of 1048576 bytes (dsmock --session-log-max)\n")
	if start < len("# session 1\n") || end < 0 {
		t.Fatalf("the flood's log does not say where it ends")
	}
	if end-start != 1<<20 {
		t.Errorf("the flood's log ends after %d bytes: it should stop at the limit, 1 MiB", end-start)
	}
	second := out[strings.Index(out, "# session 2\n"):]
	if i := strings.Index(second[1:], "\n# session"); i >= 0 {
		second = second[:i+2]
	}
	if !strings.HasSuffix(second, readExpected(t, "sample-config01", "atl")) {
		t.Error("the other session's report is not the expected one")
	}
}
