// Package pairtest runs dsclient against the built-in simulator over
// loopback TCP, as a dsmock process would serve it, for the tests that
// check whole runs on the wire (a strategy's messages, dsclient's output,
// the server's log), or against a recorded ds-server session replayed
// message for message (Replay, or Serve for a client the test starts
// itself). Only tests import it.
package pairtest

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/ports"
	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// Result is one run: dsclient's exit status and output, and the server's log.
type Result struct {
	Code           int
	Stdout, Stderr *bytes.Buffer
	Log            string
}

// Run serves cfg for one session with opt (its Log is the returned log;
// stderr is discarded unless set) and runs dsclient with args, adding the
// port, the AUTH name "t" and the ds-system.xml the server writes into a
// temporary folder. It fails the test if the server's session fails.
func Run(t testing.TB, cfg *mocksrv.Config, opt mocksrv.Options, args ...string) Result {
	t.Helper()
	dir := t.TempDir()
	ln, err := ports.TestListen() // DSSIM_PORTS when set
	require.NoError(t, err)
	defer ln.Close()
	var log bytes.Buffer
	opt.Log = &log
	if opt.Stderr == nil {
		opt.Stderr = &bytes.Buffer{}
	}
	system := filepath.Join(dir, "ds-system.xml")
	srv := &mocksrv.Listener{Config: cfg, Options: opt,
		OnAuth: func(xml []byte) error { return os.WriteFile(system, xml, 0o644) }}
	served := make(chan error, 1)
	go func() { _, err := srv.ServeOne(ln); served <- err }()
	r := Result{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	r.Code = dsclient.Main(append([]string{"-p", port, "--user", "t", "--system", system}, args...), r.Stdout, r.Stderr)
	require.NoError(t, <-served, "the server's session")
	r.Log = log.String()
	return r
}
