package sgme_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/pairtest"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/memwork"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// memJob is one <job> of a test job file with the extension's actMemory.
type memJob struct {
	submit, run, cores, mem, act int
}

// writeMemConfig writes a config with the given server lines and a job
// file with actMemory, and loads it.
func writeMemConfig(t testing.TB, servers string, jobs []memJob) *mocksrv.Config {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<jobs>\n\t<type name=\"short\" minRunTime=\"1\" maxRunTime=\"300\" populationRate=\"100\" />\n")
	for i, j := range jobs {
		fmt.Fprintf(&b, "\t<job id=\"%d\" type=\"short\" submitTime=\"%d\" estRunTime=\"%d\" actRunTime=\"%d\" cores=\"%d\" memory=\"%d\" disk=\"100\" actMemory=\"%d\" />\n",
			i, j.submit, j.run, j.run, j.cores, j.mem, j.act)
	}
	b.WriteString("</jobs>\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobs.xml"), []byte(b.String()), 0o644))
	cfg := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<config randomSeed=\"1024\">\n<servers>\n" + servers +
		"</servers>\n<jobs file=\"jobs.xml\" />\n</config>\n"
	path := filepath.Join(dir, "config.xml")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o644))
	c, err := mocksrv.LoadConfig(path, mocksrv.LoadOptions{BaseDir: dir})
	require.NoError(t, err)
	return c
}

// runMock runs a strategy in-process against the simulator with the memory
// extension's failure model m (MemFailOff: the extension off), the -v all
// log returned.
func runMock(t testing.TB, cfg *mocksrv.Config, m mocksrv.MemFailModel, s strategies.Strategy) (client.Result, *mocksrv.Report, string) {
	t.Helper()
	var log bytes.Buffer
	return runWith(t, cfg, mocksrv.Options{MemFail: m, Level: mocksrv.LevelAll, Log: &log, NoHeader: true, Stderr: &bytes.Buffer{}}, s, &log)
}

// runMockQuiet is runMock with the hard model and no log (benchmarks).
func runMockQuiet(t testing.TB, cfg *mocksrv.Config, s strategies.Strategy) (client.Result, *mocksrv.Report, string) {
	return runWith(t, cfg, mocksrv.Options{MemFail: mocksrv.MemFailHard, Stderr: &bytes.Buffer{}}, s, &bytes.Buffer{})
}

func runWith(t testing.TB, cfg *mocksrv.Config, opt mocksrv.Options, s strategies.Strategy, log *bytes.Buffer) (client.Result, *mocksrv.Report, string) {
	t.Helper()
	sess, err := mocksrv.NewSession(cfg, opt)
	require.NoError(t, err)
	res, err := client.Run(s, sess, client.Options{User: "t",
		System: func(client.Backend) (*servertypes.System, error) { return sess.System() },
		Truth:  func() *strategies.Truth { return strattest.TruthOf(sess.Engine().Timeline()) }})
	require.NoError(t, err)
	return res, sess.Report(), log.String()
}

func metric(res client.Result, name string) float64 {
	for _, m := range res.Metrics {
		if m.Name == name {
			return m.Value
		}
	}
	return -1
}

// The Part E scenario from the client's side: one group (1 core, 2000 MB)
// really using 900 MB, one job at a time. The estimate halves on each
// success (2000, 1000), the third job gets 500 < 900 and fails at the drawn
// time: it leaves its server, comes back as JOBP, is classified as a
// memory failure and retried with its full request (E7), and the group
// settles at 1000 (S = 1000, F = 500, α = 1): the fourth job goes at 1000.
func TestMockEndToEndMemoryFailure(t *testing.T) {
	cfg := writeMemConfig(t,
		"<server type=\"big\" limit=\"1\" bootupTime=\"0\" hourlyRate=\"0.4\" cores=\"4\" memory=\"4000\" disk=\"1000\" />\n",
		[]memJob{{0, 100, 1, 2000, 900}, {1000, 100, 1, 2000, 900}, {2000, 100, 1, 2000, 900}, {3000, 100, 1, 2000, 900}})
	s, err := strategies.New("sgme", map[string]string{"mode": "mock"})
	require.NoError(t, err)
	res, rep, log := runMock(t, cfg, mocksrv.MemFailHard, s)
	sent := regexp.MustCompile(`RCVD (SCHM|SCHD) (\d+) \S+ \d+ ?(\d*)`).FindAllStringSubmatch(log, -1)
	var got []string
	for _, m := range sent {
		got = append(got, m[1]+" "+m[2]+" "+m[3])
	}
	assert.Equal(t, []string{"SCHM 0 2000", "SCHM 1 1000", "SCHM 2 500", "SCHM 2 2000", "SCHM 3 1000"}, got)
	jobp := regexp.MustCompile(`SENT JOBP 2 (\d+) 1 2000 100 100`).FindStringSubmatch(log)
	require.NotNil(t, jobp, "the failed job is offered again with its request unchanged:\n%s", log)
	tFail, _ := strconv.Atoi(jobp[1])
	assert.InDelta(t, (3+float64(tFail+100-2000)/100)/4, metric(res, "avgSlowdown"), 1e-12,
		"three jobs never wait (slowdown 1); the failed one completes 100 s after its retry at %d", tFail)
	assert.Equal(t, 4, rep.Jobs)
	assert.Equal(t, 1, rep.MemFailures, "the report counts the memory failure")
	assert.Equal(t, 1.0, metric(res, "extension"))
	assert.Equal(t, 1.0, metric(res, "memFailures"))
	assert.Equal(t, 20.0, metric(res, "memFailuresPerExec"), "1 memory failure in 5 executions (4 completed, 1 failed)")
	assert.Equal(t, 60.0, metric(res, "reducedPct"), "3 of 5 dispatches below the request (1000, 500, 1000)")
	assert.Equal(t, float64(rep.WastedCoreSeconds), metric(res, "wastedCoreSeconds"), "dispatch = start here (an idle server, no boot)")
	assert.Contains(t, rep.Text, "# memory failures: 1, wasted core-seconds: ")
}

// The same scenario through dsclient and the simulator's text front over
// TCP with the extension on (dsmock --mem-fail hard): SCHM on the wire,
// the failed job's JOBP, the full-request retry, the metrics printed, and
// the server's report equal to the in-process run's.
func TestMockOverTCP(t *testing.T) {
	jobs := []memJob{{0, 100, 1, 2000, 900}, {1000, 100, 1, 2000, 900}, {2000, 100, 1, 2000, 900}, {3000, 100, 1, 2000, 900}}
	servers := "<server type=\"big\" limit=\"1\" bootupTime=\"0\" hourlyRate=\"0.4\" cores=\"4\" memory=\"4000\" disk=\"1000\" />\n"
	r := pairtest.Run(t, writeMemConfig(t, servers, jobs), mocksrv.Options{MemFail: mocksrv.MemFailHard, Level: mocksrv.LevelAll, NoHeader: true},
		"-a", "sgme", "--param", "mode=mock")
	require.Equal(t, 0, r.Code, r.Stderr.String())
	for _, want := range []string{"RCVD SCHM 2 big 0 500", "SENT JOBP 2 ", "RCVD SCHM 2 big 0 2000", "RCVD SCHM 3 big 0 1000", "# memory failures: 1, wasted core-seconds: "} {
		assert.Contains(t, r.Log, want)
	}
	assert.Regexp(t, `(?m)^# metric memFailures +1\.0000 `, r.Stdout.String())
	s, err := strategies.New("sgme", map[string]string{"mode": "mock"})
	require.NoError(t, err)
	_, rep, _ := runMock(t, writeMemConfig(t, servers, jobs), mocksrv.MemFailHard, s)
	assert.True(t, strings.HasSuffix(r.Log, rep.Text), "TCP and in-process reports differ:\n%s\n---\n%s", lastLines(r.Log, 12), rep.Text)
}

// Every rounding, key, retry policy and kind of base completes a memwork
// run under each failure model of the extension: every job completes and
// the strategy's failure count is the report's.
func TestMockVariantsComplete(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs")
	}
	p := memwork.Defaults()
	p.Jobs = 300
	cfgXML, jobsXML, err := memwork.Files(memwork.Point{Params: p, F: 0.25})
	require.NoError(t, err)
	fsys := fstest.MapFS{"m/config.xml": {Data: cfgXML}, "m/jobs.xml": {Data: jobsXML}}
	variants := []map[string]string{{"rounding": "levels"}, {"rounding": "paper"}, {"key": "k2"}, {"key": "k3"}, {"key": "k4"},
		{"retry": "group"}, {"base": "fcfs-bf"}, {"base": "ff"}, {"base": "ffq"}, {"base": "cost-reduce"}, {"alpha": "10", "beta": "0.5"}}
	for _, model := range []mocksrv.MemFailModel{mocksrv.MemFailHard, mocksrv.MemFailMachine, mocksrv.MemFailContention} {
		for _, kv := range variants {
			kv["mode"] = "mock"
			cfg, err := mocksrv.ParseConfig("m/config.xml", cfgXML, mocksrv.LoadOptions{FS: fsys})
			require.NoError(t, err)
			s, err := strategies.New("sgme", kv)
			require.NoError(t, err, "%v", kv)
			res, rep, _ := runWith(t, cfg, mocksrv.Options{MemFail: model, Stderr: &bytes.Buffer{}}, s, &bytes.Buffer{})
			assert.Equal(t, p.Jobs, rep.Jobs, "%v %v", model, kv)
			assert.Equal(t, float64(rep.MemFailures), metric(res, "memFailures"), "%v %v", model, kv)
		}
	}
}
