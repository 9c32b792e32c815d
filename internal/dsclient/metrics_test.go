package dsclient_test

import (
	"bytes"
	"encoding/json"
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
)

// A strategy that reports metrics, run against dsmock (the built-in
// simulator over TCP): dsclient prints them at the end, marks the
// approximations, and writes them with --metrics FILE as JSON.
func TestMetricsPrintedAndWritten(t *testing.T) {
	fx := filepath.Join(fixtures.Dir(t), "fixtures", "ds-sample-config05-failures", "config.xml")
	cfg, err := mocksrv.LoadConfig(fx, mocksrv.LoadOptions{BaseDir: filepath.Dir(fx)})
	require.NoError(t, err)
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Log: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, NoHeader: true},
		OnAuth: func(xml []byte) error { return os.WriteFile(filepath.Join(dir, "ds-system.xml"), xml, 0o644) }}
	served := make(chan error, 1)
	go func() { _, err := srv.ServeOne(ln); served <- err }()

	file := filepath.Join(dir, "m.json")
	var stdout, stderr bytes.Buffer
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	code := dsclient.Main([]string{"-a", "librariskd", "-p", port, "--user", "t", "--system", filepath.Join(dir, "ds-system.xml"),
		"--metrics", file}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.NoError(t, <-served)
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
