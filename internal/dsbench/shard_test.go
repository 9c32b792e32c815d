package dsbench

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/shard"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// fixedWall makes every run's wall time 7 ms, so that two sweeps of the
// same runs print the same bytes.
func fixedWall(t *testing.T) {
	old := sinceStart
	sinceStart = func(time.Time) time.Duration { return 7 * time.Millisecond }
	t.Cleanup(func() { sinceStart = old })
}

// writeShards runs args as n shards and returns the pieces' paths.
func writeShards(t *testing.T, n int, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i := 1; i <= n; i++ {
		f := filepath.Join(dir, fmt.Sprintf("piece%d.json", i))
		code, _, stderr := runMain(append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", f)...)
		require.Equal(t, ExitOK, code, stderr)
		files = append(files, f)
	}
	return files
}

// The merge of 4 shards is the unsharded run, byte for byte in JSON and
// CSV; the text report differs only in its first line (the time).
func TestShardMergeEqualsUnsharded(t *testing.T) {
	fixedWall(t)
	// 10 configs × 3 columns = 30 runs: shards of 8, 8, 7 and 7 runs, and
	// libra reports strategy metrics (NaN ones too), which must survive the
	// trip.
	args := []string{"-a", "ff,ffq,libra", "-b", "ff", "-o", "co"}
	pieces := writeShards(t, 4, args...)
	for _, f := range []string{"json", "csv", "table"} {
		code, want, stderr := runMain(append(args, "-f", f)...)
		require.Equal(t, ExitOK, code, stderr)
		code, got, stderr := runMain(append([]string{"merge", "-f", f}, pieces...)...)
		require.Equal(t, ExitOK, code, stderr)
		if f == "table" {
			_, want, _ = strings.Cut(want, "\n")
			head, rest, _ := strings.Cut(got, "\n")
			assert.Contains(t, head, "30 runs (in-process, ds-server 2026)")
			assert.Contains(t, head, "merged from 4 shards")
			got = rest
		}
		assert.Equal(t, want, got, f)
	}
	assert.Contains(t, mustRead(t, pieces[0]), `"sha256"`, "configs are fingerprinted by content")
	assert.Contains(t, mustRead(t, pieces[0]), `"deadlineMetPct"`, "strategy metrics are in the pieces")

	// Plots: the merge writes the same files as the run.
	dirRun, dirMerge := t.TempDir(), t.TempDir()
	code, _, stderr := runMain(append(args, "--plots", dirRun)...)
	require.Equal(t, ExitOK, code, stderr)
	code, _, stderr = runMain(append([]string{"merge", "--plots", dirMerge}, pieces...)...)
	require.Equal(t, ExitOK, code, stderr)
	for _, name := range []string{"tradeoff.svg", "metric-co.svg", "metric-tt.svg"} {
		assert.Equal(t, mustRead(t, filepath.Join(dirRun, name)), mustRead(t, filepath.Join(dirMerge, name)), name)
	}
}

func TestParseShard(t *testing.T) {
	for in, want := range map[string]bench.Shard{"1/1": {I: 1, N: 1}, "2/4": {I: 2, N: 4}, " 4/4": {I: 4, N: 4}} {
		got, err := bench.ParseShard(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	for in, msg := range map[string]string{
		"5/4": `--shard "5/4": the shard number must be between 1 and 4`,
		"0/3": `--shard "0/3": the shard number must be between 1 and 3`,
		"a/b": `--shard "a/b": want i/n`,
		"2":   `--shard "2": want i/n`,
		"1/0": `--shard "1/0": the number of shards must be at least 1`,
	} {
		_, err := bench.ParseShard(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), msg)
		code, _, stderr := runMain("--shard", in, "-a", "ff")
		assert.Equal(t, ExitUsage, code, in)
		assert.Contains(t, stderr, msg)
	}
	code, _, stderr := runMain("--shard", "1/2", "-f", "csv", "-a", "ff")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "give --format and --plots to dsbench merge")
	code, _, stderr = runMain("--shard", "1/2", "--html", filepath.Join(t.TempDir(), "v.html"), "-a", "ff")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "--html is not available with --shard")
	code, _, stderr = runMain("--shard", "1/2", "--waits", "-", "-a", "ff")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "--waits is not available with --shard")
	code, _, stderr = runMain("--shard", "1/2", "--costs", "-", "-a", "ff")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "--costs is not available with --shard")
}

// Bad pieces: each a clear error naming the file or the shards.
func TestMergeRefusesBadPieces(t *testing.T) {
	fixedWall(t)
	args := []string{"-a", "ff,fafc", "-b", "ff"}
	pieces := writeShards(t, 3, args...)
	other := writeShards(t, 3, "-a", "ff,bf", "-b", "ff")
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.json")
	data := mustRead(t, pieces[1])
	require.NoError(t, os.WriteFile(cut, []byte(data[:len(data)/2]), 0o644))
	// Reports given for pieces: libra's strategy metrics are numbers in a
	// report and text in a piece, which the decoding error said.
	report, metrics := filepath.Join(dir, "report.json"), filepath.Join(dir, "libra.json")
	csvReport, textReport := filepath.Join(dir, "report.csv"), filepath.Join(dir, "report.txt")
	for file, extra := range map[string][]string{report: {"-f", "json"}, metrics: {"-f", "json", "-a", "libra"},
		csvReport: {"-f", "csv"}, textReport: nil} {
		code, _, stderr := runMain(append(append(slices.Clone(args), extra...), "--out", file)...)
		require.Equal(t, ExitOK, code, stderr)
	}
	otherCSV := filepath.Join(dir, "other.csv")
	require.NoError(t, os.WriteFile(otherCSV, []byte("a,b\n1,2\n"), 0o644))
	two := writeShards(t, 2, args...)
	// Pieces edited into nonsense: each is refused, naming the file, the
	// run and the field (a merge took them as measured).
	edited := func(name, old, repl string) string {
		data := mustRead(t, pieces[1])
		require.Contains(t, data, old)
		f := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(f, []byte(strings.Replace(data, old, repl, 1)), 0o644))
		return f
	}
	weird := edited("weird.json", `"status": "ok"`, `"status": "weird"`)
	cost := regexp.MustCompile(`"total_cost": [-0-9.e+]+`).FindString(mustRead(t, pieces[1]))
	require.NotEmpty(t, cost)
	huge := edited("huge.json", cost, `"total_cost": 1e308`)
	negative := edited("negative.json", `"avg_wait": `, `"avg_wait": -`)
	notPiece := ", not a --shard piece (write pieces with dsbench --shard i/n --out FILE)"

	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{pieces[0], pieces[1]}, "missing shard 3/3 of the sweep (have 2 of 3 pieces)"},
		{[]string{pieces[0]}, "missing shards 2/3, 3/3"},
		{[]string{pieces[0], pieces[1], pieces[1], pieces[2]}, "shard 2/3 given twice: " + pieces[1] + " and " + pieces[1]},
		{[]string{pieces[0], other[1], pieces[2]}, pieces[0] + " and " + other[1] + " are pieces of different sweeps: strategies differ"},
		{[]string{pieces[0], cut, pieces[2]}, cut + ": the JSON is cut short"},
		{[]string{report}, "dsbench merge: " + report + " is a dsbench report (-f json)" + notPiece},
		{[]string{pieces[0], metrics}, "dsbench merge: " + metrics + " is a dsbench report (-f json)" + notPiece},
		{[]string{csvReport}, "dsbench merge: " + csvReport + " is a dsbench CSV report (-f csv)" + notPiece},
		{[]string{textReport}, "dsbench merge: " + textReport + " is a dsbench report (-f table or markdown)" + notPiece},
		{[]string{otherCSV}, "dsbench merge: " + otherCSV + ` is not a --shard piece: not JSON (its first line is "a,b"; write pieces with dsbench --shard i/n --out FILE)`},
		{[]string{pieces[0], two[1]}, two[1] + " is shard 2/2 but " + pieces[0] + " is one of 3 shards"},
		{[]string{filepath.Join(dir, "nosuch.json")}, "nosuch.json: no such file"},
		{nil, "dsbench merge: no piece given (dsbench merge PIECE.json...)"},
		{[]string{pieces[0], weird, pieces[2]}, weird + `: run 1: status "weird" is none of dsbench's (ok, unscheduled, no-result, timeout, invalid-config, error)`},
		{[]string{pieces[0], negative, pieces[2]}, negative + ": run 1: summary.avg_wait -"},
		{[]string{pieces[0], huge, pieces[2]}, huge + ": run 1: summary.total_cost 1e+308 is beyond what ds-server's 32-bit floats hold"},
	} {
		code, out, stderr := runMain(append([]string{"merge"}, tc.files...)...)
		assert.Equal(t, ExitUsage, code, tc.want)
		assert.Empty(t, out, "no report from half the data")
		assert.Contains(t, stderr, tc.want)
		assert.NotContains(t, stderr, "merge: merge:")
	}
}

// A config whose files changed between two shards is a different sweep.
func TestMergeRefusesChangedConfig(t *testing.T) {
	dir := t.TempDir()
	suite := sources.Suite()
	data, err := suite[0].ReadBeside(filepath.Base(suite[0].Path))
	require.NoError(t, err)
	cfg := filepath.Join(dir, "c.xml")
	require.NoError(t, os.WriteFile(cfg, data, 0o644))
	// The embedded configs name no job file: the jobs are generated.
	p1 := writeShards(t, 2, "-a", "ff", cfg)
	require.NoError(t, os.WriteFile(cfg, append(data, []byte("<!-- changed -->\n")...), 0o644))
	p2 := writeShards(t, 2, "-a", "ff", cfg)
	code, _, stderr := runMain("merge", p1[0], p2[1])
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "the files of config c differ")
}

// A straggler shard can be run again with a longer --timeout: the timeout
// changes no finished run's result, so it is not part of what pieces must
// share; merge notes the difference, and the report is the unsharded one.
func TestMergeAcrossTimeouts(t *testing.T) {
	fixedWall(t)
	vs, err := columns.ParseVariants([]string{"ff"})
	require.NoError(t, err)
	b := &bench.Bench{Sources: sources.Suite()[:1], Variants: vs}
	sw := shard.FingerprintOf(b, report.Turnaround, nil)
	b.Target.Timeout = time.Hour
	assert.NoError(t, shard.SameSweep("a.json", sw, "b.json", shard.FingerprintOf(b, report.Turnaround, nil)))

	args := []string{"-a", "ff,bf", "--replay000", "seeds=0,limit=3"}
	dir := t.TempDir()
	var pieces []string
	for i, timeout := range []string{"10m", "20m"} {
		p := filepath.Join(dir, fmt.Sprintf("%d.json", i+1))
		code, _, stderr := runMain(append(slices.Clone(args), "--timeout", timeout, "--shard", fmt.Sprintf("%d/2", i+1), "--out", p)...)
		require.Equal(t, ExitOK, code, stderr)
		pieces = append(pieces, p)
	}
	code, want, stderr := runMain(append(args, "-f", "csv")...)
	require.Equal(t, ExitOK, code, stderr)
	code, got, stderr := runMain(append([]string{"merge", "-f", "csv"}, pieces...)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, want, got)
	assert.Contains(t, stderr, "dsbench merge: note: the pieces ran with different --timeout values (10m0s in "+pieces[0]+"; 20m0s in "+pieces[1]+")")
}

// Pieces whose configs are another set say which configs are in one only;
// the same set in another order is refused too (each shard's runs follow
// the order), with a message that says to give the same order.
func TestMergeConfigSetAndOrder(t *testing.T) {
	c1, c2, c3 := fixtureConfig(t, "sample-config01"), fixtureConfig(t, "sample-config02"), fixtureConfig(t, "sample-config03")
	base := writeShards(t, 2, "-a", "ff", c1, c2)
	for _, tc := range []struct {
		name    string
		configs []string
		want    string
	}{
		{"order", []string{c2, c1}, ": the shards were given the configs in different orders (config 1 is sample-config01 in {a}, sample-config02 in {b}); give them in the same order"},
		{"one more", []string{c1, c2, c3}, " are pieces of different sweeps: the sets of configs differ (only in {a}: none; only in {b}: sample-config03)"},
		{"another", []string{c1, c3}, " are pieces of different sweeps: the sets of configs differ (only in {a}: sample-config02; only in {b}: sample-config03)"},
	} {
		other := writeShards(t, 2, append([]string{"-a", "ff"}, tc.configs...)...)
		code, out, stderr := runMain("merge", base[0], other[1])
		assert.Equal(t, ExitUsage, code, tc.name)
		assert.Empty(t, out, tc.name)
		want := base[0] + " and " + other[1] + strings.NewReplacer("{a}", base[0], "{b}", other[1]).Replace(tc.want)
		assert.Contains(t, stderr, want, tc.name)
	}
}
