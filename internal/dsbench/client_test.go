package dsbench

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// A client that leaves jobs unscheduled after a refused command is
// "unscheduled", with the built-in server and with a server binary, and
// wins nothing (its zeros used to beat every baseline).
func TestUnscheduledAfterAnErrorLine(t *testing.T) {
	servers := []string{"", bench.ServerDsmock}
	if !testing.Short() {
		servers = append(servers, buildCmd(t, "cmd/dsmock"))
	}
	for _, srv := range servers {
		b := &bench.Bench{Sources: fixtureSources(t, "sample-config01"),
			Target: bench.Target{Server: srv, Client: script(t, early), ClientDir: t.TempDir(), Newline: true, Timeout: 30 * time.Second}}
		res := b.Run(context.Background())
		require.Len(t, res, 1)
		assert.Equal(t, bench.StatusUnscheduled, res[0].Status, "server %q: %s", srv, res[0].Err)
		assert.Equal(t, 10, res[0].Unscheduled, "server %q", srv)
	}
	code, out, stderr := runMain("-a", "ff", "-b", "ff", "-n", "--client", script(t, early), "--client-dir", t.TempDir(), fixtureConfig(t, "sample-config01"))
	require.Equal(t, ExitOK, code, stderr)
	assert.Regexp(t, `beats every baseline \(ff\) on turnaround time\nStrategy\s+Wins\s+Configs\nclient\s+0/0\n`, out)
	assert.Regexp(t, `sample-config01\s+client\s+unscheduled\s+10 jobs not scheduled\n`, out, "no stray ';' after the count")
}
