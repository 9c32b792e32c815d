package dsbench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/filelabel"
)

// --keep-logs on in-process runs: the server's brief log is written too.
func TestKeepLogsInProcess(t *testing.T) {
	keep := t.TempDir()
	code, _, stderr := runMain("-a", "ff", "--keep-logs", keep, fixtureConfig(t, "sample-config01"))
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, mustRead(t, filepath.Join(keep, "sample-config01__ff.server.log")), "# actual simulation end time")
}

// The walk's run: two composite columns that differ in '>' and '<' keep
// two server logs, each its own run's.
func TestKeepLogsOfLabelsThatSanitizeAlike(t *testing.T) {
	keep := t.TempDir()
	gt, lt := "composite:members=[ff; bf],rules=cores>2->2|1", "composite:members=[ff; bf],rules=cores<2->2|1"
	code, _, stderr := runMain("-j", "2", "-a", "composite:members=[ff; bf],rules=cores>2->2|1,cores<2->2|1", "--keep-logs", keep, fixtureConfig(t, "config20-med-med"))
	require.Equal(t, ExitOK, code, stderr)
	entries, err := os.ReadDir(keep)
	require.NoError(t, err)
	require.Len(t, entries, 2, "one log per run")
	logs := map[string]string{}
	for _, label := range []string{gt, lt} {
		f := filepath.Join(keep, filelabel.RunBase("config20-med-med", label)+".server.log")
		logs[label] = mustRead(t, f)
		assert.Contains(t, logs[label], "# actual simulation end time", f)
	}
	assert.NotEqual(t, logs[gt], logs[lt], "each file is its own run's log")
}
