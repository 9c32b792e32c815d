package dsbench

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

const swfTrace = "../../mocksrv/swf/testdata/small.swf"

// TestSWFCommandLine: dsbench takes the trace as an argument; a bad one
// is a usage-time refusal (exit 2 or 1, the trace's line in the message),
// not a table of failed runs.
func TestSWFCommandLine(t *testing.T) {
	var stdout, stderr strings.Builder
	code := Main([]string{"-a", "ff", "-f", "csv", "--progress", "never", swfTrace + ":time-scale=0.5"}, &stdout, &stderr, nil)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "small:time-scale=0.5")
	bad := filepath.Join(t.TempDir(), "bad.swf")
	require.NoError(t, os.WriteFile(bad, []byte("1 0 5 100 4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1 0\n"), 0o644))
	stdout.Reset()
	stderr.Reset()
	code = Main([]string{"-a", "ff", "--progress", "never", bad}, &stdout, &stderr, nil)
	require.NotEqual(t, 0, code)
	require.Contains(t, stderr.String(), bad+": line 1: 19 fields, want 18")
	require.Empty(t, stdout.String())
}

// TestConfigWarnings: a number with text after it (cores="8x"), which
// ds-server reads as 8 without a word, is warned about by dsbench as by
// dsmock -c, in a config and in a trace's servers config, once a file.
func TestConfigWarnings(t *testing.T) {
	data, err := os.ReadFile("../../mocksrv/swf/testdata/servers.xml")
	require.NoError(t, err)
	servers := filepath.Join(t.TempDir(), "servers.xml")
	// randomSeed="7y" is not warned about: a trace reads only the servers.
	lax := strings.Replace(strings.Replace(string(data), `cores="8"`, `cores="8x"`, 1), `randomSeed="7"`, `randomSeed="7y"`, 1)
	require.NotEqual(t, string(data), lax)
	require.NoError(t, os.WriteFile(servers, []byte(lax), 0o644))
	cfgData, err := os.ReadFile("../../configs/light-short-small.xml")
	require.NoError(t, err)
	require.Contains(t, string(cfgData), `cores="2"`)
	cfg := filepath.Join(t.TempDir(), "c2x.xml")
	require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(string(cfgData), `cores="2"`, `cores="2x"`, 1)), 0o644))

	var stdout, stderr strings.Builder
	code := Main([]string{"-a", "ff,bf", "-f", "csv", "--progress", "never", cfg, swfTrace + ":servers=" + servers, swfTrace + ":time-scale=2,servers=" + servers}, &stdout, &stderr, nil)
	require.Equal(t, 0, code, stderr.String())
	warnings := ""
	for _, l := range strings.SplitAfter(stderr.String(), "\n") {
		if strings.HasPrefix(l, "dsbench: warning: ") {
			warnings += l
		}
	}
	require.Equal(t, "dsbench: warning: "+cfg+`: <server> 2 (micro): attribute cores: "2x" is read as 2, as ds-server does (it ignores "x")`+"\n"+
		"dsbench: warning: "+servers+`: <server> 2 (big): attribute cores: "8x" is read as 8, as ds-server does (it ignores "x")`+"\n", warnings)
}

// TestSWFConversionReport: what a trace's conversion left out is said on
// stderr once per trace (as dsswf says it, after the row's name), however
// many transforms and strategies run it, and each run of a trace records
// its kept and skipped lines in the JSON and the CSV; a config file's runs
// record none.
func TestSWFConversionReport(t *testing.T) {
	servers := "../../mocksrv/swf/testdata/servers.xml"
	given := swfTrace + ":servers=" + servers
	args := []string{"-a", "ff,bf", "--arrival-factor", "0.5,1", "--progress", "never", swfTrace, given, "../../configs/light-short-small.xml"}
	var stdout, stderr strings.Builder
	code := Main(append([]string{"-f", "json"}, args...), &stdout, &stderr, nil)
	require.Equal(t, 0, code, stderr.String())
	for _, line := range []string{
		"dsbench: small: 5 jobs, 6 server types (procs-per-core=1,time-scale=1,offset=0,disk=100,mem-per-core=100)\n",
		"dsbench: small: skipped 1: cancelled (status 5)\n",
		"dsbench: small: 2 jobs had no requested time: their estimate is their run time\n",
		"dsbench: small: derived cluster: 112 cores (6 server types, each sized to the whole machine) against the trace's MaxProcs 16\n",
		"dsbench: small:servers=" + servers + ": skipped 1: larger than the largest server type\n",
	} {
		require.Equal(t, 1, strings.Count(stderr.String(), line), "%q in\n%s", line, stderr.String())
	}
	var report struct{ Runs []bench.Result }
	require.NoError(t, json.Unmarshal([]byte(stdout.String()), &report))
	require.Len(t, report.Runs, 12)
	for _, r := range report.Runs {
		switch r.Base {
		case "small":
			require.Equal(t, &sources.SWFConversion{Kept: 5, Skipped: 5, SkippedBy: map[string]int{swf.SkipCancelled: 1, swf.SkipPartial: 1,
				swf.SkipNoSubmit: 1, swf.SkipNoRun: 1, swf.SkipNoProcs: 1}, NoReqTime: 2, CappedMemory: 1, DerivedCores: 112, MachineCores: 16}, r.SWF, r.Config)
		case "small:servers=" + servers:
			require.NotNil(t, r.SWF, r.Config)
			require.Equal(t, 4, r.SWF.Kept, r.Config)
			require.Equal(t, 6, r.SWF.Skipped, r.Config)
			require.Equal(t, 1, r.SWF.SkippedBy[swf.SkipTooBig], r.Config)
			require.Zero(t, r.SWF.DerivedCores, r.Config)
		default:
			require.Nil(t, r.SWF, r.Config)
		}
	}

	stdout.Reset()
	stderr.Reset()
	code = Main(append([]string{"-f", "csv"}, args...), &stdout, &stderr, nil)
	require.Equal(t, 0, code, stderr.String())
	rows, err := csv.NewReader(strings.NewReader(stdout.String())).ReadAll()
	require.NoError(t, err)
	kept, skipped := slices.Index(rows[0], "swf_kept"), slices.Index(rows[0], "swf_skipped")
	require.Positive(t, kept, rows[0])
	require.Equal(t, kept+1, skipped, rows[0])
	want := map[string][2]string{"small": {"5", "5"}, "small:servers=" + servers: {"4", "6"}, "light-short-small": {"", ""}}
	for _, row := range rows[1:] {
		base := row[slices.Index(rows[0], "base_config")]
		require.Equal(t, want[base], [2]string{row[kept], row[skipped]}, row[0])
	}
}

// TestSWFServersLeftBehind: what of a trace's servers= config its run
// does not use, as dsmock --swf says it (package swf's rule): failures
// are refused before any run (the runs would measure the servers without
// them), the job file is warned about, newline="true" without -n and
// randomSeed with --mem-fail too; their neighbours that count get no word.
func TestSWFServersLeftBehind(t *testing.T) {
	data, err := os.ReadFile("../../mocksrv/swf/testdata/servers.xml")
	require.NoError(t, err)
	dir := t.TempDir()
	edit := func(name string, oldNew ...string) string {
		text := string(data)
		for i := 0; i < len(oldNew); i += 2 {
			require.Contains(t, text, oldNew[i])
			text = strings.Replace(text, oldNew[i], oldNew[i+1], 1)
		}
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	model := edit("model.xml", "<servers>", `<servers failureModel="teragrid">`)
	failFile := edit("failfile.xml", "<servers>", `<servers failureFile="f.txt">`)
	jobFile := edit("file.xml", `<job type="ignored" minRunTime="1" maxRunTime="10" populationRate="100" />`, "", "<jobs>", `<jobs file="j.xml">`)
	nl := edit("nl.xml", `randomSeed="7"`, `randomSeed="7" newline="true"`)
	const (
		w       = "dsbench: warning: "
		alone   = "dsbench runs the trace on its <server> elements alone"
		refused = `: the trace runs on the config's <server> elements alone, without its failures; write the files with dsswf --servers `
	)
	for _, c := range []struct {
		name    string
		flags   []string
		servers string
		code    int
		stderr  string // the dsbench lines but the conversion report's
	}{
		{"failure model", nil, model, ExitUsage, "dsbench: swf spec \"" + swfTrace + ":servers=" + model + "\": " + model + `: <servers failureModel="teragrid">` + refused + model + " and add the attribute to the config it writes (dsswf says how)\n"},
		{"failure trace", nil, failFile, ExitUsage, "dsbench: swf spec \"" + swfTrace + ":servers=" + failFile + "\": " + failFile + `: <servers failureFile="f.txt">` + refused + failFile + " and add the attribute to the config it writes (dsswf says how)\n"},
		{"job file", nil, jobFile, 0, w + jobFile + `: <jobs file="j.xml"> has no effect: ` + alone + ", with the trace's jobs\n"},
		{"newline without -n", nil, nl, 0, w + nl + `: <config newline="true"> has no effect: ` + alone + "; give -n for newline mode\n"},
		{"newline with -n", []string{"-n"}, nl, 0, ""},
		{"randomSeed with --mem-fail", []string{"--mem-fail", "hard"}, jobFile, 0, w + jobFile + `: <config randomSeed="7"> has no effect: ` + alone + "; --mem-fail's draws are seeded with 1024\n" +
			w + jobFile + `: <jobs file="j.xml"> has no effect: ` + alone + ", with the trace's jobs\n"},
		{"randomSeed without --mem-fail", nil, "../../mocksrv/swf/testdata/servers.xml", 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			args := append([]string{"-a", "ff", "-f", "csv", "--progress", "never"}, c.flags...)
			code := Main(append(args, swfTrace+":servers="+c.servers), &stdout, &stderr, nil)
			require.Equal(t, c.code, code, stderr.String())
			var got strings.Builder
			for _, l := range strings.SplitAfter(stderr.String(), "\n") {
				if !strings.HasPrefix(l, "dsbench: small:servers=") {
					got.WriteString(l)
				}
			}
			require.Equal(t, c.stderr, got.String())
		})
	}
}
