package viewer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file of several runs (dsmock --serve's sessions, or logs one after
// another) is read as its runs, each equal to the run read alone; a run cut
// short among them is left out and named; ParseLog refuses such a file,
// since drawn as one run its jobs would run twice.
func TestParseLogsSeveralRuns(t *testing.T) {
	cfg := fixtureConfig(t, "sample-config01")
	bf := transcriptLines(t, "sample-config01.bf.vall.log.gz")
	ff := transcriptLines(t, "sample-config01.ff.vall.log.gz")
	require.True(t, strings.HasPrefix(bf[2], "# Waiting for connection"), "three header lines: %q", bf[:3])
	join := func(parts ...[]string) string {
		var all []string
		for _, p := range parts {
			all = append(all, p...)
		}
		return strings.Join(all, "\n") + "\n"
	}
	alone := func(lines []string) *Run {
		r, err := ParseLog("x.log", strings.NewReader(join(lines)), cfg)
		require.NoError(t, err)
		return r
	}
	same := func(want *Run, got *Run, part string, first int) {
		t.Helper()
		assert.Equal(t, part, got.Part)
		assert.Equal(t, first, got.FirstLine)
		w := *want
		w.Part, w.FirstLine = part, first
		assert.Equal(t, w, *got)
	}
	session := func(n string) []string { return []string{"# session " + n + " (client 127.0.0.1:4" + n + "000)"} }

	t.Run("logs one after another", func(t *testing.T) {
		logs, err := ParseLogs("x.log", strings.NewReader(join(bf, ff)), cfg)
		require.NoError(t, err)
		require.Len(t, logs.Runs, 2)
		assert.Empty(t, logs.Cut)
		same(alone(bf), logs.Runs[0], "run 1", 1)
		same(alone(ff), logs.Runs[1], "run 2", len(bf)+1)

		_, err = ParseLog("x.log", strings.NewReader(join(bf, ff)), cfg)
		assert.EqualError(t, err, fmtLine(len(bf)+1)+"a second run begins here: the file holds 2 runs (read them with ParseLogs)")
	})

	t.Run("dsmock --serve sessions", func(t *testing.T) {
		log := join(bf[:3], session("1"), bf[3:], session("2"), ff[3:], session("3")) // session 3 logged nothing yet
		logs, err := ParseLogs("x.log", strings.NewReader(log), cfg)
		require.NoError(t, err)
		require.Len(t, logs.Runs, 2)
		assert.Empty(t, logs.Cut)
		same(alone(bf), logs.Runs[0], "session 1", 1)
		assert.Equal(t, alone(ff).Stays, logs.Runs[1].Stays)
		assert.Equal(t, alone(ff).TotalCost, logs.Runs[1].TotalCost)
		assert.Equal(t, "session 2", logs.Runs[1].Part)
		assert.Equal(t, len(bf)+2, logs.Runs[1].FirstLine)
	})

	t.Run("a session cut short is left out", func(t *testing.T) {
		log := join(bf[:3], session("1"), bf[3:200], session("2"), ff[3:])
		logs, err := ParseLogs("x.log", strings.NewReader(log), cfg)
		require.NoError(t, err)
		require.Len(t, logs.Runs, 1)
		assert.Equal(t, alone(ff).Stays, logs.Runs[0].Stays)
		assert.Equal(t, "session 2", logs.Runs[0].Part)
		require.Len(t, logs.Cut, 1)
		assert.True(t, logs.Cut[0].Cut)
		assert.Equal(t, `x.log:201: session 1: the log ends before ds-server's end-of-simulation report (no "# avg waiting time" line): cut short?`, logs.Cut[0].Error())

		_, err = ParseLog("x.log", strings.NewReader(log), cfg)
		assert.ErrorContains(t, err, fmtLine(202)+"a second run begins here: the file holds 2 runs")
	})

	t.Run("every run cut short is refused", func(t *testing.T) {
		_, err := ParseLogs("x.log", strings.NewReader(join(bf[:100], ff[:100])), cfg)
		assert.EqualError(t, err, `x.log:100: run 1: the log ends before ds-server's end-of-simulation report (no "# avg waiting time" line): cut short?`)
	})

	t.Run("a bad line in any run refuses the file", func(t *testing.T) {
		_, err := ParseLogs("x.log", strings.NewReader(join(bf, ff[:20], []string{"hello world"}, ff[20:])), cfg)
		assert.ErrorContains(t, err, fmtLine(len(bf)+21)+`run 2: not a ds-server log line: "hello world"`)
	})
}
