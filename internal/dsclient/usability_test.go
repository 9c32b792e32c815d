package dsclient_test

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/heldport"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// TestWaitingMessage: after a second of refused connections dsclient says
// it is waiting for a server (once), instead of staying silent for the
// whole --connect-timeout; a server that comes sooner, as a harness starts
// it, gets no such line.
func TestWaitingMessage(t *testing.T) {
	_, port := heldPort(t)
	wait := func(port, timeout string) string {
		return "dsclient: waiting for a server on 127.0.0.1:" + port + " (connection refused; retrying for up to " + timeout + ")\n"
	}

	// Refused for 3 s: the line comes at the first refused attempt after
	// 1 s, and a loaded machine's stalls could leave none before 1.5 s.
	r := runMain("-p", port, "--connect-timeout", "3s")
	assert.Equal(t, dsclient.ExitConnect, r.code)
	assert.True(t, strings.HasPrefix(r.stderr, wait(port, "3s")), "%q", r.stderr)
	assert.Equal(t, 1, strings.Count(r.stderr, "waiting"), r.stderr)

	sys := writeSystem(t, testSystem)
	serve := func(held *heldport.Port, when <-chan struct{}) <-chan error {
		done := make(chan error, 1)
		go func() {
			select {
			case <-when:
			case <-time.After(15 * time.Second): // dsclient gives up after 10 s
				done <- errors.New("the server was never started: dsclient did not say it was waiting")
				return
			}
			ln, err := held.Listen()
			if err != nil {
				done <- err
				return
			}
			done <- <-fakeServer(t, ln, dialogue(handshake, []string{"<REDY", ">NONE", "<QUIT", ">QUIT"}), checkClose)
		}()
		return done
	}

	// A server that comes after the line: it listens once dsclient has
	// said it waits (not after a fixed pause, which late timers on a
	// loaded machine could make end before dsclient's second is up).
	held, port := heldPort(t)
	stderr := &watchedWriter{want: "waiting", seen: make(chan struct{})}
	done := serve(held, stderr.seen)
	code := dsclient.Main([]string{"-p", port, "--user", "root", "--system", sys, "--connect-timeout", "10s"}, io.Discard, stderr)
	require.NoError(t, <-done)
	assert.Equal(t, dsclient.ExitOK, code, stderr.String())
	assert.Equal(t, wait(port, "10s"), stderr.String())

	// A server that comes sooner, as a harness starts it: no line.
	held, port = heldPort(t)
	soon := make(chan struct{})
	time.AfterFunc(50*time.Millisecond, func() { close(soon) })
	done = serve(held, soon)
	r = runMain("-p", port, "--user", "root", "--system", sys, "--connect-timeout", "10s")
	require.NoError(t, <-done)
	assert.Equal(t, dsclient.ExitOK, r.code, r.stderr)
	assert.Empty(t, r.stderr)
}

// watchedWriter collects what is written and closes seen once it
// contains want.
type watchedWriter struct {
	mu   sync.Mutex
	b    strings.Builder
	want string
	seen chan struct{}
	told bool
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if !w.told && strings.Contains(w.b.String(), w.want) {
		w.told = true
		close(w.seen)
	}
	return len(p), nil
}

func (w *watchedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestFramingMismatch: -n on one side only. A server run with -n drops a
// plain client's "HELO" at once (ds-server exits: no newline); a plain
// server answers "HELO\n" with ERR and ends. Either way dsclient fails
// within a second and says that -n probably differs on the two sides.
func TestFramingMismatch(t *testing.T) {
	cfg, err := mocksrv.LoadConfig(filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01", "config.xml"), mocksrv.LoadOptions{})
	require.NoError(t, err)
	for _, c := range []struct {
		serverNewline bool
		clientArgs    []string
		says          string
	}{
		{true, nil, "this client uses plain framing, the server probably runs with -n"},
		{false, []string{"-n"}, "this client uses newline framing (-n), the server probably plain"},
	} {
		ln, port := listen(t)
		srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Newline: c.serverNewline}}
		served := make(chan error, 1)
		go func() { _, err := srv.ServeOne(ln); served <- err }()
		res := make(chan result, 1)
		go func() { res <- runMain(append([]string{"-p", port, "--user", "root"}, c.clientArgs...)...) }()
		select {
		case r := <-res:
			assert.Equal(t, dsclient.ExitFailed, r.code)
			assert.Contains(t, r.stderr, "during \"HELO\"")
			assert.Contains(t, r.stderr, "-n probably differs on the two sides: "+c.says)
		case <-time.After(time.Second):
			t.Fatalf("server -n %v, client %v: still running after a second", c.serverNewline, c.clientArgs)
		}
		assert.Error(t, <-served)
	}
}
