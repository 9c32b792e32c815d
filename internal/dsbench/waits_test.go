package dsbench

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dsbench --waits: a row per run and a mean per strategy, after the
// report, and each row adds up to the run's own average waiting time in
// the report (to the table's four decimals).
func TestWaitsFlag(t *testing.T) {
	cfgs := []string{fixtureConfig(t, "config20-med-med"), fixtureConfig(t, "config100-short-low")}
	recs, col, data, rows := splitRun(t, "--waits", "ff,frontier", cfgs)
	require.Len(t, rows, 4, string(data))
	for _, r := range recs[1:] {
		key := r[col["strategy"]] + " on " + r[col["config"]]
		f, ok := rows[key]
		require.True(t, ok, "no waits row for %s in\n%s", key, data)
		assert.Equal(t, r[col["jobs"]], f[0], key)
		runtime, _ := strconv.ParseFloat(f[1], 64)
		waits, _ := strconv.ParseFloat(f[2], 64)
		within, _ := strconv.ParseFloat(f[3], 64)
		beyond, _ := strconv.ParseFloat(f[4], 64)
		avgWait, _ := strconv.Atoi(r[col["avg_wait"]])
		assert.InDelta(t, float64(avgWait)+0.5, waits*runtime, 0.5+0.0001*runtime, "%s: the split against the report's avg_wait", key)
		assert.InDelta(t, waits, within+beyond, 0.00011, key)
	}
	assert.Contains(t, string(data), "ff: mean of 2")
	assert.Contains(t, string(data), "frontier: mean of 2")

	// A run without a result has no split: it is named below the table
	// and the strategy's mean is over the others (the whole table used to
	// be lost, with the run named twice).
	flaky, slow := filepath.Join("..", "..", "configs", "flaky-servers.xml"), filepath.Join("..", "..", "configs", "slow-boot.xml")
	code, out, stderr := runMain("-a", "ff,ffq", "-f", "csv", "--progress", "never", "--waits", "-", flaky, slow)
	require.Equal(t, ExitOK, code, stderr)
	_, table, ok := strings.Cut(out, "run ")
	require.True(t, ok, out)
	assert.Regexp(t, `\nff on slow-boot +\d+ `, table)
	assert.NotContains(t, table, "ff on flaky-servers  ")
	assert.Regexp(t, `\nffq on flaky-servers +\d+ `, table)
	assert.Contains(t, table, "ffq: mean of 2")
	assert.NotContains(t, table, "ff: mean", "one run left: no mean row")
	assert.Regexp(t, `\nno wait split for ff on flaky-servers: \d+ consecutive CHKQ`, table)
	assert.Equal(t, 1, strings.Count(table, "ff on flaky-servers"), "named once")

	code, _, stderr = runMain("--client", "no-such-client {port}", "--waits", "-", cfgs[0])
	assert.Equal(t, ExitUsage, code, "refused before the run")
	assert.Contains(t, stderr, "--waits is not available with --client")
}

// splitRun runs dsbench -f csv with the split flag (--waits or --costs)
// writing to a file: the report's records, its columns by name, the
// file, and the file's rows by run ("ff on config20-med-med"), the cells
// after the name.
func splitRun(t *testing.T, flag, algos string, cfgs []string) (recs [][]string, col map[string]int, data []byte, rows map[string][]string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "split.txt")
	code, out, stderr := runMain(append([]string{"-a", algos, "-f", "csv", "--progress", "never", flag, file}, cfgs...)...)
	require.Equal(t, ExitOK, code, stderr)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	col = map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	data, err = os.ReadFile(file)
	require.NoError(t, err)
	rows = map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 9 && f[1] == "on" { // "ff on config20-med-med 1217 ..."
			rows[f[0]+" on "+f[2]] = f[3:]
		}
	}
	return recs, col, data, rows
}
