package dsview

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

// simulatedLog is the -v all log of ff on cfg, as dsmock writes it.
func simulatedLog(t *testing.T, cfg *mocksrv.Config) []byte {
	t.Helper()
	log, _, err := simulate(t, cfg, "ff")
	require.NoError(t, err)
	return log
}

// simulate runs strategy on cfg in-process and returns the -v all log, the
// report and the client's error (a run can fail and still end with a
// report, as one that leaves jobs in the global queue does).
func simulate(t *testing.T, cfg *mocksrv.Config, strategy string) ([]byte, *mocksrv.Report, error) {
	t.Helper()
	s, err := strategies.New(strategy, nil)
	require.NoError(t, err)
	var log bytes.Buffer
	sess, err := bench.Simulate(context.Background(), cfg, s, mocksrv.Options{Level: mocksrv.LevelAll, Log: &log, Stderr: io.Discard}, "root")
	require.NotNil(t, sess.Report())
	return log.Bytes(), sess.Report(), err
}

// A log of dsmock --swf is read with -c naming the trace and its options
// as dsmock took them (converted the way dsmock converts them); the page
// is named after the trace.
func TestDsviewSWFTrace(t *testing.T) {
	tmp := t.TempDir()
	for _, f := range []string{"small.swf", "servers.xml"} {
		data, err := os.ReadFile(filepath.Join("../../mocksrv/swf/testdata", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(tmp, f), data, 0o644))
	}
	t.Chdir(tmp)
	for _, spec := range []string{"small.swf", "small.swf:procs-per-core=2,time-scale=0.5", "small.swf:servers=servers.xml"} {
		t.Run(spec, func(t *testing.T) {
			w, err := swf.Load(spec)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile("run.log", simulatedLog(t, w.Config), 0o644))
			var stdout, stderr strings.Builder
			require.Equal(t, ExitOK, Main([]string{"-c", spec, "-o", "v.html", "run.log"}, &stdout, &stderr), stderr.String())
			data, err := os.ReadFile("v.html")
			require.NoError(t, err)
			name := "small" + strings.TrimPrefix(spec, "small.swf")
			assert.Contains(t, string(data), "<title>dsview: "+name+"</title>")
			assert.Contains(t, string(data), `{"title":"`+name+`","runs":[`)
		})
	}
	t.Run("refused", func(t *testing.T) {
		for _, c := range []struct{ spec, want string }{
			{"nope.swf", "dsview: -c nope.swf: SWF trace: open nope.swf: no such file or directory"},
			{"small.swf:cores=2", `dsview: -c small.swf:cores=2: SWF trace: swf spec "small.swf:cores=2": swf option "cores" unknown`},
		} {
			var stdout, stderr strings.Builder
			assert.Equal(t, ExitFailure, Main([]string{"-c", c.spec, "run.log"}, &stdout, &stderr))
			assert.True(t, strings.HasPrefix(stderr.String(), c.want), "stderr %q, want %q", stderr.String(), c.want)
		}
		var stdout, stderr strings.Builder
		assert.Equal(t, ExitUsage, Main([]string{"-c", "small.swf:servers=servers.xml", "-o", "./servers.xml", "run.log"}, &stdout, &stderr))
		assert.Contains(t, stderr.String(), "-o ./servers.xml is the trace's servers= config servers.xml")
	})
}
