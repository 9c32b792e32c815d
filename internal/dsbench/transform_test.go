package dsbench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Out-of-range sweep values, and transforms with a server binary, are
// usage errors.
func TestTransformUsageErrors(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "server")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--inaccuracy", "-1"}, "--inaccuracy -1: out of range: want a percentage in [0, 100]"},
		{[]string{"--inaccuracy", "0,101"}, "--inaccuracy 101: out of range"},
		{[]string{"--arrival-factor", "0"}, "--arrival-factor 0: out of range"},
		{[]string{"--arrival-factor", "-0.5"}, "--arrival-factor -0.5: out of range"},
		{[]string{"--arrival-factor", "half"}, `--arrival-factor "half": want a number`},
		{[]string{"--inaccuracy", "50", "--server", bin}, "derive job lists for the built-in simulator"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, &stdout, &stderr, nil)
		assert.Equal(t, ExitUsage, code, "%v", tc.args)
		assert.Contains(t, stderr.String(), tc.want)
	}
}

// A sweep writes a metric-against-swept-value plot per metric.
func TestSweepPlots(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main([]string{"-a", "librariskd,ff", "--inaccuracy", "0,100", "--plots", dir, "-f", "csv", "--progress", "never",
		filepath.Join("..", "..", "configs", "light-short-small.xml")}, &stdout, &stderr, nil)
	require.Equal(t, ExitOK, code, stderr.String())
	assert.Contains(t, stdout.String(), "base_config,arrival_factor,inaccuracy,metric:deadlineMetPct")
	for _, f := range []string{"sweep-inacc-tt.svg", "sweep-inacc-co.png", "sweep-inacc-deadlineMetPct.svg"} {
		_, err := os.Stat(filepath.Join(dir, f))
		assert.NoError(t, err, f)
	}
	_, err := os.Stat(filepath.Join(dir, "sweep-af-tt.svg"))
	assert.True(t, os.IsNotExist(err), "no arrival-factor sweep, no such plot")
}
