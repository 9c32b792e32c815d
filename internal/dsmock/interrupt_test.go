package dsmock

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stallSession connects to addr in -n framing, runs the dialogue up to
// GETS All and then stops answering (no OK after DATA), as a student's
// client that forgot it does; the connection is left open.
func stallSession(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReader(c)
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	for _, m := range []string{"HELO\n", "AUTH x\n", "REDY\n", "GETS All\n"} {
		_, err := c.Write([]byte(m))
		require.NoError(t, err)
		_, err = r.ReadString('\n')
		require.NoError(t, err)
	}
	return c
}

// waitFor polls get until it has the suffix or 5 s have passed, and
// returns what it last got.
func waitFor(get func() string, suffix string) string {
	got := get()
	for end := time.Now().Add(5 * time.Second); !strings.HasSuffix(got, suffix) && time.Now().Before(end); got = get() {
		time.Sleep(10 * time.Millisecond)
	}
	return got
}

// stalledLogEnd is how the -v all log ends when the client stalls after
// GETS All on sample-config01 (the 2026 server: record length 135).
const stalledLogEnd = "      RCVD GETS All\n      SENT DATA 5 135\n"

// TestStalledClientLogOnStdout: while a client has stopped answering, the
// log of the dialogue so far is on dsmock's stdout (it is not held in a
// buffer until the session ends).
func TestStalledClientLogOnStdout(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	addr, stdout, _, code := startDsmock(t, "-c", cfg, "-v", "all", "-n")
	c := stallSession(t, addr)
	got := waitFor(stdout.String, stalledLogEnd)
	assert.True(t, strings.HasSuffix(got, stalledLogEnd), "stdout while the client stalls:\n%s", got)
	c.Close()
	assert.Equal(t, 1, <-code)
}

// TestInterruptFlushesLog: SIGINT or SIGTERM while the client stalls: the
// log so far is on stdout and dsmock dies of the signal, as ds-server does
// (nothing on stderr).
func TestInterruptFlushesLog(t *testing.T) {
	bin := buildDsmock(t)
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			port := freeTestPort(t)
			var stdout, stderr syncBuffer
			cmd := exec.Command(bin, "-c", cfg, "-v", "all", "-n", "-p", port)
			cmd.Dir = t.TempDir()
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			startWithDefaultSignals(t, cmd)
			defer cmd.Process.Kill()
			// The header is written once dsmock listens (a probe connection
			// would be its one session).
			require.True(t, strings.HasSuffix(waitFor(stdout.String, "127.0.0.1\n"), "127.0.0.1\n"),
				"dsmock is not listening: stdout %q, stderr %q", stdout.String(), stderr.String())
			stallSession(t, "127.0.0.1:"+port)
			// The session waits for OK once its log says DATA was sent.
			require.True(t, strings.HasSuffix(waitFor(stdout.String, stalledLogEnd), stalledLogEnd), "stdout:\n%s", stdout.String())
			require.NoError(t, cmd.Process.Signal(sig))
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var err error
			select {
			case err = <-exited:
			case <-time.After(10 * time.Second): // it dies at once; else it waits out its 10-minute read timeout
				t.Fatalf("dsmock still runs 10 s after %v: stdout %q, stderr %q", sig, stdout.String(), stderr.String())
			}
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			ws := ee.Sys().(syscall.WaitStatus)
			assert.True(t, ws.Signaled() && ws.Signal() == sig, "dsmock ended with %v, want death by %v", err, sig)
			assert.True(t, strings.HasSuffix(stdout.String(), stalledLogEnd), "stdout:\n%s", stdout.String())
			assert.Empty(t, stderr.String())
		})
	}
}

// startWithDefaultSignals starts cmd with SIGINT and SIGTERM at their
// default action, whatever this process inherited. A test binary run
// directly as a background job of a script starts with SIGINT ignored;
// dsmock, started so, keeps ignoring it (onSignal, as ds-server is not
// stopped by it either), and the test would wait out dsmock's read
// timeout. A signal this process handles is at its default in a child.
func startWithDefaultSignals(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	handled := make(chan os.Signal, 1)
	signal.Notify(handled, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(handled)
	require.NoError(t, cmd.Start())
}
