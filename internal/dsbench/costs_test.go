package dsbench

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dsbench --costs: a row per run and a mean per strategy, after the
// report; each row's cost ratio is the report's (which divides ds-server's
// total to the cent), its five parts add up to it, and the work is 1 where
// every job completed.
func TestCostsFlag(t *testing.T) {
	cfgs := []string{fixtureConfig(t, "config20-med-med"), filepath.Join("..", "..", "configs", "flaky-servers.xml"), filepath.Join("..", "..", "configs", "slow-boot.xml")}
	recs, col, data, cells := splitRun(t, "--costs", "ff,ffq,frontier", cfgs)
	rows := map[string][]float64{}
	for run, f := range cells {
		for _, x := range f {
			n, err := strconv.ParseFloat(x, 64)
			require.NoError(t, err, run)
			rows[run] = append(rows[run], n)
		}
	}
	ok := 0
	for _, r := range recs[1:] {
		key := r[col["strategy"]] + " on " + r[col["config"]]
		v, found := rows[key]
		if r[col["status"]] != "ok" {
			assert.False(t, found, "%s has no result and no row", key)
			assert.Contains(t, string(data), "no cost split for "+key+":")
			continue
		}
		ok++
		require.True(t, found, "no costs row for %s in\n%s", key, data)
		ratio, _ := strconv.ParseFloat(r[col["cost_ratio"]], 64)
		bound, _ := strconv.ParseFloat(r[col["packing_cost"]], 64)
		// The report's total is ds-server's, to the cent; the split's is the sum it rounds.
		assert.InDelta(t, ratio, v[0], 0.005/(bound-0.005)+0.00011, "%s: the split's cost ratio against the report's", key)
		assert.InDelta(t, v[0], v[1]+v[2]+v[3]+v[4]+v[5], 0.0003, "%s: the parts add up", key)
		assert.Equal(t, 1.0, v[1], "%s: every job completed", key)
		if r[col["config"]] == "config20-med-med" {
			assert.Equal(t, 0.0, v[2], "%s: one rate per core: no type is dearer", key)
		}
	}
	assert.Len(t, rows, ok, string(data))
	assert.Equal(t, 8, ok, "ff has no result on the failure trace: it never dequeues")
	assert.Contains(t, string(data), "no cost split for ff on flaky-servers: ")
	assert.Contains(t, string(data), "ff: mean of 2")
	assert.Contains(t, string(data), "ffq: mean of 3")
	assert.Contains(t, string(data), "frontier: mean of 3")
	assert.Greater(t, rows["ffq on flaky-servers"][3], 0.0, "failures lose runs")
	assert.Greater(t, rows["ff on config20-med-med"][5], 0.5, "ff never powers a server off: billed empty")

	file := filepath.Join(t.TempDir(), "costs.txt")
	code, _, stderr := runMain("--client", "no-such-client {port}", "--costs", "-", cfgs[0])
	assert.Equal(t, ExitUsage, code, "refused before the run")
	assert.Contains(t, stderr, "--costs is not available with --client")

	// Two outputs into one file: by the same path, by another spelling,
	// or, for a file already there, through a link.
	dir := filepath.Dir(file)
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	require.NoError(t, os.Symlink(file, link))
	for _, c := range [][2]string{{file, file}, {file, filepath.Join(dir, ".", "costs.txt")}, {file, link}} {
		code, _, stderr = runMain("-a", "ff", "--waits", c[0], "--costs", c[1], cfgs[0])
		assert.Equal(t, ExitUsage, code, "refused before the run: %v", c)
		assert.Contains(t, stderr, "--costs "+c[1]+": --waits writes that file too", c)
	}
	code, _, stderr = runMain("-a", "ff", "--out", filepath.Join(dir, "new.csv"), "--html", filepath.Join(dir, "new.csv"), cfgs[0])
	assert.Equal(t, ExitUsage, code, "a file not there yet, by its path")
	assert.Contains(t, stderr, "--html "+filepath.Join(dir, "new.csv")+": --out writes that file too")
}
