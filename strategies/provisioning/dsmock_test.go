package provisioning_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/pairtest"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// Every strategy of the package through dsclient against the simulator
// over loopback TCP (as dsmock serves it), on three shared fixtures (the
// failure trace included: killed jobs come back through the global queue):
// the run completes, the metrics are printed, and the server's summary is
// the in-process run's. (Every registered strategy's summary over TCP on
// every fixture, in both ds-server years, is internal/dsclient's
// TestEveryStrategyOverTCP.)
func TestAgainstDsmock(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over TCP")
	}
	for _, fx := range []string{"ds-sample-config05-failures", "config20-med-med", "sample-config03"} {
		cfg := filepath.Join(fixtures.Dir(t), "fixtures", fx, "config.xml")
		for _, s := range []string{"thr", "thr-delay", "fluidplan", "costdp", "costdp-mono", "costdp-nom", "bestpack-boot", "provision"} {
			t.Run(fx+"/"+s, func(t *testing.T) {
				// A run over TCP without polling mostly waits for wake-ups:
				// two at a time use the cores the waits leave idle.
				t.Parallel()
				checkAgainstDsmock(t, cfg, fx, s)
			})
		}
	}
}

// checkAgainstDsmock: s through dsclient against dsmock on the fixture
// reports its metrics and the in-process run's summary.
func checkAgainstDsmock(t *testing.T, cfg, fx, s string) {
	code, stdout, stderr, log := againstDsmock(t, fx, "-a", s, "--spin", "0")
	require.Equal(t, 0, code, "%s %s: %s", fx, s, stderr)
	assert.Contains(t, stdout.String(), "# metric boots", "%s %s", fx, s)
	assert.Contains(t, stdout.String(), "# metric idleBilledSeconds", "%s %s", fx, s)
	m, err := strattest.RunNamed(filepath.Dir(cfg), s, nil)
	require.NoError(t, err, "%s %s in-process", fx, s)
	assert.Contains(t, log, fmt.Sprintf("# actual simulation end time: %d, #jobs: %d (failed %d times)\n", m.EndTime, m.Jobs, m.Failed), "%s %s", fx, s)
	assert.Contains(t, log, fmt.Sprintf("# avg waiting time: %d, avg exec time: %d, avg turnaround time: %d\n", m.AvgWait, m.AvgExec, m.AvgTurnaround), "%s %s", fx, s)
	assert.Contains(t, log, fmt.Sprintf("total cost: $%.2f\n", m.TotalCost), "%s %s", fx, s)
}

func againstDsmock(t *testing.T, fixture string, args ...string) (int, *bytes.Buffer, *bytes.Buffer, string) {
	t.Helper()
	fx := filepath.Join(fixtures.Dir(t), "fixtures", fixture, "config.xml")
	cfg, err := mocksrv.LoadConfig(fx, mocksrv.LoadOptions{BaseDir: filepath.Dir(fx)})
	require.NoError(t, err)
	r := pairtest.Run(t, cfg, mocksrv.Options{Level: mocksrv.LevelBrief, NoHeader: true}, args...)
	require.Contains(t, r.Log, "# actual simulation end time", "%s: the server printed its summary", fixture)
	return r.Code, r.Stdout, r.Stderr, r.Log
}

// The embedded suite (discounts, premiums, slow boots, a failure trace)
// through dsclient against the simulator over TCP, every strategy.
func TestSuiteAgainstDsmock(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over TCP")
	}
	for _, f := range configs.Names() {
		data, err := fs.ReadFile(configs.FS(), f)
		require.NoError(t, err)
		cfg, err := mocksrv.ParseConfig(f, data, mocksrv.LoadOptions{FS: configs.FS()})
		require.NoError(t, err)
		for _, s := range []string{"thr", "thr-delay", "fluidplan", "costdp", "costdp-mono", "costdp-nom", "bestpack-boot", "provision"} {
			r := pairtest.Run(t, cfg, mocksrv.Options{Level: mocksrv.LevelBrief, NoHeader: true}, "-a", s, "--spin", "0")
			require.Equal(t, 0, r.Code, "%s %s: %s", f, s, r.Stderr)
			assert.Contains(t, r.Log, "# actual simulation end time", "%s %s", f, s)
			assert.Contains(t, r.Stdout.String(), "# metric boots", "%s %s", f, s)
		}
	}
}
