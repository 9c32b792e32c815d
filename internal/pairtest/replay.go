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
	"github.com/dssim-go/dssim-go/internal/transcript"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/servertypes"
)

// SystemXML is the ds-system.xml year's ds-server writes at AUTH for a
// config: its server types stably sorted by cores (ds-server.md §1.7,
// §2.9), the year's version on line 2.
func SystemXML(t testing.TB, configPath string, year mocksrv.Year) []byte {
	t.Helper()
	data, err := os.ReadFile(configPath)
	require.NoError(t, err)
	sys, err := servertypes.Parse(configPath, data)
	require.NoError(t, err)
	sorted, err := servertypes.New(configPath, sys.Sorted())
	require.NoError(t, err)
	return sorted.XML(year.Version()) // the version ds-server writes there (§1.7)
}

// Replay plays a recorded session to dsclient over loopback: a fake server
// sends the transcript's SENT messages and requires each message dsclient
// sends to be the transcript's RCVD one (transcript.Replay, with opt), and
// writes xml as ds-system.xml at AUTH, after opt.OnAuth if set. dsclient
// runs with args plus the port, the AUTH name "root" and that file. It
// returns the replay's verdict (nil: every message matched) and dsclient's
// run; the server closes the connection when the replay ends.
func Replay(t testing.TB, tr *transcript.Transcript, xml []byte, opt transcript.ReplayOptions, args ...string) (error, Result) {
	t.Helper()
	system := filepath.Join(t.TempDir(), "ds-system.xml")
	ln, err := ports.TestListen() // DSSIM_PORTS when set
	require.NoError(t, err)
	defer ln.Close()
	check := opt.OnAuth
	opt.OnAuth = func(user string) error {
		if check != nil {
			if err := check(user); err != nil {
				return err
			}
		}
		return os.WriteFile(system, xml, 0o644)
	}
	done := Serve(ln, tr.Messages, opt)
	r := Result{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	r.Code = dsclient.Main(append([]string{"-p", port, "--user", "root", "--system", system}, args...), r.Stdout, r.Stderr)
	return <-done, r
}

// Serve plays msgs (transcript.Replay, with opt) to the first connection
// ln accepts, in the background, and closes it after; the channel gets the
// replay's verdict (nil: every message matched) or the accept's error.
func Serve(ln net.Listener, msgs []transcript.Message, opt transcript.ReplayOptions) <-chan error {
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		done <- transcript.Replay(c, msgs, opt)
	}()
	return done
}
