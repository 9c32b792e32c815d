package dsbench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/dsclient"
)

// The rough edges of issue 14 item 4, each as a new user met it.

// A strategy parameter is checked by the same function in dsbench and
// dsclient (strategies.New), before any run: the same refusal, word for
// word, and a usage error, not a failed run.
func TestParamCheckSharedWithDsclient(t *testing.T) {
	code, out, stderr := runMain("-a", "cost-reduce:multiplier=-1")
	assert.Equal(t, ExitUsage, code)
	assert.Empty(t, out, "no run was made")
	var cout, cerr bytes.Buffer
	ccode := dsclient.Main([]string{"-a", "cost-reduce", "--param", "multiplier=-1"}, &cout, &cerr)
	assert.Equal(t, dsclient.ExitUsage, ccode)
	msg := strings.TrimPrefix(strings.TrimSpace(stderr), "dsbench: ")
	assert.Equal(t, "strategy cost-reduce: parameter multiplier=-1: want a finite number ≥ 0", msg)
	assert.Equal(t, "dsclient: "+msg, strings.TrimSpace(cerr.String()))
}

// -b naming no column is refused (it used to be dropped silently), and
// so is an -a naming no strategy (it ran nothing and blamed a table it
// did not print).
func TestUnknownColumnOrStrategyRefused(t *testing.T) {
	for args, want := range map[string]string{
		"-b nosuch -a ff":    "dsbench: -b nosuch: no such column (columns: ff)",
		"-b bf -a ff":        "dsbench: -b bf: not among the strategies run: add it to -a (columns: ff)",
		"-b ff,nosuch -a ff": "dsbench: -b nosuch: no such column",
		"-a ,":               `dsbench: -a ",": names no strategy (dsbench --list shows them)`,
	} {
		code, out, stderr := runMain(strings.Fields(args)...)
		assert.Equal(t, ExitUsage, code, args)
		assert.Empty(t, out)
		assert.Contains(t, stderr, want, args)
	}
	code, out, stderr := runMain("-a", "")
	assert.Equal(t, ExitUsage, code)
	assert.Empty(t, out)
	assert.Equal(t, "dsbench: -a \"\": names no strategy (dsbench --list shows them)\n", stderr)
}

// -b reads specs as -a does: a spec with several parameters is one
// column, named by its label (keys in order), and a bare word after a
// spec without parameters is a column of its own (a --client label).
func TestBaselineSpecs(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   []string
	}{
		{[]string{"atl,ff,bf,ff"}, []string{"atl", "ff", "bf"}},
		{[]string{"thr:queue=gq,pmin=5,deadline=82800"}, []string{"thr:deadline=82800,pmin=5,queue=gq"}},
		{[]string{"thr:queue=gq,pmin=5,ff,client"}, []string{"thr:pmin=5,queue=gq", "ff", "client"}},
		{[]string{"frontier:weight=1,2", "java MyClient"}, []string{"frontier:weight=1", "frontier:weight=2", "java MyClient"}},
		{[]string{"composite:members=[soonest; ff],mode=portfolio"}, []string{"composite:members=[soonest; ff],mode=portfolio"}},
	} {
		got, _, _, err := parseBaselines(tc.values)
		require.NoError(t, err, tc.values)
		assert.Equal(t, tc.want, got, tc.values)
	}
	_, _, _, err := parseBaselines([]string{"thr:pmin=5,client"})
	assert.EqualError(t, err, `-b thr:pmin=5,client: strategy thr: parameter pmin="client": want an integer (if client is a column of its own, give it its own -b)`)

	// The messages name -b, not -a.
	_, _, _, err = parseBaselines([]string{"thr:pmin=5,pmin=6"})
	assert.EqualError(t, err, `-b "thr:pmin=5,pmin=6": parameter pmin given twice for thr`)
	_, _, _, err = parseBaselines([]string{"ff]"})
	assert.ErrorContains(t, err, `-b: "ff]", column 3: "]" without "["`)

	// With --client and no -a the baselines are what runs beside the
	// client, and the client's own column may be named among them (the
	// labels used to be joined and parsed again as -a, which refused it).
	bench, _, err := (&cliConfig{client: "my-client {port}", label: "mine", baselines: []string{"ff,mine", "thr:pmin=5,queue=gq"},
		objective: "tt", format: "table", timeout: time.Minute, progress: "never", clientDir: "."}).bench([]string{filepath.Join("..", "..", "configs", "slow-boot.xml")})
	require.NoError(t, err)
	assert.Equal(t, []string{"ff", "thr:pmin=5,queue=gq", "mine"}, bench.Columns())

	// A column with two parameters is accepted, where pflag's comma list
	// split it into pieces that named no column.
	code, out, stderr := runMain("-f", "csv", "-b", "thr:queue=gq,pmin=5", "-a", "thr:pmin=5,queue=gq,ff",
		"--replay000", "seeds=0,limit=3")
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, out, `"thr:pmin=5,queue=gq",ok`)
}

// dsbench --list and dsclient --list show the same listing (one
// renderer), each after its own line on how to set a parameter.
func TestListIsOneRenderer(t *testing.T) {
	code, out, _ := runMain("--list")
	require.Equal(t, ExitOK, code)
	var cout, cerr bytes.Buffer
	require.Equal(t, dsclient.ExitOK, dsclient.Main([]string{"--list"}, &cout, &cerr))
	_, bench, _ := strings.Cut(out, "\n")
	_, client, _ := strings.Cut(cout.String(), "\n")
	assert.Equal(t, client, bench)
	assert.Contains(t, bench, "cost-reduce\n    queue on the cheapest")
	assert.Contains(t, bench, "\n    multiplier=4 (float) ")
	assert.Contains(t, bench, "atl [reference baseline]\n")
	assert.True(t, strings.HasPrefix(out, "Strategies (set a parameter with -a NAME:KEY=VALUE"))
	assert.True(t, strings.HasPrefix(cout.String(), "Strategies (set a parameter with -a NAME:KEY=VALUE or --param KEY=VALUE)"))
}

// "1 configs × 1 strategies … in 0s": plurals, and a duration with digits.
func TestHeaderPluralsAndDuration(t *testing.T) {
	rp := benchReport{configs: []string{"c"}, columns: []string{"ff"}, where: "(in-process)", elapsed: 312 * time.Millisecond}
	assert.Equal(t, "1 config × 1 strategy = 1 run (in-process) in 0.31s", rp.header(1, nil))
	rp = benchReport{configs: []string{"a", "b"}, columns: []string{"ff", "bf", "wf"}, where: "(in-process)",
		elapsed: 2*time.Minute + 41400*time.Millisecond, merged: 4}
	assert.Equal(t, "2 configs × 3 strategies = 6 runs (in-process) in 2m41s of runs, merged from 4 shards", rp.header(6, nil))
	// A server binary's version, as its logs said.
	rp = benchReport{configs: []string{"c"}, columns: []string{"ff"}, where: "(against ./ds-server)", elapsed: 312 * time.Millisecond}
	assert.Equal(t, "1 config × 1 strategy = 1 run (against ./ds-server: ds-server 2-Apr, 2026 @ MQ) in 0.31s", rp.header(1, []string{"2-Apr, 2026 @ MQ"}))
	for d, want := range map[time.Duration]string{0: "0.00s", 4 * time.Millisecond: "0.00s", 50 * time.Millisecond: "0.05s",
		3449 * time.Millisecond: "3.4s", 59900 * time.Millisecond: "59.9s", 61 * time.Second: "1m1s"} {
		assert.Equal(t, want, humanDuration(d), d)
	}
	code, out, _ := runMain("-a", "ff", fixtureConfig(t, "sample-config01"))
	require.Equal(t, ExitOK, code)
	assert.Regexp(t, `^dsbench: 1 config × 1 strategy = 1 run \(in-process, ds-server 2026\) in \d+\.\d+s\n`, out)
	code, out, _ = runMain("-a", "ff", "--year", "2025", fixtureConfig(t, "sample-config01"))
	require.Equal(t, ExitOK, code)
	assert.Regexp(t, `^dsbench: 1 config × 1 strategy = 1 run \(in-process, ds-server 2025\) in \d+\.\d+s\n`, out)
	code, _, errOut := runMain("-a", "ff", "--year", "2024", fixtureConfig(t, "sample-config01"))
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errOut, `dsbench: --year: unknown ds-server year "2024": want 2025 (ds-server 4-Apr-2025) or 2026`)
}

// On the failure config, a strategy without the global queue shows "needs
// queue*" in the table, with a one-line legend right under it saying why
// and which configs the averages leave out.
func TestFailureConfigExplainsItself(t *testing.T) {
	args := []string{"-a", "ff,ffq", "-b", "ff", "-f", "table", filepath.Join("..", "..", "configs", "flaky-servers.xml"), filepath.Join("..", "..", "configs", "slow-boot.xml")}
	code, out, stderr := runMain(args...)
	require.Equal(t, ExitOK, code, stderr)
	tt, _, _ := strings.Cut(out, "\n\nResource utilisation")
	assert.Regexp(t, `\nflaky-servers\s+needs queue\*\s+\d+\n`, tt)
	assert.Regexp(t, `\nNormalised \(Average\).*\n\* needs queue: flaky-servers has resource failures; a strategy that never takes jobs back from the global queue cannot finish such a run`, tt)
	assert.Contains(t, tt, "\nAverages are over the 1 config where every column has a result; left out: flaky-servers.")
	assert.Regexp(t, `flaky-servers\s+ff\s+expected\s+10 consecutive CHKQ`, out, "the reason is still listed, as expected")

	code, out, _ = runMain(append(args, "-f", "markdown")...)
	require.Equal(t, ExitOK, code)
	assert.Contains(t, out, "| flaky-servers | needs queue* |")
	assert.Contains(t, out, "|\n\n\\* needs queue: flaky-servers has")
}

// A misspelt attribute of a config (randomseed) is warned of before the
// runs, with the attribute ds-server reads, as dsmock and dsview do.
func TestConfigAttributeWarning(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "configs", "slow-boot.xml"))
	require.NoError(t, err)
	cfg := filepath.Join(t.TempDir(), "c.xml")
	require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(string(data), "<config ", `<config randomseed="3" `, 1)), 0o644))
	code, _, stderr := runMain("-a", "ff", cfg)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stderr, "dsbench: warning: "+cfg+": <config>: attribute randomseed is not one ds-server reads: it is ignored; did you mean randomSeed?\n")
}
