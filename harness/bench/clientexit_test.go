package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
)

// A client that exits unsuccessfully after a complete session keeps its
// result, with a note; before QUIT it is still an error. A server binary
// that is slow to exit after its report (here a wrapper script) is no
// different.
func TestClientExitAfterQuit(t *testing.T) {
	servers := []string{""}
	if !testing.Short() {
		dsmock := buildCmd(t, "cmd/dsmock")
		slow := filepath.Join(t.TempDir(), "slow-server")
		require.NoError(t, os.WriteFile(slow, []byte("#!/bin/sh\n"+dsmock+` "$@"; rc=$?; sleep 3; exit $rc`+"\n"), 0o755))
		servers = append(servers, dsmock, slow)
	}
	for _, srv := range servers {
		for _, tc := range []struct {
			tail, status, reason string
		}{
			{"", "ok", ""},
			{"read -r l <&3 || { echo 'IndexError: list index out of range' >&2; exit 1; }\n", "ok",
				"client exited 1 after QUIT; client stderr: IndexError: list index out of range"},
			{"exit 3\n", "ok", "client exited 3 after QUIT"},
		} {
			b := &bench.Bench{Sources: fixtureSources(t, "sample-config01"),
				Target: bench.Target{Server: srv, Client: script(t, schedulesAll+tc.tail), ClientDir: t.TempDir(), Newline: true, Timeout: 30 * time.Second}}
			res := b.Run(context.Background())
			require.Len(t, res, 1)
			assert.Equal(t, bench.Status(tc.status), res[0].Status, "server %q, %q: %s", srv, tc.tail, res[0].Err)
			assert.Equal(t, tc.reason, res[0].Err, "server %q", srv)
			assert.Equal(t, 10, res[0].Summary.Jobs)
		}
		b := &bench.Bench{Sources: fixtureSources(t, "sample-config01"),
			Target: bench.Target{Server: srv, Client: script(t, strings.Replace(schedulesAll, "say QUIT\n", "exit 3\n", 1)), ClientDir: t.TempDir(), Newline: true, Timeout: 30 * time.Second}}
		res := b.Run(context.Background())
		assert.Equal(t, bench.StatusError, res[0].Status, "server %q: exiting before QUIT", srv)
	}
	var out strings.Builder
	r := bench.Result{Config: "c", Variant: "client", Status: bench.StatusOK, Err: "client exited 3 after QUIT"}
	require.NoError(t, report.Output{Results: []bench.Result{r}}.Write(&out, report.FormatTable))
	assert.Regexp(t, `Runs with a note\nConfig\s+Strategy\s+Note\nc\s+client\s+client exited 3 after QUIT\n`, out.String())
}
