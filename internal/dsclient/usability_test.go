package dsclient_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/fixtures"
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

	r := runMain("-p", port, "--connect-timeout", "1.5s")
	assert.Equal(t, dsclient.ExitConnect, r.code)
	assert.True(t, strings.HasPrefix(r.stderr, wait(port, "1.5s")), "%q", r.stderr)
	assert.Equal(t, 1, strings.Count(r.stderr, "waiting"), r.stderr)

	sys := writeSystem(t, testSystem)
	for _, after := range []time.Duration{1300 * time.Millisecond, 50 * time.Millisecond} {
		held, port := heldPort(t)
		done := make(chan error, 1)
		go func() {
			time.Sleep(after)
			ln, err := held.Listen()
			if err != nil {
				done <- err
				return
			}
			done <- <-fakeServer(t, ln, dialogue(handshake, []string{"<REDY", ">NONE", "<QUIT", ">QUIT"}), checkClose)
		}()
		r = runMain("-p", port, "--user", "root", "--system", sys, "--connect-timeout", "10s")
		require.NoError(t, <-done)
		assert.Equal(t, dsclient.ExitOK, r.code, r.stderr)
		if after > time.Second {
			assert.Equal(t, wait(port, "10s"), r.stderr)
		} else {
			assert.Empty(t, r.stderr)
		}
	}
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
