package dsclient_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/pairtest"
	"github.com/dssim-go/dssim-go/internal/transcript"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// TestBinary builds cmd/dsclient and runs it as a harness would: the
// command line split on spaces, ds-system.xml in the working directory.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "dsclient")
	build := exec.Command("go", "build", "-o", bin, "github.com/dssim-go/dssim-go/cmd/dsclient")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	run := func(t *testing.T, dir, cmdline string) (int, string, string) {
		args := strings.Split(cmdline, " ")
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		done := make(chan error, 1)
		require.NoError(t, cmd.Start())
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return ee.ExitCode(), stdout.String(), stderr.String()
			}
			require.NoError(t, err)
			return 0, stdout.String(), stderr.String()
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatal("dsclient hung")
		}
		return -1, "", ""
	}

	t.Run("help", func(t *testing.T) {
		code, stdout, _ := run(t, t.TempDir(), "-h")
		assert.Equal(t, 0, code)
		assert.Contains(t, stdout, "Exit status:")
	})

	t.Run("transcript in newline mode", func(t *testing.T) {
		dir := t.TempDir()
		tr, err := transcript.ParseBytes(fixtures.ReadGz(t, filepath.Join(fixtures.Dir(t), "transcripts", "sample-config01.fafc.vall.log.gz")))
		require.NoError(t, err)
		xml := pairtest.SystemXML(t, filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01", "config.xml"), mocksrv.Year2025)
		ln, port := listen(t)
		done := pairtest.Serve(ln, tr.Messages, transcript.ReplayOptions{Newline: true,
			OnAuth: func(string) error { return os.WriteFile(filepath.Join(dir, "ds-system.xml"), xml, 0o644) }})
		code, stdout, stderr := run(t, dir, "-a fafc -p "+port+" -n --user root")
		require.NoError(t, <-done)
		assert.Equal(t, 0, code, stderr)
		assert.Empty(t, stdout+stderr)
	})

	t.Run("garbage", func(t *testing.T) {
		ln, port := listen(t)
		done := fakeServer(t, ln, script("<HELO", ">OK", "<AUTH root", ">OK", "<REDY", ">JOBX 1 2 3"), checkClose)
		sys := writeSystem(t, testSystem)
		code, stdout, stderr := run(t, t.TempDir(), "-p "+port+" --user root --system "+sys+" --read-timeout 10s") // a slow fake server cannot run into it
		require.NoError(t, <-done)
		assert.Equal(t, 1, code)
		assert.Empty(t, stdout)
		assert.Equal(t, "dsclient: REDY: unexpected server message \"JOBX 1 2 3\" during \"REDY\" (want an event: JOBN, JOBP, JCPL, RESF, RESR, CHKQ or NONE)\n", stderr)
	})

	t.Run("server silent", func(t *testing.T) {
		ln, port := listen(t)
		done := fakeServer(t, ln, script("<HELO"), hold)
		start := time.Now()
		code, _, stderr := run(t, t.TempDir(), "-p "+port+" --read-timeout 300ms")
		assert.Equal(t, 1, code)
		assert.Contains(t, stderr, `no complete reply within 300ms during "HELO"`)
		assert.Less(t, time.Since(start), hangBound, "bounded by --read-timeout 300ms, not waiting for ever")
		require.NoError(t, <-done)
	})
}
