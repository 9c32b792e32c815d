package strattest_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// Run gives the reference numbers: every baseline on three fixtures against
// reference-results.tsv (ds-server's own summary lines).
func TestRunMatchesReference(t *testing.T) {
	dir := fixtures.Dir(t)
	want := referenceRows(t, filepath.Join(dir, "reference-results.tsv"))
	for _, fx := range []string{"sample-config01", "config20-med-high", "ds-sample-config05-failures"} {
		for _, algo := range []string{"ff", "bf", "ffq", "fafc"} {
			row, ok := want[fx+"\t"+algo]
			if !ok {
				continue // the failure trace has rows for the queue variants only
			}
			m, err := strattest.RunNamed(filepath.Join(dir, "fixtures", fx), algo, nil)
			require.NoError(t, err, "%s %s", fx, algo)
			got := fmt.Sprintf("%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%d\t%d\t%d", m.EndTime, m.Jobs, m.Failed, m.ServersUsed,
				m.AvgUtil, m.EfUsage, m.TotalCost, m.AvgWait, m.AvgExec, m.AvgTurnaround)
			assert.Equal(t, row, got, "%s %s", fx, algo)
			assert.Positive(t, m.Offers)
			assert.Zero(t, m.Unscheduled)
		}
	}
}

func referenceRows(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.SplitN(sc.Text(), "\t", 3)
		if len(cols) == 3 {
			rows[cols[0]+"\t"+cols[1]] = cols[2]
		}
	}
	require.NotEmpty(t, rows)
	return rows
}

// The embedded suite, a bad path, a bad strategy name, a run that fails.
func TestRunInputs(t *testing.T) {
	m, err := strattest.RunFS(configs.FS(), configs.Names()[0], mustNew(t, "ff"))
	require.NoError(t, err)
	assert.Positive(t, m.Jobs)

	_, err = strattest.Run(filepath.Join(t.TempDir(), "missing.xml"), mustNew(t, "ff"))
	assert.ErrorContains(t, err, "missing.xml")

	_, err = strattest.RunNamed(filepath.Join(t.TempDir(), "x.xml"), "no-such-strategy", nil)
	assert.ErrorContains(t, err, `unknown strategy "no-such-strategy"`)

	_, err = strattest.RunFS(configs.FS(), configs.Names()[0], refuseAll{})
	assert.ErrorContains(t, err, "nothing fits")
}

// RunLoaded on one load gives what Run gives, run after run: a simulation
// leaves the config as it found it (the failure trace included), so one
// load serves several strategies.
func TestRunLoaded(t *testing.T) {
	path := filepath.Join(fixtures.Dir(t), "fixtures", "ds-sample-config05-failures", "config.xml")
	cfg, err := mocksrv.LoadConfig(path, mocksrv.LoadOptions{BaseDir: filepath.Dir(path)})
	require.NoError(t, err)
	require.NotEmpty(t, cfg.Failures)
	for _, algo := range []string{"ffq", "bfq", "ffq"} {
		want, err := strattest.RunNamed(path, algo, nil)
		require.NoError(t, err, algo)
		got, err := strattest.RunLoaded(cfg, mustNew(t, algo))
		require.NoError(t, err, algo)
		assert.Equal(t, want, got, algo)
	}
}

type refuseAll struct{}

func (refuseAll) Job(strategies.View, protocol.Job) ([]protocol.Action, error) {
	return nil, errors.New("nothing fits")
}
func (refuseAll) Event(strategies.View, protocol.Event) ([]protocol.Action, error) { return nil, nil }

// FakeView answers from its fields, records every query as its wire text,
// and refuses what is not scripted.
func TestFakeView(t *testing.T) {
	a0 := protocol.ServerRef{Type: "a", ID: 0}
	v := &strattest.FakeView{
		Sys:     strattest.System(servertypes.Type{Name: "a", Limit: 1, Cores: 2, Memory: 100, Disk: 100}),
		Capable: []protocol.Server{{Type: "a", ID: 0}},
		Avail:   []protocol.Server{},
		EJWT:    map[protocol.ServerRef]int{a0: 30},
	}
	recs, err := v.GetsCapable(protocol.Requirement{Cores: 1, Memory: 10, Disk: 10})
	require.NoError(t, err)
	assert.Len(t, recs, 1)
	recs, err = v.GetsAvail(protocol.Requirement{Cores: 1, Memory: 10, Disk: 10})
	require.NoError(t, err)
	assert.Empty(t, recs)
	n, err := v.EstWait(a0)
	require.NoError(t, err)
	assert.Equal(t, 30, n)
	_, err = v.ListJobs(a0)
	var un *strattest.Unscripted
	require.ErrorAs(t, err, &un)
	assert.Equal(t, `unscripted query "LSTJ a 0"`, err.Error())
	_, err = v.QueueLen()
	assert.Error(t, err)
	assert.Equal(t, []string{"GETS Capable 1 10 10", "GETS Avail 1 10 10", "EJWT a 0", "LSTJ a 0", "LSTQ GQ #"}, v.Sent)
	assert.Equal(t, 5, v.Queries)
	assert.Nil(t, v.Ledger())
	assert.Equal(t, 2, v.System().Types()[0].Cores)

	v.Quiet = true
	_, _ = v.GetsAll()
	assert.Len(t, v.Sent, 5, "Quiet counts without recording")
	assert.Equal(t, 6, v.Queries)
}

func mustNew(t *testing.T, name string) strategies.Strategy {
	s, err := strategies.New(name, nil)
	require.NoError(t, err)
	return s
}

// counting wraps a strategy and reports, from the simulator's truth, how
// many jobs completed and their mean true wait against the client's view.
type counting struct {
	strategies.Strategy
	submits map[int]int
}

func (c *counting) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	if _, seen := c.submits[j.ID]; !seen {
		c.submits[j.ID] = j.Submit
	}
	return c.Strategy.Job(v, j)
}

func (c *counting) Metrics(_ strategies.View, truth *strategies.Truth) []strategies.Metric {
	wait := 0
	for id, jt := range truth.Jobs {
		wait += jt.Start - c.submits[id]
	}
	return []strategies.Metric{
		{Name: "completed", Value: float64(len(truth.Jobs)), Unit: "jobs"},
		{Name: "meanWait", Value: float64(wait) / float64(len(truth.Jobs)), Unit: "s"},
	}
}

// The truth a MetricsReporter gets in-process is the simulator's: its job
// count and mean wait are ds-server's own, and asking for it does not
// change the run.
func TestRunTruth(t *testing.T) {
	dir := fixtures.Dir(t)
	path := filepath.Join(dir, "fixtures", "config20-med-high")
	plain, err := strattest.RunNamed(path, "bf", nil)
	require.NoError(t, err)
	m, err := strattest.Run(path, &counting{Strategy: mustNew(t, "bf"), submits: map[int]int{}})
	require.NoError(t, err)
	require.Len(t, m.Reported, 2)
	assert.Equal(t, float64(m.Jobs), m.Reported[0].Value)
	assert.Equal(t, m.AvgWait, int(m.Reported[1].Value), "ds-server's average wait is the truncated mean")
	m.Reported = nil
	assert.Equal(t, plain, m)
}
