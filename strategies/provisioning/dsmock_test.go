package provisioning_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// Every strategy of the package through dsclient against the simulator
// over loopback TCP (as dsmock serves it), on every shared fixture (the
// failure trace included: killed jobs come back through the global queue):
// the run completes, the metrics are printed, and the server's summary is
// the in-process run's.
func TestAgainstDsmock(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over TCP")
	}
	for _, cfg := range fixtures.Glob(t, "fixtures/*/config.xml") {
		fx := filepath.Base(filepath.Dir(cfg))
		for _, s := range []string{"thr", "thr-delay", "fluidplan", "costdp", "costdp-mono", "costdp-nom", "bestpack-boot", "provision"} {
			code, stdout, stderr, log := againstDsmock(t, fx, t.TempDir(), "-a", s, "--spin", "0")
			require.Equal(t, 0, code, "%s %s: %s", fx, s, stderr)
			assert.Contains(t, stdout.String(), "# metric boots", "%s %s", fx, s)
			assert.Contains(t, stdout.String(), "# metric idleBilledSeconds", "%s %s", fx, s)
			m, err := strattest.RunNamed(filepath.Dir(cfg), s, nil)
			require.NoError(t, err, "%s %s in-process", fx, s)
			assert.Contains(t, log, fmt.Sprintf("# actual simulation end time: %d, #jobs: %d (failed %d times)\n", m.EndTime, m.Jobs, m.Failed), "%s %s", fx, s)
			assert.Contains(t, log, fmt.Sprintf("# avg waiting time: %d, avg exec time: %d, avg turnaround time: %d\n", m.AvgWait, m.AvgExec, m.AvgTurnaround), "%s %s", fx, s)
			assert.Contains(t, log, fmt.Sprintf("total cost: $%.2f\n", m.TotalCost), "%s %s", fx, s)
		}
	}
}

func againstDsmock(t *testing.T, fixture, dir string, args ...string) (int, *bytes.Buffer, *bytes.Buffer, string) {
	t.Helper()
	fx := filepath.Join(fixtures.Dir(t), "fixtures", fixture, "config.xml")
	cfg, err := mocksrv.LoadConfig(fx, mocksrv.LoadOptions{BaseDir: filepath.Dir(fx)})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	var log bytes.Buffer
	srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Level: mocksrv.LevelBrief, Log: &log, Stderr: &bytes.Buffer{}, NoHeader: true},
		OnAuth: func(xml []byte) error { return os.WriteFile(filepath.Join(dir, "ds-system.xml"), xml, 0o644) }}
	served := make(chan error, 1)
	go func() { _, err := srv.ServeOne(ln); served <- err }()
	var stdout, stderr bytes.Buffer
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	code := dsclient.Main(append([]string{"-p", port, "--user", "t", "--system", filepath.Join(dir, "ds-system.xml")}, args...), &stdout, &stderr)
	require.NoError(t, <-served, "server of %s", fixture)
	require.Contains(t, log.String(), "# actual simulation end time", "%s: the server printed its summary", fixture)
	return code, &stdout, &stderr, log.String()
}
