package composite_test

import (
	"io/fs"
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

func run(t *testing.T, path string, settings map[string]string) strattest.Metrics {
	t.Helper()
	s, err := strategies.New("composite", settings)
	require.NoError(t, err)
	m, err := strattest.Run(path, s)
	require.NoError(t, err, path)
	return m
}

// A composite of one member is that member: same summary, same counts of
// offers, accepted actions and refusals, on every shared fixture (the
// failure ones included) and on the embedded flaky-servers. frontier is
// the member that returns the same action more than once in one decision
// (DEQJ GQ 0 for each job a failure put in the global queue).
func TestOneMemberIsTheMember(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	members := []string{"ff", "cost-reduce", "soonest", "frontier:preset=balanced", "frontier:preset=turnaround"}
	for _, p := range fixtures.Glob(t, "fixtures/*/config.xml") {
		for _, member := range members {
			alone, composite := newPair(t, member)
			want, err := strattest.Run(p, alone)
			got, gotErr := strattest.Run(p, composite)
			sameRun(t, want, err, got, gotErr, filepath.Base(filepath.Dir(p))+": composite:members=["+member+"]")
		}
	}
	for _, member := range members {
		alone, composite := newPair(t, member)
		want, err := strattest.RunFS(configs.FS(), "flaky-servers.xml", alone)
		got, gotErr := strattest.RunFS(configs.FS(), "flaky-servers.xml", composite)
		sameRun(t, want, err, got, gotErr, "flaky-servers: composite:members=["+member+"]")
	}
}

// newPair makes the member alone and the composite of it alone.
func newPair(t *testing.T, member string) (alone, composite strategies.Strategy) {
	t.Helper()
	sp, err := strategies.ParseSpec(member)
	require.NoError(t, err)
	alone, err = strategies.New(sp.Name, sp.Settings)
	require.NoError(t, err)
	composite, err = strategies.New("composite", map[string]string{"members": "[" + member + "]"})
	require.NoError(t, err)
	return alone, composite
}

func sameRun(t *testing.T, want strattest.Metrics, err error, got strattest.Metrics, gotErr error, what string) {
	t.Helper()
	if err != nil { // ff alone leaves failed jobs in the global queue
		assert.EqualError(t, gotErr, err.Error(), what)
		return
	}
	if !assert.NoError(t, gotErr, what) {
		return
	}
	got.Reported, want.Reported = nil, nil
	assert.Equal(t, want, got, what)
}

// Rules and portfolio composites complete every shared fixture and the
// embedded suite (failures, slow boots, non-uniform prices included).
func TestCompositesComplete(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	variants := []map[string]string{
		{"members": "[ff; cost-reduce:multiplier=2; bf]", "rules": "est>=1000&cores>=4->cost-reduce|queue>0->3|ff"},
		{"members": "[soonest; cost-reduce; bf]", "mode": "portfolio"},
		{"members": "[ffq; soonest]", "rules": "cores<2->1|2"},
		{"members": "[ff; frontier:preset=turnaround]", "mode": "portfolio"},
	}
	paths := fixtures.Glob(t, "fixtures/*/config.xml")
	for _, v := range variants {
		for _, p := range paths {
			m := run(t, filepath.Dir(p), v)
			assert.Zero(t, m.Unscheduled, p)
			// One member's accepted action ends each offer, whatever was
			// refused before it (a refused SCHD, or a refused MIGJ ahead of
			// the SCHD, after which Job is asked again).
			assert.Equal(t, m.Offers, sumJobs(m), "%v %s: every offer decided by one member", v, p)
			assert.Zero(t, m.LedgerMismatches, "%v %s", v, p)
		}
		suite, err := fs.Glob(configs.FS(), "*.xml")
		require.NoError(t, err)
		for _, p := range suite {
			s, err := strategies.New("composite", v)
			require.NoError(t, err)
			m, err := strattest.RunFS(configs.FS(), p, s)
			require.NoError(t, err, "%v %s", v, p)
			assert.Zero(t, m.Unscheduled, p)
		}
	}
}

func sumJobs(m strattest.Metrics) int {
	n := 0
	for _, r := range m.Reported {
		if r.Unit == "jobs" {
			n += int(r.Value)
		}
	}
	return n
}
