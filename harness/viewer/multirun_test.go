package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
)

func joinLines(parts ...[]string) string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return strings.Join(all, "\n") + "\n"
}

func session(n string) []string {
	return []string{"# session " + n + " (client 127.0.0.1:4" + n + "000)"}
}

// A file of several runs (dsmock --serve's sessions, or logs one after
// another) is read as its runs, each equal to the run read alone; a run
// that cannot be drawn is left out and named; ParseLog refuses such a
// file, since drawn as one run its jobs would run twice.
func TestParseLogsSeveralRuns(t *testing.T) {
	cfg := fixtureConfig(t, "sample-config01")
	bf := transcriptLines(t, "sample-config01.bf.vall.log.gz")
	ff := transcriptLines(t, "sample-config01.ff.vall.log.gz")
	require.True(t, strings.HasPrefix(bf[2], "# Waiting for connection"), "three header lines: %q", bf[:3])
	alone := func(lines []string) *Run {
		r, err := ParseLog("x.log", strings.NewReader(joinLines(lines)), cfg)
		require.NoError(t, err)
		return r
	}
	read := func(log string) Logs {
		t.Helper()
		logs, err := ParseLogs("x.log", strings.NewReader(log), cfg)
		require.NoError(t, err)
		return logs
	}
	same := func(want, got *Run, part string) {
		t.Helper()
		w := *want
		w.Part = part
		assert.Equal(t, w, *got)
	}

	t.Run("logs one after another", func(t *testing.T) {
		logs := read(joinLines(bf, ff))
		require.Len(t, logs.Runs, 2)
		assert.Empty(t, logs.Left)
		same(alone(bf), logs.Runs[0], "run 1")
		same(alone(ff), logs.Runs[1], "run 2")
		assert.Equal(t, []int{1, len(bf) + 1}, logs.starts)

		_, err := ParseLog("x.log", strings.NewReader(joinLines(bf, ff)), cfg)
		assert.EqualError(t, err, fmtLine(len(bf)+1)+"a second run begins here: the file holds 2 runs (read them with ParseLogs)")
	})

	t.Run("dsmock --serve sessions", func(t *testing.T) {
		logs := read(joinLines(bf[:3], session("1"), bf[3:], session("2"), ff[3:]))
		require.Len(t, logs.Runs, 2)
		assert.Empty(t, logs.Left)
		same(alone(bf), logs.Runs[0], "session 1")
		assert.Equal(t, alone(ff).Stays, logs.Runs[1].Stays)
		assert.Equal(t, alone(ff).TotalCost, logs.Runs[1].TotalCost)
		assert.Equal(t, "session 2", logs.Runs[1].Part)
		assert.Equal(t, []int{1, len(bf) + 2}, logs.starts)
	})

	t.Run("a session cut short is left out", func(t *testing.T) {
		log := joinLines(bf[:3], session("1"), bf[3:200], session("2"), ff[3:])
		logs := read(log)
		require.Len(t, logs.Runs, 1)
		assert.Equal(t, alone(ff).Stays, logs.Runs[0].Stays)
		assert.Equal(t, "session 2", logs.Runs[0].Part)
		require.Len(t, logs.Left, 1)
		assert.Equal(t, `x.log:201: session 1: the log ends before ds-server's end-of-simulation report (no "# avg waiting time" line): cut short?`, logs.Left[0].Error())

		_, err := ParseLog("x.log", strings.NewReader(log), cfg)
		assert.ErrorContains(t, err, fmtLine(202)+"a second run begins here: the file holds 2 runs")
	})

	// A client that quit at once (its session logs a report but no job)
	// and one that logged only "#" lines (the handshake at -v brief, or
	// -v stats) are runs of their own, left out; the whole ones are drawn.
	t.Run("sessions with nothing to draw are left out", func(t *testing.T) {
		var quit []string
		for _, l := range ff[3:] {
			if strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "# Welcome") && !strings.HasPrefix(l, "# The system") {
				quit = append(quit, l) // the report's lines alone
			}
		}
		logs := read(joinLines(bf[:3], session("1"), []string{"# Welcome  root!"}, session("2"), bf[3:], session("3"), quit, session("4"), ff[3:]))
		require.Len(t, logs.Runs, 2)
		assert.Equal(t, "session 2", logs.Runs[0].Part)
		assert.Equal(t, "session 4", logs.Runs[1].Part)
		require.Len(t, logs.Left, 2)
		assert.Contains(t, logs.Left[0].Error(), "x.log:5: session 1: the log ends before ds-server's end-of-simulation report")
		assert.Contains(t, logs.Left[1].Error(), "session 3: the log shows no job placed on any server")
	})

	// The refusal comes with the runs left out, so that a caller reading
	// several files (dsview) can leave this one out in turn.
	t.Run("no run to draw is refused", func(t *testing.T) {
		logs, err := ParseLogs("x.log", strings.NewReader(joinLines(bf[:100], ff[:100])), cfg)
		assert.EqualError(t, err, `x.log:100: run 1: the log ends before ds-server's end-of-simulation report (no "# avg waiting time" line): cut short?`)
		assert.Empty(t, logs.Runs)
		require.Len(t, logs.Left, 2)
		assert.Same(t, logs.Left[0], err)
		assert.Contains(t, logs.Left[1].Error(), fmtLine(200)+"run 2: ")

		logs, err = ParseLogs("x.log", strings.NewReader(joinLines(bf[:100])), cfg)
		assert.EqualError(t, err, `x.log:100: the log ends before ds-server's end-of-simulation report (no "# avg waiting time" line): cut short?`)
		assert.Empty(t, logs.Runs)
		require.Len(t, logs.Left, 1)
		assert.Same(t, logs.Left[0], err)
	})

	t.Run("a bad line in any run refuses the file", func(t *testing.T) {
		logs, err := ParseLogs("x.log", strings.NewReader(joinLines(bf, ff[:20], []string{"hello world"}, ff[20:])), cfg)
		assert.ErrorContains(t, err, fmtLine(len(bf)+21)+`run 2: not a ds-server log line: "hello world"`)
		assert.Empty(t, logs.Runs)
		assert.Empty(t, logs.Left, "nothing is left out: the file is refused")
	})
}

// A log of a run with failures (-f) begins with the failure generation's
// two lines, before ds-server's header: alone it is one run, and written
// after another log its run begins at those lines.
func TestParseLogsFailureLogs(t *testing.T) {
	dir := filepath.Join(fixtures.Dir(t), "failure-models", "config20-med-med.teragrid")
	data, err := os.ReadFile(filepath.Join(dir, "config20-med-med.xml"))
	require.NoError(t, err)
	cfg, err := mocksrv.ParseConfig("config20-med-med.xml", data, mocksrv.LoadOptions{BaseDir: dir, Failure: "teragrid", FailureGiven: true})
	require.NoError(t, err)
	raw := fixtures.ReadGz(t, filepath.Join(dir, "config20-med-med.teragrid.ffq.vall.log.gz"))
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	require.True(t, strings.HasPrefix(lines[0], "# Start generating resource failures"))
	require.True(t, strings.HasPrefix(lines[1], "Total #failures: "))

	one, err := ParseLog("x.log", strings.NewReader(joinLines(lines)), cfg)
	require.NoError(t, err, "a failure log is one run")

	logs, err := ParseLogs("x.log", strings.NewReader(joinLines(lines[:300], lines)), cfg)
	require.NoError(t, err)
	require.Len(t, logs.Runs, 1)
	w := *one
	w.Part = "run 2"
	assert.Equal(t, w, *logs.Runs[0])
	assert.Equal(t, []int{1, 301}, logs.starts)
	require.Len(t, logs.Left, 1)
	assert.Contains(t, logs.Left[0].Error(), "x.log:300: run 1: ")
}
