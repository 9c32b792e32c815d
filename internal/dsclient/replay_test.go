package dsclient_test

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness"
	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/transcript"
	"github.com/dssim-go/dssim-go/servertypes"
)

// serverVersion is the version ds-server writes into ds-system.xml (§1.7).
const serverVersion = "4-Apr, 2025 @ MQ - client-server"

// systemXML is the ds-system.xml ds-server writes at AUTH for a config:
// its server types stably sorted by cores (ds-server.md §1.7, §2.9).
func systemXML(t *testing.T, configPath string) []byte {
	t.Helper()
	data, err := os.ReadFile(configPath)
	require.NoError(t, err)
	sys, err := servertypes.Parse(configPath, data)
	require.NoError(t, err)
	sorted, err := servertypes.New(configPath, sys.Sorted())
	require.NoError(t, err)
	return sorted.XML(serverVersion)
}

// TestReplayTranscripts is the end-to-end check of the client: for every
// shared -v all transcript, a fake server on a real loopback socket sends
// the logged SENT messages (plain framing, as recorded) and requires every
// message dsclient sends to equal the logged RCVD message, in order, up to
// QUIT, with the project's strategy of the transcript's name. The same
// replay then runs in newline framing (-n), which the transcripts do not
// cover otherwise.
func TestReplayTranscripts(t *testing.T) {
	files := fixtures.Glob(t, "transcripts/*.vall.log.gz")
	require.Len(t, files, 21)
	passed := 0
	for _, f := range files {
		name, algo, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".vall.log.gz"), ".")
		tr, err := transcript.ParseBytes(fixtures.ReadGz(t, f))
		require.NoError(t, err)
		xml := systemXML(t, filepath.Join(fixtures.Dir(t), "fixtures", name, "config.xml"))
		for _, nl := range []bool{false, true} {
			mode := map[bool]string{false: "plain", true: "newline"}[nl]
			t.Run(name+"."+algo+"/"+mode, func(t *testing.T) {
				replay(t, tr, algo, xml, nl)
				if !nl && !t.Failed() {
					passed++
				}
			})
		}
	}
	t.Logf("%d/%d transcripts replayed identically (plain framing)", passed, len(files))
	assert.Equal(t, len(files), passed)
}

func replay(t *testing.T, tr *transcript.Transcript, algo string, xml []byte, nl bool) {
	dir := t.TempDir()
	sysPath := filepath.Join(dir, "ds-system.xml")
	ln, err := harness.TestListen() // DSSIM_PORTS when set
	require.NoError(t, err)
	defer ln.Close()
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		done <- transcript.Replay(c, tr.Messages, transcript.ReplayOptions{
			Newline: nl,
			OnAuth: func(user string) error {
				if user != "root" {
					t.Errorf("AUTH %q, want root", user)
				}
				return os.WriteFile(sysPath, xml, 0o644)
			},
		})
	}()
	args := []string{"-a", algo, "-p", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port),
		"--user", "root", "--system", sysPath, "--read-timeout", "20s"}
	if nl {
		args = append(args, "-n")
	}
	var stdout, stderr bytes.Buffer
	code := dsclient.Main(args, &stdout, &stderr)
	require.NoError(t, <-done, "the client's messages must equal the transcript's")
	assert.Equal(t, dsclient.ExitOK, code, "stderr: %s", stderr.String())
	assert.Empty(t, stderr.String(), "a normal run is quiet")
	assert.Empty(t, stdout.String())
}

// TestReplayNegativeControl: the replay has teeth. The ff transcript run
// with wf differs at the first decision that differs, and Replay says where.
func TestReplayNegativeControl(t *testing.T) {
	f := filepath.Join(fixtures.Dir(t), "transcripts", "sample-config01.ff.vall.log.gz")
	tr, err := transcript.ParseBytes(fixtures.ReadGz(t, f))
	require.NoError(t, err)
	xml := systemXML(t, filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01", "config.xml"))
	ln, err := harness.TestListen() // DSSIM_PORTS when set
	require.NoError(t, err)
	defer ln.Close()
	sysPath := filepath.Join(t.TempDir(), "ds-system.xml")
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		done <- transcript.Replay(c, tr.Messages, transcript.ReplayOptions{
			OnAuth: func(string) error { return os.WriteFile(sysPath, xml, 0o644) },
		})
		c.Close() // the server gives up: the client must notice
	}()
	var stdout, stderr bytes.Buffer
	code := dsclient.Main([]string{"-a", "wf", "-p", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port),
		"--user", "root", "--system", sysPath, "--read-timeout", "5s"}, &stdout, &stderr)
	err = <-done
	require.Error(t, err)
	assert.Regexp(t, `^transcript line \d+ \(message \d+ of \d+\): client sent "SCHD \d+ [a-z-]+ \d+", transcript has "SCHD`, err.Error())
	assert.Equal(t, dsclient.ExitFailed, code)
	assert.Contains(t, stderr.String(), "dsclient: ")
	assert.Contains(t, stderr.String(), "the server closed the connection")
}
