package libra_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

type variant struct {
	name     string
	settings map[string]string
}

// The family with its defaults, run on every fixture.
var defaults = []variant{{"libra", nil}, {"libraplus", nil}, {"librasla", nil}, {"librariskd", nil}, {"fcfs", nil}, {"sjf", nil}, {"edf", nil}}

// The switches that change how a strategy talks to the server or disposes
// of jobs, run on a few fixtures (a whole run costs 0.1–0.5 s: B.4's replay
// of every capable server per job).
var switches = []variant{
	{"libraplus", map[string]string{"betaAuto": "true"}},
	{"librasla", map[string]string{"slaSelect": "marginal"}},
	{"librariskd", map[string]string{"riskStrict": "true", "riskSelect": "bestfit"}},
	{"libra", map[string]string{"fallback": "defer"}},
	{"libra", map[string]string{"fallback": "cheapest", "timeline": "lstj"}},
	{"librariskd", map[string]string{"timeline": "ejwt"}},
}

var switchFixtures = map[string]bool{"sample-config01": true, "ds-sample-config05-failures": true, "config20-short-high": true}

// Every variant completes every shared fixture in-process (the failure
// trace too: killed jobs come back through the global queue and are
// dequeued once a capable server is usable), every job is accounted for in
// the metrics, and the metrics with the simulator's truth are exact.
func TestEveryFixtureCompletes(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	dir := fixtures.Dir(t)
	entries, err := os.ReadDir(filepath.Join(dir, "fixtures"))
	require.NoError(t, err)
	for _, e := range entries {
		vs := defaults
		if switchFixtures[e.Name()] {
			vs = append(vs[:len(vs):len(vs)], switches...)
		}
		for _, vr := range vs {
			path := filepath.Join(dir, "fixtures", e.Name())
			m, err := strattest.RunNamed(path, vr.name, vr.settings)
			require.NoError(t, err, "%s %s %v", e.Name(), vr.name, vr.settings)
			assert.Zero(t, m.Unscheduled, "%s %s", e.Name(), vr.name)
			byName := metricMap(m.Reported)
			assert.Equal(t, byName["accepted"].Value+byName["rejected"].Value, float64(m.Jobs), "%s %s %v: every job admitted or rejected", e.Name(), vr.name, vr.settings)
			assert.False(t, byName["waitSLA"].Approx, "in-process metrics use the truth")
		}
	}
}

// The embedded suite, each variant with its defaults.
func TestEmbeddedSuiteCompletes(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	for _, n := range configs.Names() {
		for _, s := range []string{"libra", "libraplus", "librasla", "librariskd", "fcfs", "sjf", "edf"} {
			st, err := strategies.New(s, nil)
			require.NoError(t, err)
			m, err := strattest.RunFS(configs.FS(), n, st)
			require.NoError(t, err, "%s %s", n, s)
			assert.Zero(t, m.Unscheduled)
		}
	}
}

func metricMap(ms []strategies.Metric) map[string]strategies.Metric {
	out := map[string]strategies.Metric{}
	for _, m := range ms {
		out[m.Name] = m
	}
	return out
}

// The ledger's timelines are LSTJ's: a whole run decides the same with
// either source (same summary, same metrics), the LSTJ run paying one LSTJ
// per non-empty candidate per job.
func TestLedgerTimelinesEqualLSTJ(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	path := filepath.Join(fixtures.Dir(t), "fixtures", "config20-med-high")
	for _, name := range []string{"libra", "librasla", "librariskd"} {
		a, err := strattest.RunNamed(path, name, nil)
		require.NoError(t, err)
		b, err := strattest.RunNamed(path, name, map[string]string{"timeline": "lstj"})
		require.NoError(t, err)
		assert.Equal(t, [3]float64{a.TotalCost, float64(a.AvgTurnaround), float64(a.EndTime)},
			[3]float64{b.TotalCost, float64(b.AvgTurnaround), float64(b.EndTime)}, name)
		assert.Equal(t, a.Reported, b.Reported, name)
	}
}
