package dsview

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// dsview on two shared transcripts of the real ds-server: one page, both
// runs on one axis, the summary's cost on it.
func TestDsviewTranscripts(t *testing.T) {
	dir := fixtures.Dir(t)
	out := filepath.Join(t.TempDir(), "v.html")
	var stdout, stderr strings.Builder
	code := Main([]string{"-c", filepath.Join(dir, "fixtures/sample-config01/config.xml"), "-o", out,
		filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz"), filepath.Join(dir, "transcripts/sample-config01.ff.vall.log.gz")}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{`"name":"sample-config01.bf.vall.log.gz"`, `"name":"sample-config01.ff.vall.log.gz"`, `"logCost":"0.69"`, "<canvas", "window.dsview"} {
		if want == "<canvas" {
			want = "createElement" // the canvases are made by the script
		}
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Count(page, `{"title":"sample-config01","runs":[`) != 1 {
		t.Error("the two runs are not one group (one shared time axis)")
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") || strings.Contains(page, "src=") {
		t.Error("the page refers to something outside itself")
	}
}

// -h says what each exit status means, the -o refusal with the usage
// status.
func TestDsviewHelpExitStatuses(t *testing.T) {
	var stdout, stderr strings.Builder
	require.Equal(t, ExitOK, Main([]string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "Exit status: 0 page or table written; 1 ")
	assert.Contains(t, stdout.String(), "or --waits with no run that has a wait split;\n2 bad command line (also an -o that is one of the inputs).")
}

// Refused input: a clear message naming the file (and line), exit 1, no
// page written.
func TestDsviewRefuses(t *testing.T) {
	dir := fixtures.Dir(t)
	cfg := filepath.Join(dir, "fixtures/sample-config01/config.xml")
	other := filepath.Join(dir, "fixtures/ds-sample-config02/config.xml")
	vall := filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz")
	cut := filepath.Join(t.TempDir(), "cut.log")
	data := fixtures.ReadGz(t, vall)
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := mocksrv.LoadConfig(cfg, mocksrv.LoadOptions{})
	require.NoError(t, err)
	system := filepath.Join(t.TempDir(), "ds-system.xml")
	require.NoError(t, os.WriteFile(system, mocksrv.SystemXML(loaded, mocksrv.Year2025), 0o644))
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no config", []string{vall}, ExitUsage, "dsview: no -c: give the config the runs used, dsview -c config.xml " + vall + " (see dsview -h)"},
		{"nothing", nil, ExitUsage, "dsview: want -c config.xml and at least one log"},
		{"ds-system.xml as the config", []string{"-c", system, vall}, ExitFailure,
			"-c " + system + ": this is a ds-system.xml (the servers ds-server or dsmock writes for its client, without the jobs); dsview needs the configuration file the run used"},
		{"no log", []string{"-c", cfg}, ExitUsage, "dsview: no log given: dsview -c " + cfg + " run.log, a log ds-server or dsmock wrote"},
		{"a config as the log", []string{"-c", cfg, cfg}, ExitFailure, cfg + ":1: not a ds-server log"},
		{"cut short", []string{"-c", cfg, cut}, ExitFailure, cut + ":"},
		{"another config", []string{"-c", other, vall}, ExitFailure, vall + ":11: job 0 has Est Runtime 653 in the log but 1135"},
		{"missing log", []string{"-c", cfg, "nope.log"}, ExitFailure, "nope.log"},
		{"missing config", []string{"-c", "nope.xml", vall}, ExitFailure, "nope.xml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "v.html")
			var stdout, stderr strings.Builder
			code := Main(append([]string{"-o", out}, c.args...), &stdout, &stderr)
			if code != c.code || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), c.code, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a page was written")
			}
		})
	}
}

// dsmock --serve's output: a run per session, named by it; a session cut
// short is left out, said on stderr and on the page.
func TestDsviewServeOutput(t *testing.T) {
	dir := fixtures.Dir(t)
	cfg := filepath.Join(dir, "fixtures/sample-config01/config.xml")
	bf := strings.SplitAfter(string(fixtures.ReadGz(t, filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz"))), "\n")
	ff := strings.SplitAfter(string(fixtures.ReadGz(t, filepath.Join(dir, "transcripts/sample-config01.ff.vall.log.gz"))), "\n")
	out := strings.Join(bf[:3], "") + "# session 1 (client 127.0.0.1:40001)\n" + strings.Join(bf[3:], "") +
		"# session 2 (client 127.0.0.1:40002)\n" + strings.Join(ff[3:100], "") +
		"# session 3 (client 127.0.0.1:40003)\n" + strings.Join(ff[3:], "")
	log := filepath.Join(t.TempDir(), "serve.out")
	require.NoError(t, os.WriteFile(log, []byte(out), 0o644))

	var stdout, stderr strings.Builder
	require.Equal(t, ExitOK, Main([]string{"--waits", "-c", cfg, log}, &stdout, &stderr), stderr.String())
	var names []string
	for _, l := range strings.Split(stdout.String(), "\n")[1:3] {
		names = append(names, strings.Join(strings.Fields(l)[:3], " "))
	}
	assert.Equal(t, []string{"serve.out, session 1", "serve.out, session 3"}, names)
	note := log + `:` + strconv.Itoa(len(bf)+1+97) + `: session 2: the log ends inside a DATA batch: cut short?`
	assert.Equal(t, "dsview: "+note+" (left out; the other runs of the file are drawn)\n", stderr.String())

	page := filepath.Join(t.TempDir(), "v.html")
	stderr.Reset()
	require.Equal(t, ExitOK, Main([]string{"-o", page, "-c", cfg, log}, &stdout, &stderr), stderr.String())
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(data), `"name":"serve.out, session 3"`), "the page draws session 3")
	assert.True(t, strings.Contains(string(data), "session 2: the log ends inside a DATA batch"), "the page says session 2 is left out")
}

// --waits on every shared -v all transcript of the real ds-server: a row
// per log, and the split adds up to ds-server's own report (its average
// waiting and exec times are the truncated means of what Waits splits).
func TestDsviewWaitsMatchDsServer(t *testing.T) {
	eachTranscript(t, "--waits", func(t *testing.T, log, summary string, cfg *mocksrv.Config, lines []string) {
		assert.Equal(t, []string{"run", "jobs", "mean", "runtime", "waits", "within", "a", "boot", "beyond", "jobs", "beyond"}, strings.Fields(lines[0]))
		read, err := readLog(log, cfg)
		require.NoError(t, err)
		require.Len(t, read.Runs, 1)
		require.Empty(t, read.Left)
		w := read.Runs[0].Waits()
		var wait, exec, tat int
		last := strings.TrimSpace(summary)
		last = last[strings.LastIndex(last, "\n")+1:]
		_, err = fmt.Sscanf(last, "# avg waiting time: %d, avg exec time: %d, avg turnaround time: %d", &wait, &exec, &tat)
		require.NoError(t, err, last)
		assert.Equal(t, exec, int(math.Floor(w.MeanRuntime+1e-9)), "mean runtime")
		assert.Equal(t, wait, int(math.Floor((w.Within+w.Beyond)*w.MeanRuntime+1e-6)), "mean wait")
		assert.Positive(t, w.Jobs)
	})
}

// eachTranscript runs dsview with flag (--waits or --costs) on every
// shared -v all transcript of the real ds-server, in a subtest each, and
// hands check the log, ds-server's summary of the run, the config and the
// table's lines, whose first row is the log's.
func eachTranscript(t *testing.T, flag string, check func(t *testing.T, log, summary string, cfg *mocksrv.Config, lines []string)) {
	dir := fixtures.Dir(t)
	logs, err := filepath.Glob(filepath.Join(dir, "transcripts", "*.vall.log.gz"))
	require.NoError(t, err)
	require.NotEmpty(t, logs)
	for _, log := range logs {
		name, _, _ := strings.Cut(filepath.Base(log), ".")
		cfgPath := filepath.Join(dir, "fixtures", name, "config.xml")
		t.Run(filepath.Base(log), func(t *testing.T) {
			var stdout, stderr strings.Builder
			require.Equal(t, ExitOK, Main([]string{flag, "-c", cfgPath, log}, &stdout, &stderr), stderr.String())
			lines := strings.Split(stdout.String(), "\n")
			require.GreaterOrEqual(t, len(lines), 2)
			assert.Equal(t, filepath.Base(log), strings.Fields(lines[1])[0])
			cfg, err := mocksrv.LoadConfig(cfgPath, mocksrv.LoadOptions{})
			require.NoError(t, err)
			summary, err := os.ReadFile(strings.TrimSuffix(log, ".vall.log.gz") + ".summary")
			require.NoError(t, err)
			check(t, log, string(summary), cfg, lines)
		})
	}
}

// An -o that is one of the inputs, by any name, is refused before
// anything is written, with the usage status as dsbench refuses it: the
// input is left as it was.
func TestDsviewOutputIsAnInput(t *testing.T) {
	dir := fixtures.Dir(t)
	tmp := t.TempDir()
	cfgData, err := os.ReadFile(filepath.Join(dir, "fixtures/sample-config01/config.xml"))
	require.NoError(t, err)
	cfg, log := filepath.Join(tmp, "config.xml"), filepath.Join(tmp, "bf.log")
	logData := fixtures.ReadGz(t, filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz"))
	require.NoError(t, os.WriteFile(cfg, cfgData, 0o644))
	require.NoError(t, os.WriteFile(log, logData, 0o644))
	require.NoError(t, os.Symlink(log, filepath.Join(tmp, "link.log")))
	t.Chdir(tmp)
	cases := []struct{ name, out, want string }{
		{"the log", "bf.log", "-o bf.log is the log bf.log"},
		{"the log by another name", "./bf.log", "-o ./bf.log is the log bf.log"},
		{"a link to the log", "link.log", "-o link.log is the log bf.log"},
		{"the config", "config.xml", "-o config.xml is the config config.xml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, waits := range []bool{false, true} {
				args := []string{"-c", "config.xml", "-o", c.out, "bf.log"}
				if waits {
					args = append(args, "--waits")
				}
				var stdout, stderr strings.Builder
				assert.Equal(t, ExitUsage, Main(args, &stdout, &stderr))
				assert.Contains(t, stderr.String(), c.want)
				got, err := os.ReadFile("bf.log")
				require.NoError(t, err)
				assert.True(t, string(got) == string(logData), "the log was changed")
				got, err = os.ReadFile("config.xml")
				require.NoError(t, err)
				assert.True(t, string(got) == string(cfgData), "the config was changed")
			}
		})
	}
}

// An -o that is the job file or the failure trace the config names is
// refused too, found where the loader found it: beside the config, or in
// the working folder when there is one of that name there (ds-server
// looks there first), by any name; nothing is changed.
func TestDsviewOutputIsAConfigsFile(t *testing.T) {
	dir := fixtures.Dir(t)
	fixture := filepath.Join(dir, "fixtures/ds-sample-config05-failures")
	log := filepath.Join(dir, "transcripts/ds-sample-config05-failures.ffq.vall.log.gz")
	cases := []struct {
		name, out, want string
		jobsHere        bool // a jobs.xml in the working folder, read instead of the config's
	}{
		{"the job file", "cfg/jobs.xml", "-o cfg/jobs.xml is the config's job file cfg/jobs.xml", false},
		{"the job file by another name", "./cfg/../cfg/jobs.xml", "-o ./cfg/../cfg/jobs.xml is the config's job file cfg/jobs.xml", false},
		{"the failure trace", "cfg/failures.txt", "-o cfg/failures.txt is the config's failure trace cfg/failures.txt", false},
		{"the job file in the working folder", "jobs.xml", "-o jobs.xml is the config's job file jobs.xml", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Chdir(tmp)
			require.NoError(t, os.Mkdir("cfg", 0o755))
			files := map[string]string{"cfg/config.xml": "config.xml", "cfg/jobs.xml": "jobs.xml", "cfg/failures.txt": "failures.txt"}
			if c.jobsHere {
				files["jobs.xml"] = "jobs.xml"
			}
			want := map[string][]byte{}
			for to, from := range files {
				data, err := os.ReadFile(filepath.Join(fixture, from))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(to, data, 0o644))
				want[to] = data
			}
			var stdout, stderr strings.Builder
			assert.Equal(t, ExitUsage, Main([]string{"-c", "cfg/config.xml", "-o", c.out, log}, &stdout, &stderr))
			assert.Equal(t, "dsview: "+c.want+": refusing to overwrite an input (name another output file)\n", stderr.String())
			for f, data := range want {
				got, err := os.ReadFile(f)
				require.NoError(t, err)
				assert.True(t, bytes.Equal(got, data), "%s was changed", f)
			}
		})
	}
}

// The page is named after the config's folder when the config is a
// fixture's config.xml, however the folder is written (run in the folder,
// "-c config.xml" has "." for it).
func TestDsviewPageName(t *testing.T) {
	dir := fixtures.Dir(t)
	fixture := filepath.Join(dir, "fixtures/sample-config01")
	log := filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz")
	cases := []struct{ cwd, config, want string }{
		{fixture, "config.xml", "sample-config01"},
		{fixture, "./config.xml", "sample-config01"},
		{filepath.Join(fixture, "../.."), "fixtures/sample-config01/config.xml", "sample-config01"},
		{fixture, filepath.Join(fixture, "config.xml"), "sample-config01"},
	}
	for _, c := range cases {
		t.Run(c.config, func(t *testing.T) {
			t.Chdir(c.cwd)
			out := filepath.Join(t.TempDir(), "v.html")
			var stdout, stderr strings.Builder
			require.Equal(t, ExitOK, Main([]string{"-c", c.config, "-o", out, log}, &stdout, &stderr), stderr.String())
			data, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Contains(t, string(data), "<title>dsview: "+c.want+"</title>")
			assert.Contains(t, string(data), `{"title":"`+c.want+`","runs":[`)
		})
	}
}

// -o into folders that are not there yet makes them; when they cannot be
// made, the error names -o and why.
func TestDsviewOutputFolders(t *testing.T) {
	dir := fixtures.Dir(t)
	cfg := filepath.Join(dir, "fixtures/sample-config01/config.xml")
	log := filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz")
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	cases := []struct {
		name, out string
		code      int
		want      string
	}{
		{"new folders", filepath.Join(tmp, "new/sub/v.html"), ExitOK, ""},
		{"under a file", filepath.Join(file, "sub/v.html"), ExitFailure,
			"dsview: -o " + filepath.Join(file, "sub/v.html") + ": cannot make its folder: mkdir " + filepath.Join(file) + ": not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			require.Equal(t, c.code, Main([]string{"-c", cfg, "-o", c.out, log}, &stdout, &stderr), stderr.String())
			if c.code != ExitOK {
				assert.Equal(t, c.want+"\n", stderr.String())
				return
			}
			data, err := os.ReadFile(c.out)
			require.NoError(t, err)
			assert.Contains(t, string(data), "window.dsview")
		})
	}
}

// A .gz log that is not a whole gzip file is named, with what is wrong.
func TestDsviewBadGzip(t *testing.T) {
	dir := fixtures.Dir(t)
	cfg := filepath.Join(dir, "fixtures/sample-config01/config.xml")
	gz, err := os.ReadFile(filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz"))
	require.NoError(t, err)
	corrupt := append([]byte(nil), gz...)
	corrupt[len(corrupt)-5] ^= 0xff // the CRC-32 in the trailer
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", gz[:len(gz)/2], "truncated gzip file: it ends before its compressed data does"},
		{"trailer cut off", gz[:len(gz)-4], "truncated gzip file"},
		{"a plain log named .gz", fixtures.ReadGz(t, filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz")), "not a gzip file, though its name ends in .gz"},
		{"empty", nil, "truncated or invalid gzip file: 0 bytes"},
		{"a few bytes", gz[:5], "truncated or invalid gzip file: 5 bytes"},
		{"bad checksum", corrupt, "invalid gzip file: gzip: invalid checksum"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "run.log.gz")
			require.NoError(t, os.WriteFile(log, c.data, 0o644))
			var stdout, stderr strings.Builder
			assert.Equal(t, ExitFailure, Main([]string{"-c", cfg, log}, &stdout, &stderr))
			assert.Contains(t, stderr.String(), "dsview: "+log+": "+c.want)
		})
	}
	t.Run("worded as a trace's", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "run.log.gz")
		require.NoError(t, os.WriteFile(log, gz[:len(gz)/2], 0o644))
		var stdout, stderr strings.Builder
		assert.Equal(t, ExitFailure, Main([]string{"-c", cfg, log}, &stdout, &stderr))
		want := swf.GzipError(log, io.ErrUnexpectedEOF) // what dsswf and dsmock --swf say of a trace cut short
		assert.Equal(t, "dsview: "+want.Error()+"\n", stderr.String(), "a cut .gz log and a cut .swf.gz are said alike")
	})
}

// Several logs are read as several runs of one file are: a log with no run
// to draw (empty, cut short) is left out, said on stderr and on the page,
// and the page is refused only when no log can be drawn, or when a log is
// not a ds-server log at all. One log that cannot be drawn is refused.
func TestDsviewSeveralLogs(t *testing.T) {
	dir := fixtures.Dir(t)
	cfg := filepath.Join(dir, "fixtures/sample-config01/config.xml")
	good := filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz")
	tmp := t.TempDir()
	empty, cut := filepath.Join(tmp, "empty.log"), filepath.Join(tmp, "cut.log")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	lines := strings.SplitAfter(string(fixtures.ReadGz(t, good)), "\n")
	require.NoError(t, os.WriteFile(cut, []byte(strings.Join(lines[:200], "")), 0o644))
	emptyErr := empty + ":1: empty file: not a ds-server log"
	cutErr := cut + `:200: the log ends before ds-server's end-of-simulation report (no "# avg waiting time" line): cut short?`
	cases := []struct {
		name   string
		logs   []string
		code   int
		stderr string
	}{
		{"an empty log is left out", []string{good, empty}, ExitOK,
			"dsview: " + emptyErr + " (left out; the other logs are drawn)\n"},
		{"a cut log is left out", []string{cut, good}, ExitOK,
			"dsview: " + cutErr + " (left out; the other logs are drawn)\n"},
		{"no log to draw", []string{empty, cut}, ExitFailure,
			"dsview: none of the 2 logs has a run that can be drawn:\n  " + emptyErr + "\n  " + cutErr + "\n"},
		{"one log that cannot be drawn", []string{empty}, ExitFailure, "dsview: " + emptyErr + "\n"},
		{"not a ds-server log", []string{good, cfg}, ExitFailure, "dsview: " + cfg + `:1: not a ds-server log: it should start with "# ds-sim server", not "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"` + "\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "v.html")
			var stdout, stderr strings.Builder
			assert.Equal(t, c.code, Main(append([]string{"-c", cfg, "-o", out}, c.logs...), &stdout, &stderr))
			assert.Equal(t, c.stderr, stderr.String())
			data, err := os.ReadFile(out)
			if c.code != ExitOK {
				assert.Error(t, err, "a page was written")
				return
			}
			require.NoError(t, err)
			assert.Contains(t, string(data), `"name":"sample-config01.bf.vall.log.gz"`)
			assert.Contains(t, string(data), "left out; the other logs are drawn", "the page says what was left out")
		})
	}
}

// --waits leaves out a run whose jobs were stuck in the global queue (ff
// on a failure trace never takes failed jobs back), names it below the
// table with how many, and keeps it out of the mean, as dsbench --waits
// leaves out such a run.
func TestDsviewWaitsStuckRun(t *testing.T) {
	dir := fixtures.Dir(t)
	cfgPath := filepath.Join(dir, "fixtures/ds-sample-config05-failures/config.xml")
	cfg, err := mocksrv.LoadConfig(cfgPath, mocksrv.LoadOptions{})
	require.NoError(t, err)
	log, rep, err := simulate(t, cfg, "ff")
	require.ErrorContains(t, err, "stuck in the global queue", "ff on a failure trace should fail that way")
	require.Positive(t, rep.Unscheduled)
	tmp := t.TempDir()
	stuck := filepath.Join(tmp, "ff.log")
	require.NoError(t, os.WriteFile(stuck, log, 0o644))
	log, _, err = simulate(t, cfg, "bfq")
	require.NoError(t, err)
	bfq := filepath.Join(tmp, "bfq.log")
	require.NoError(t, os.WriteFile(bfq, log, 0o644))
	ffq := filepath.Join(dir, "transcripts/ds-sample-config05-failures.ffq.vall.log.gz")

	var stdout, stderr strings.Builder
	require.Equal(t, ExitOK, Main([]string{"--waits", "-c", cfgPath, stuck, ffq, bfq}, &stdout, &stderr), stderr.String())
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	var runs []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "waits:") {
			break
		}
		runs = append(runs, strings.Join(strings.Fields(l)[:3], " "))
	}
	assert.Equal(t, []string{filepath.Base(ffq) + " 500 5115.0", "bfq.log 500 5115.0", "mean of 2"}, runs, "the stuck run has no row and is not in the mean")
	why := fmt.Sprintf("ff.log: %d jobs were still in the global queue when the run ended (the strategy did not take them back)", rep.Unscheduled)
	assert.Equal(t, "no wait split for "+why, lines[len(lines)-1])

	// The stuck run alone: no table of no rows, but a failure that says why.
	out := filepath.Join(tmp, "waits.txt")
	stdout.Reset()
	stderr.Reset()
	require.Equal(t, ExitFailure, Main([]string{"--waits", "-c", cfgPath, "-o", out, stuck}, &stdout, &stderr))
	assert.Equal(t, "dsview: --waits: no run has a wait split:\n  "+why+"\n", stderr.String())
	assert.NoFileExists(t, out)
}

// A run's missing wait split says which jobs never completed: failed or
// killed ones left in the global queue, and offered ones the client left
// unplaced when it quit, which are not said to be queued (the log does
// not show whether they were).
func TestDsviewNoSplitWhy(t *testing.T) {
	const queued = " still in the global queue when the run ended (the strategy did not take them back)"
	const unplaced = " offered and not placed when the client quit (queued with ENQJ, or the offer left unanswered)"
	cases := []struct {
		name            string
		stuck, unplaced int
		want            string
	}{
		{"every job completed", 0, 0, ""},
		{"failed jobs left in the queue", 3, 0, "3 jobs were" + queued},
		{"one job left unplaced", 0, 1, "1 job was" + unplaced},
		{"both", 1, 2, "1 job was" + queued + "; 2 jobs were" + unplaced},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, noSplit(&viewer.Run{Stuck: c.stuck, Unplaced: c.unplaced}))
		})
	}
}

// TestDsviewTerminal: without -o, a page for a terminal goes to a file
// named after the config (said on stderr), a page for a pipe to stdout,
// and -o - to stdout whatever it is; a misspelt config attribute is
// warned of.
func TestDsviewTerminal(t *testing.T) {
	dir := fixtures.Dir(t)
	log := filepath.Join(dir, "transcripts/sample-config01.bf.vall.log.gz")
	cfg := filepath.Join(t.TempDir(), "mine.xml")
	data, err := os.ReadFile(filepath.Join(dir, "fixtures/sample-config01/config.xml"))
	require.NoError(t, err)
	data = []byte(strings.Replace(string(data), "<config ", `<config randomseed="3" `, 1))
	require.NoError(t, os.WriteFile(cfg, data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(cfg), "jobs.xml"), mustRead(t, filepath.Join(dir, "fixtures/sample-config01/jobs.xml")), 0o644))
	defer func(f func(io.Writer) bool) { isTerminal = f }(isTerminal)
	for _, tc := range []struct {
		terminal bool
		args     []string
		file     string // the page's file, "" for stdout
	}{{true, nil, "mine.html"}, {false, nil, ""}, {true, []string{"-o", "-"}, ""}} {
		t.Chdir(t.TempDir())
		isTerminal = func(io.Writer) bool { return tc.terminal }
		var stdout, stderr strings.Builder
		require.Equal(t, ExitOK, Main(append(append([]string{"-c", cfg}, tc.args...), log), &stdout, &stderr), stderr.String())
		assert.Contains(t, stderr.String(), "dsview: warning: "+cfg+": <config>: attribute randomseed is not one ds-server reads: it is ignored; did you mean randomSeed?")
		if tc.file == "" {
			assert.Contains(t, stdout.String(), "<!DOCTYPE html>")
			assert.NotContains(t, stderr.String(), "page written to")
			continue
		}
		assert.Empty(t, stdout.String())
		assert.Contains(t, stderr.String(), "dsview: page written to mine.html (stdout is a terminal; -o - writes it there)")
		assert.FileExists(t, tc.file)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}
