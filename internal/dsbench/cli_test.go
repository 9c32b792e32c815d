package dsbench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/shard"
	"github.com/dssim-go/dssim-go/internal/fixtures"
)

func runMain(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb, nil)
	return code, out.String(), errb.String()
}

// No arguments: every registered strategy on the embedded suite, the
// summary on stdout, one screen (at most 60 lines of at most 120
// columns); -f table: the course tables.
func TestMainDefaultRun(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	code, out, stderr := runMain()
	require.Equal(t, ExitOK, code, stderr)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	assert.LessOrEqual(t, len(lines), 60, "the first screen")
	for _, l := range lines {
		assert.LessOrEqual(t, utf8.RuneCountInString(l), 120, "%q", l)
	}
	for _, want := range []string{"(in-process, ds-server 2026)", "\nRanked by configs finished, then turnaround time",
		"\nLook at ", "\nExpected: flaky-servers has server failures", "\nMore: -f table (course tables), -a (fewer columns)", "\nTAT/bound and Cost/bound: means of each config's ratio", "\nBaselines (-b): atl, ff, bf, fc, fafc.\n"} {
		assert.Contains(t, out, want)
	}
	assert.Regexp(t, `\n30\s+\S+\s`, out, "every strategy ranked")
	assert.NotContains(t, out, "error", "the runs that cannot finish by design read as expected")
	assert.Empty(t, stderr, "no progress bar when stderr is not a terminal")

	code, out, stderr = runMain("-f", "table")
	require.Equal(t, ExitOK, code, stderr)
	for _, want := range []string{"(in-process, ds-server 2026)", "Turnaround time (objective)", "Resource utilisation", "Total rental cost",
		"Normalised (atl)", "Normalised (Average)", "Configs where a strategy beats every baseline (atl, ff, bf, fc, fafc)",
		"Turnaround / mean actual runtime", "Cost / perfect-packing cost", "heavy-long-large", "cost-reduce"} {
		assert.Contains(t, out, want)
	}
	// The failure-trace config defeats the baselines that never dequeue;
	// they are listed with the reason, as expected.
	assert.Regexp(t, `flaky-servers\s+ff\s+expected\s+10 consecutive CHKQ`, out)
	assert.NotContains(t, out, "Runs without a result")
	assert.Contains(t, out, "Strategy metrics that are 0 in every run, not shown as tables: ")
	assert.NotRegexp(t, `\nStrategy metric bigGroupJobsPct`, out, "a table of zeros")
}

func TestMainFormatsAndPlots(t *testing.T) {
	fx := filepath.Join(fixtures.Dir(t), "fixtures")
	args := []string{"-a", "ff,fafc", "-b", "ff", filepath.Join(fx, "sample-config01"), filepath.Join(fx, "ds-sample-config01")}

	code, out, stderr := runMain(append(args, "--format", "csv")...)
	require.Equal(t, ExitOK, code, stderr)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 5)
	assert.Equal(t, []string{"sample-config01", "fafc", "ok"}, recs[2][:3])
	assert.Equal(t, "873", recs[2][12], "fafc's reference turnaround on sample-config01")

	code, out, _ = runMain(append(args, "--format", "json")...)
	require.Equal(t, ExitOK, code)
	var doc struct {
		Runs []bench.Result `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Runs, 4)
	assert.Equal(t, 763, doc.Runs[0].Summary.AvgTurnaround)

	code, out, _ = runMain(append(args, "--format", "markdown")...)
	require.Equal(t, ExitOK, code)
	assert.Contains(t, out, "| Config | ff | fafc |")

	dir := t.TempDir()
	code, _, stderr = runMain("-a", "bf", "--plots", dir, filepath.Join(fx, "sample-config01"))
	require.Equal(t, ExitOK, code, stderr)
	for _, f := range []string{"tradeoff", "metric-tt", "metric-ru", "metric-co", "timeline"} {
		checkPNG(t, filepath.Join(dir, f+".png"))
		checkSVG(t, filepath.Join(dir, f+".svg"))
	}
}

func TestMainUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-a", "nosuch"},
		{"-a", "cost-reduce:multiplier=x"},
		{"--format", "xml"},
		{"-o", "speed"},
		{"--bogus"},
		{"/no/such/config.xml"},
		{"--server", "/no/such/server"},
		{"--timeout", "0s"},
		// A --client column must be told apart from the strategies' and
		// named by -b.
		{"--client", "true", "--client-label", "ff", "-a", "bf"},
		{"--client", "true", "--client-label", "my:client"},
		{"--client", "true", "--client-label", "a,b"},
		{"--client", "true", "--client-label", " "},
	} {
		code, _, stderr := runMain(args...)
		assert.Equal(t, ExitUsage, code, args)
		assert.True(t, strings.HasPrefix(stderr, "dsbench: "), "%v: %q", args, stderr)
	}
	// -j 0 is the default (one per CPU), so "must be positive" was wrong.
	code, _, stderr := runMain("-j", "-3", "/no/such/config.xml")
	assert.Equal(t, ExitUsage, code)
	assert.Equal(t, "dsbench: -j -3: want 1 or more runs at once (or 0, the default: one per CPU)\n", stderr)
	code, out, _ := runMain("-h")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, out, "Exit status")
	code, out, _ = runMain("--list")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, out, "multiplier=4")
}

// --algorithm, dsclient's spelling, is --algo (-a): one flag, its values
// columns in the order given, whichever spelling gave them.
func TestAlgorithmIsAlgo(t *testing.T) {
	code, out, stderr := runMain("--algorithm", "ff", "-a", "bf", "--algo", "wf", "--algorithm=fc", "-f", "csv", fixtureConfig(t, "config20-med-med"))
	require.Equal(t, ExitOK, code, stderr)
	var cols []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		cols = append(cols, strings.Split(line, ",")[1])
	}
	assert.Equal(t, []string{"ff", "bf", "wf", "fc"}, cols)
	code, _, stderr = runMain("--algorithm")
	assert.Equal(t, ExitUsage, code)
	assert.Equal(t, "dsbench: flag needs an argument: --algorithm (see dsbench -h)\n", stderr)
	code, _, stderr = runMain("--plot", "p")
	assert.Equal(t, ExitUsage, code)
	assert.Equal(t, "dsbench: unknown flag: --plot; did you mean --plots? (see dsbench -h)\n", stderr)
}

// --strict turns a run without a result into exit status 3.
func TestMainStrict(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xml")
	require.NoError(t, os.WriteFile(bad, []byte(`<config><servers/></config>`), 0o644))
	good := filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01")
	code, out, _ := runMain("-a", "ff", good, bad)
	assert.Equal(t, ExitOK, code)
	assert.Regexp(t, `bad\s+ff\s+invalid-config`, out)
	code, _, _ = runMain("-a", "ff", "--strict", good, bad)
	assert.Equal(t, ExitStrict, code)

	// A shard too, once its piece is written, when one of its own runs
	// failed (good is run 0, in shard 1/2; bad run 1, in shard 2/2).
	for _, tc := range []struct {
		shard  string
		strict bool
		want   int
	}{
		{"1/1", true, ExitStrict}, {"1/1", false, ExitOK}, {"1/2", true, ExitOK}, {"2/2", true, ExitStrict},
	} {
		piece := filepath.Join(dir, strings.ReplaceAll(tc.shard, "/", "-")+".json")
		args := []string{"-a", "ff", "--shard", tc.shard, "--out", piece, good, bad}
		if tc.strict {
			args = append(args, "--strict")
		}
		code, _, stderr := runMain(args...)
		assert.Equal(t, tc.want, code, "%s strict=%v: %s", tc.shard, tc.strict, stderr)
		if tc.want == ExitStrict {
			assert.Contains(t, stderr, "dsbench: --strict: 1 of the ")
		}
		data, err := os.ReadFile(piece)
		require.NoError(t, err, "the piece is written")
		_, err = shard.ParsePiece(piece, data)
		assert.NoError(t, err)
	}
}

// Nothing ran (a config that does not load, a client binary that does not
// exist): the report still says why, and the exit status is 1.
func TestMainNothingRanExits1(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xml")
	require.NoError(t, os.WriteFile(bad, []byte(`<config><servers/></config>`), 0o644))
	code, out, stderr := runMain("-a", "ff", bad)
	assert.Equal(t, ExitFailure, code)
	assert.Regexp(t, `bad\s+ff\s+invalid-config`, out)
	assert.Contains(t, stderr, "dsbench: the run produced no result")

	good := filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01")
	code, out, stderr = runMain("--client", "/no/such/client -p {port}", good)
	assert.Equal(t, ExitFailure, code, stderr)
	assert.Empty(t, out)
	assert.Equal(t, "dsbench: --client \"/no/such/client -p {port}\": /no/such/client does not exist (relative paths are taken from --client-dir .)\n", stderr)
	code, _, stderr = runMain("--client", "nosuchclient-xyz -p {port}", good)
	assert.Equal(t, ExitFailure, code, stderr)
	assert.Contains(t, stderr, `no program "nosuchclient-xyz" in PATH`)
}

// --progress always draws the bar on stderr (auto does only on a terminal);
// the report on stdout is unchanged.
func TestMainProgressBar(t *testing.T) {
	fx := filepath.Join(fixtures.Dir(t), "fixtures")
	code, out, stderr := runMain("--progress", "always", "-a", "ff,bf,fafc", filepath.Join(fx, "sample-config01"), filepath.Join(fx, "sample-config02"))
	require.Equal(t, ExitOK, code)
	assert.Regexp(t, `runs .*\(\d/6\)`, stderr)
	assert.NotContains(t, out, "/6)")
	code, _, stderr = runMain("--progress", "allways", "-a", "ff", filepath.Join(fx, "sample-config01"))
	assert.Equal(t, ExitUsage, code)
	assert.Equal(t, "dsbench: --progress \"allways\": want auto, always or never; did you mean always?\n", stderr)
	_, _, stderr = runMain("--progress", "never", "-a", "ff,bf", filepath.Join(fx, "sample-config01"))
	assert.Empty(t, stderr)
}

// -o is the objective in dsbench but the output file in dsswf and dsview:
// a value that looks like a file name gets a hint.
func TestObjectiveThatLooksLikeAFile(t *testing.T) {
	for _, tc := range []struct {
		value string
		hint  bool
	}{
		{"results.csv", true}, {"out/r", true}, {"-", true}, {"r.", false}, {"turn", false}, {"xx", false},
	} {
		code, out, stderr := runMain("-f", "csv", "-o", tc.value, "-a", "ff", "--replay000", "seeds=0,limit=3")
		assert.Equal(t, ExitUsage, code, tc.value)
		assert.Empty(t, out)
		assert.Contains(t, stderr, `dsbench: unknown objective "`+tc.value+`" (want tt (turnaround), ru (utilisation) or co (cost))`, tc.value)
		assert.Equal(t, tc.hint, strings.Contains(stderr, "(-o is the objective; the output file is --out)"), "%s: %s", tc.value, stderr)
	}
}
