package dsclient_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/pairtest"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// A strategy that reports metrics, run against dsmock (the built-in
// simulator over TCP): dsclient prints them at the end, marks the
// approximations, and writes them with --metrics FILE as JSON.
func TestMetricsPrintedAndWritten(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.json")
	code, stdout, stderr := againstDsmock(t, "ds-sample-config05-failures", "-a", "librariskd", "--metrics", file)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "# metric deadlineMetPct")
	assert.Contains(t, stdout.String(), "≈ approximate")
	var doc struct {
		Strategy string `json:"strategy"`
		Metrics  []struct {
			Name   string   `json:"name"`
			Value  *float64 `json:"value"`
			Approx bool     `json:"approx"`
		} `json:"metrics"`
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.Equal(t, "librariskd", doc.Strategy)
	approx := map[string]bool{}
	for _, m := range doc.Metrics {
		require.NotNil(t, m.Value, m.Name)
		approx[m.Name] = m.Approx
	}
	assert.True(t, approx["waitSLA"])
	assert.False(t, approx["deadlineMetPct"])
	assert.Empty(t, stderr.String())
}

// againstDsmock runs dsclient with args against the built-in simulator
// serving one shared fixture over loopback TCP (as dsmock does), and
// returns its exit status and output once the server has finished.
func againstDsmock(t *testing.T, fixture string, args ...string) (int, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	fx := filepath.Join(fixtures.Dir(t), "fixtures", fixture, "config.xml")
	cfg, err := mocksrv.LoadConfig(fx, mocksrv.LoadOptions{BaseDir: filepath.Dir(fx)})
	require.NoError(t, err)
	return serveAndRun(t, cfg, fixture, args...)
}

// serveAndRun serves cfg once over loopback TCP and runs dsclient with args.
func serveAndRun(t *testing.T, cfg *mocksrv.Config, fixture string, args ...string) (int, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	r := pairtest.Run(t, cfg, mocksrv.Options{Level: mocksrv.LevelBrief, NoHeader: true}, args...)
	require.Contains(t, r.Log, "# actual simulation end time", "%s: the server printed its summary", fixture)
	return r.Code, r.Stdout, r.Stderr
}

// Every strategy of the Libra family and its comparison policies completes
// every shared fixture through dsclient against the simulator over TCP
// (the failure trace too: killed jobs come back from the global queue).
func TestLibraFamilyAgainstDsmock(t *testing.T) {
	if testing.Short() {
		t.Skip("203 whole runs over TCP")
	}
	entries, err := os.ReadDir(filepath.Join(fixtures.Dir(t), "fixtures"))
	require.NoError(t, err)
	for _, e := range entries {
		for _, s := range []string{"libra", "libraplus", "librasla", "librariskd", "fcfs", "sjf", "edf"} {
			code, stdout, stderr := againstDsmock(t, e.Name(), "-a", s, "--spin", "0")
			require.Equal(t, 0, code, "%s %s: %s", e.Name(), s, stderr)
			assert.Contains(t, stdout.String(), "# metric deadlineMetPct", "%s %s", e.Name(), s)
		}
	}
}

// The same over the embedded benchmark suite (a failure trace included).
func TestLibraFamilySuiteAgainstDsmock(t *testing.T) {
	if testing.Short() {
		t.Skip("70 whole runs over TCP")
	}
	for _, f := range configs.Names() {
		data, err := fs.ReadFile(configs.FS(), f)
		require.NoError(t, err)
		cfg, err := mocksrv.ParseConfig(f, data, mocksrv.LoadOptions{FS: configs.FS()})
		require.NoError(t, err)
		for _, s := range []string{"libra", "libraplus", "librasla", "librariskd", "fcfs", "sjf", "edf"} {
			code, stdout, stderr := serveAndRun(t, cfg, f, "-a", s, "--spin", "0")
			require.Equal(t, 0, code, "%s %s: %s", f, s, stderr)
			assert.Contains(t, stdout.String(), "# metric deadlineMetPct", "%s %s", f, s)
		}
	}
}
