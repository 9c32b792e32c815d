package mocksrv_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

// serveOne starts a single-connection server on a free loopback port and
// returns its address and a channel with the outcome.
type served struct {
	t   *mocksrv.Text
	err error
}

func serveOne(t testing.TB, cfg *mocksrv.Config, opt mocksrv.Options, timeout time.Duration) (string, <-chan served) {
	t.Helper()
	return serveListener(t, &mocksrv.Listener{Config: cfg, Options: opt, ReadTimeout: timeout})
}

// serveListener is serveOne with the listener's settings given whole.
func serveListener(t testing.TB, srv *mocksrv.Listener) (string, <-chan served) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan served, 1)
	go func() {
		defer ln.Close()
		tx, err := srv.ServeOne(ln)
		ch <- served{tx, err}
	}()
	return ln.Addr().String(), ch
}

// runWire runs a strategy over TCP with the project's wire client.
// afterAuth, when not nil, is called between the handshake and the first
// REDY (a barrier for tests of simultaneous sessions).
func runWire(t testing.TB, addr, algo string, framing protocol.Framing, sys *servertypes.System, afterAuth func()) error {
	t.Helper()
	c, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{ConnectTimeout: 5 * time.Second,
		ConnOptions: protocol.ConnOptions{Framing: framing, ReadTimeout: 20 * time.Second}})
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := strategies.New(algo, nil)
	if err != nil {
		return err
	}
	_, err = client.Run(st, c, client.Options{User: "root",
		System: func(client.Backend) (*servertypes.System, error) {
			if afterAuth != nil {
				afterAuth()
			}
			return sys, nil
		}})
	return err
}

func systemOf(t testing.TB, cfg *mocksrv.Config) *servertypes.System {
	t.Helper()
	sys, err := servertypes.Parse("ds-system.xml", mocksrv.SystemXML(cfg, 0))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func readExpected(t testing.TB, name, algo string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "expected", name+"."+algo+".summary"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tcpSample is a spread of the expected summaries: every algorithm, small
// and large configs, the failure fixture.
var tcpSample = [][2]string{
	{"sample-config01", "atl"}, {"sample-config02", "lrr"}, {"config20-short-low", "ff"},
	{"config100-med-high", "bf"}, {"ds-sample-config03", "wf"}, {"sample-config05", "fc"},
	{"config20-long-high", "fafc"}, {"ds-sample-config05-failures", "ffq"},
	{"ds-sample-config05-failures", "bfq"}, {"ds-sample-config05-failures", "wfq"},
	{"config100-long-high", "ff"},
}

// TestTCPSummaries: a sample of the expected summaries through TCP (text
// front, ServeOne, the wire client), at -v brief, byte for byte.
func TestTCPSummaries(t *testing.T) {
	for _, c := range tcpSample {
		name, algo := c[0], c[1]
		t.Run(name+"."+algo, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(fixtures.Dir(t), "fixtures", name)); err != nil {
				t.Fatalf("fixture %s missing from the repository's reference data", name)
			}
			cfg := fixtureConfig(t, name)
			addr, ch := serveOne(t, cfg, mocksrv.Options{Level: mocksrv.LevelBrief}, 0)
			if err := runWire(t, addr, algo, protocol.Plain, systemOf(t, cfg), nil); err != nil {
				t.Fatal(err)
			}
			r := <-ch
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got, want := r.t.Report().Text, readExpected(t, name, algo); got != want {
				t.Fatalf("summary differs:\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

// TestDoorsAgree: the same strategy through both doors (text front over TCP
// with the wire client; in-process Session) gives the same stdout log, byte
// for byte from line 4, at -v all and -v brief, plain and newline mode, and
// the same report numbers.
func TestDoorsAgree(t *testing.T) {
	cases := []struct {
		name, algo string
		lvl        mocksrv.Level
		nl         bool
	}{
		{"sample-config01", "bf", mocksrv.LevelAll, false},
		{"ds-sample-config02", "fafc", mocksrv.LevelAll, true},
		{"config20-med-med", "wfq", mocksrv.LevelAll, false},
		{"ds-sample-config05-failures", "ffq", mocksrv.LevelAll, false},
		{"ds-sample-config05-failures", "bfq", mocksrv.ParseLevel("all+"), true},
		{"config100-short-high", "ff", mocksrv.LevelBrief, false},
		{"sample-config03", "lrr", mocksrv.ParseLevel("jobs"), false},
		{"sample-config04", "wf", mocksrv.ParseLevel("stats+"), true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s.%s.%s.nl=%v", c.name, c.algo, c.lvl.Word, c.nl), func(t *testing.T) {
			cfg := fixtureConfig(t, c.name)
			var wireLog, inLog bytes.Buffer
			opt := mocksrv.Options{Level: c.lvl, Newline: c.nl, Log: &wireLog, CommandLine: "x", Port: 1}
			addr, ch := serveOne(t, cfg, opt, 0)
			fr := protocol.Plain
			if c.nl {
				fr = protocol.Newline
			}
			if err := runWire(t, addr, c.algo, fr, systemOf(t, cfg), nil); err != nil {
				t.Fatal(err)
			}
			r := <-ch
			if r.err != nil {
				t.Fatal(r.err)
			}
			opt.Log = &inLog
			s := runInProcess(t, cfg, c.algo, opt)
			if d := diffLines(wireLog.String(), inLog.String()); d != "" {
				t.Fatalf("logs differ (text front vs Session):\n%s", d)
			}
			a, b := *r.t.Report(), *s.Report()
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("reports differ:\n%+v\n%+v", a, b)
			}
			if !strings.Contains(inLog.String(), a.Text) {
				t.Fatal("the report text is not in the log")
			}
		})
	}
}

// diffLines returns the first differing line with context, or "".
func diffLines(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(x) || i < len(y); i++ {
		var p, q string
		if i < len(x) {
			p = x[i]
		}
		if i < len(y) {
			q = y[i]
		}
		if p != q || i >= len(x) || i >= len(y) {
			lo := max(0, i-4)
			ctx := strings.Join(x[lo:i], "\n")
			return fmt.Sprintf("line %d:\ncontext:\n%s\ntext front: %q\nsession:    %q", i+1, ctx, p, q)
		}
	}
	return ""
}

// TestServeConcurrent: --serve mode, 100 simultaneous sessions of the same
// config, each summary correct; no goroutine outlives Serve.
func TestServeConcurrent(t *testing.T) {
	defer goleak.VerifyNone(t)
	name := "sample-config02"
	cfg := fixtureConfig(t, name)
	algos := []string{"atl", "lrr", "ff", "bf", "wf", "fc", "fafc", "ffq", "bfq", "wfq"}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	reports := map[*mocksrv.Text]error{}
	var log bytes.Buffer
	srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Level: mocksrv.LevelBrief}, Log: &log,
		OnEnd: func(tx *mocksrv.Text, err error) {
			mu.Lock()
			reports[tx] = err
			mu.Unlock()
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	sys := systemOf(t, cfg)
	const rounds = 10 // × 10 algorithms = 100 sessions at once
	// Every client completes its handshake before any sends REDY: the 100
	// simulations are all open at the same time.
	var authed sync.WaitGroup
	authed.Add(rounds * len(algos))
	barrier := func() { authed.Done(); authed.Wait() }
	var wg sync.WaitGroup
	errs := make(chan error, rounds*len(algos))
	for r := 0; r < rounds; r++ {
		for _, a := range algos {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := runWire(t, ln.Addr().String(), a, protocol.Plain, sys, barrier); err != nil {
					errs <- fmt.Errorf("%s: %w", a, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, a := range algos {
		want[readExpected(t, name, a)] += rounds
	}
	got := map[string]int{}
	for tx, err := range reports {
		if err != nil {
			t.Errorf("a session ended with %v", err)
			continue
		}
		got[tx.Report().Text]++
	}
	if len(reports) != rounds*len(algos) {
		t.Fatalf("%d sessions ended, want %d", len(reports), rounds*len(algos))
	}
	for txt, n := range want {
		if got[txt] != n {
			t.Errorf("summary seen %d times, want %d:\n%s", got[txt], n, txt)
		}
	}
	if c := strings.Count(log.String(), "# ==================================== [ Summary ]"); c != rounds*len(algos) {
		t.Errorf("%d reports in the combined log, want %d", c, rounds*len(algos))
	}
}

// TestServeLabelsSessions: with SessionLabel, each session's log follows a
// "# label" line, and OnEnd, called once that log is written, can name
// the session (Text.Label) after a QUIT as after an error; without it
// Label is "".
func TestServeLabelsSessions(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	sys := systemOf(t, cfg)
	for _, labelled := range []bool{true, false} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		ended := make(chan string) // per session: its label, and the reports in the log at OnEnd
		srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Level: mocksrv.LevelBrief}, Log: &log,
			OnEnd: func(tx *mocksrv.Text, err error) {
				if err != nil {
					t.Errorf("session ended with %v", err)
				}
				ended <- fmt.Sprintf("%q %d", tx.Label(), strings.Count(log.String(), "[ Summary ]"))
			}}
		if labelled {
			srv.SessionLabel = func(n int, _ net.Addr) string { return fmt.Sprintf("session %d", n) }
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, ln) }()
		var seen []string
		for range 2 { // one after the other: the log is written by one session at a time
			if err := runWire(t, ln.Addr().String(), "ff", protocol.Plain, sys, nil); err != nil {
				t.Fatal(err)
			}
			select {
			case e := <-ended:
				seen = append(seen, e)
			case <-time.After(10 * time.Second):
				t.Fatal("OnEnd was not called")
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		want := []string{`"session 1" 1`, `"session 2" 2`}
		if !labelled {
			want = []string{`"" 1`, `"" 2`}
		}
		if fmt.Sprint(seen) != fmt.Sprint(want) {
			t.Errorf("labelled %v: OnEnd saw %v, want %v", labelled, seen, want)
		}
		if got := strings.Contains(log.String(), "# session 2\n"); got != labelled {
			t.Errorf("labelled %v: a '# session 2' line in the log: %v", labelled, got)
		}
	}
}

// TestServeDisconnect: a client that goes away mid-run ends that
// simulation with ErrDisconnected and no report (decision 4).
func TestServeDisconnect(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	addr, ch := serveOne(t, cfg, mocksrv.Options{}, 0)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	for _, m := range []string{"HELO", "AUTH x", "REDY"} {
		if _, err := c.Write([]byte(m)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	r := <-ch
	if !errors.Is(r.err, mocksrv.ErrDisconnected) {
		t.Fatalf("err = %v, want ErrDisconnected", r.err)
	}
	if r.t.Report() != nil {
		t.Fatal("a report after a disconnect")
	}
}

// TestServeSilent: a client that stops talking is abandoned after the read
// timeout instead of hanging the server.
func TestServeSilent(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	addr, ch := serveOne(t, cfg, mocksrv.Options{}, 100*time.Millisecond)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("HELO")); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-ch:
		if !errors.Is(r.err, mocksrv.ErrSilent) {
			t.Fatalf("err = %v, want ErrSilent", r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not give up on a silent client")
	}
}

// TestServeNewlineMismatch: a client in plain framing against a server run
// with -n sends "HELO" without '\n'. ds-server reads it in one read and
// exits at once with "No new line character at the end of HELO!" (§1.4);
// so does the server here, within a second, instead of waiting for the
// rest of the line until either side's timeout.
func TestServeNewlineMismatch(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	addr, ch := serveOne(t, cfg, mocksrv.Options{Newline: true}, 0)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("HELO")); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-ch:
		var f *mocksrv.Fatal
		if !errors.As(r.err, &f) || !strings.Contains(f.Msg, "No new line character at the end of HELO!") {
			t.Fatalf("err = %v, want ds-server's No new line error", r.err)
		}
	case <-time.After(time.Second):
		t.Fatal("the server still waits for the newline after a second")
	}
	c.SetReadDeadline(time.Now().Add(time.Second))
	if n, err := c.Read(make([]byte, 16)); n != 0 || err == nil {
		t.Fatalf("read %d bytes, %v: want the connection closed", n, err)
	}
}

// splitFirstRead is a connection whose first Read returns only the first
// n bytes of what it read; the next Read returns the rest. The server thus
// gets the client's first message in two pieces, as TCP may deliver it,
// without the test racing the server's wait for the rest of a line
// (partialLineWait): the rest is already there, in this buffer.
type splitFirstRead struct {
	net.Conn
	n     int
	rest  []byte
	done  bool
	first string // what the first Read returned
}

func (c *splitFirstRead) Read(p []byte) (int, error) {
	if len(c.rest) > 0 {
		n := copy(p, c.rest)
		c.rest = c.rest[n:]
		return n, nil
	}
	if c.done {
		return c.Conn.Read(p)
	}
	c.done = true
	n, err := c.Conn.Read(p)
	if n > c.n {
		c.rest = append([]byte(nil), p[c.n:n]...)
		n = c.n
	}
	c.first = string(p[:n])
	return n, err
}

// TestServeNewlineSplitAndGlued: newline framing still takes a line that
// TCP delivered in two pieces, and two lines that arrived in one read.
func TestServeNewlineSplitAndGlued(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	var split *splitFirstRead
	addr, ch := serveListener(t, &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Newline: true},
		WrapConn: func(c net.Conn) net.Conn { split = &splitFirstRead{Conn: c, n: 2}; return split }})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte("HELO\n"))
	buf := make([]byte, 64)
	n, err := c.Read(buf)
	if err != nil || string(buf[:n]) != "OK\n" {
		t.Fatalf("split HELO: %q %v", buf[:n], err)
	}
	c.Write([]byte("AUTH x\nREDY\n"))
	var got []byte
	for !bytes.Contains(got, []byte("JOBN")) || !bytes.HasSuffix(got, []byte("\n")) {
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, buf[:n]...)
	}
	if !bytes.HasPrefix(got, []byte("OK\nJOBN 0 ")) {
		t.Fatalf("glued AUTH and REDY: %q", got)
	}
	c.Close()
	<-ch
	if split.first != "HE" {
		t.Fatalf("the server's first read got %q: want HELO split after HE", split.first)
	}
}

// lockedBuffer is a log that the test reads while the server writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeStalledClientLogShown: a client that stops answering (here it
// waits for records without sending the OK after DATA) leaves the server
// waiting; the log of the dialogue so far, up to that DATA, must be in
// Options.Log while it waits, not only when the session ends (a user who
// interrupts dsmock would never see it otherwise).
func TestServeStalledClientLogShown(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	for _, tc := range []struct {
		name string
		nl   bool
	}{{"plain", false}, {"newline", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var log lockedBuffer
			addr, ch := serveOne(t, cfg, mocksrv.Options{Level: mocksrv.LevelAll, Newline: tc.nl, Log: &log, Year: mocksrv.Year2025}, 0)
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 256)
			for _, m := range []string{"HELO", "AUTH x", "REDY", "GETS All"} {
				if tc.nl {
					m += "\n"
				}
				c.SetDeadline(time.Now().Add(5 * time.Second))
				if _, err := c.Write([]byte(m)); err != nil {
					t.Fatal(err)
				}
				if _, err := c.Read(buf); err != nil {
					t.Fatal(err)
				}
			}
			deadline := time.Now().Add(10 * time.Second) // ends at once when the log is there
			for !strings.HasSuffix(log.String(), "SENT DATA 5 124\n") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			got := log.String()
			select {
			case r := <-ch:
				t.Fatalf("the session ended (%v): want it waiting for OK", r.err)
			default:
			}
			c.Close()
			<-ch
			if !strings.HasSuffix(got, "RCVD GETS All\n      SENT DATA 5 124\n") {
				t.Fatalf("while the session waits, the log is %q: want it up to SENT DATA", got)
			}
		})
	}
}

// TestServeOneContextInterrupted: a cancelled context ends ServeOneContext
// while it accepts or while its client stalls; the error carries the
// cause, and the log written so far is out.
func TestServeOneContextInterrupted(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := fixtureConfig(t, "sample-config01")
	cause := errors.New("the user pressed Ctrl-C")
	for _, tc := range []struct {
		name    string
		connect bool
		logEnd  string
	}{
		{"accepting", false, "IP address 127.0.0.1\n"},
		{"client stalled", true, "SENT JOBN 0 37 3 700 3800 653\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			var log lockedBuffer
			srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Level: mocksrv.LevelAll, Log: &log}}
			ctx, cancel := context.WithCancelCause(context.Background())
			ch := make(chan error, 1)
			go func() { _, err := srv.ServeOneContext(ctx, ln); ch <- err }()
			if tc.connect {
				c, err := net.Dial("tcp", ln.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				c.SetDeadline(time.Now().Add(5 * time.Second))
				buf := make([]byte, 256)
				for _, m := range []string{"HELO", "AUTH x", "REDY"} {
					c.Write([]byte(m))
					if _, err := c.Read(buf); err != nil {
						t.Fatal(err)
					}
				}
			}
			cancel(cause)
			select {
			case err := <-ch:
				if !errors.Is(err, cause) {
					t.Fatalf("err = %v, want it to wrap the cause", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("ServeOneContext still runs after its context was cancelled")
			}
			if !strings.HasSuffix(log.String(), tc.logEnd) {
				t.Fatalf("log %q: want it to end with %q", log.String(), tc.logEnd)
			}
		})
	}
}
