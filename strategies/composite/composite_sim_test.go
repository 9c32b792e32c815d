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

// A composite of one member is that member: same summary, same messages.
func TestOneMemberIsTheMember(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	for _, p := range fixtures.Glob(t, "fixtures/*/config.xml") {
		dir := filepath.Dir(p)
		for _, name := range []string{"ff", "cost-reduce", "soonest"} {
			want, err := strattest.RunNamed(dir, name, nil)
			got, gotErr := strattest.RunNamed(dir, "composite", map[string]string{"members": "[" + name + "]"})
			if err != nil { // ff alone leaves failed jobs in the global queue
				assert.EqualError(t, gotErr, err.Error())
				continue
			}
			require.NoError(t, gotErr)
			got.Reported = nil
			want.Reported = nil
			assert.Equal(t, want, got, "%s: composite:members=[%s]", filepath.Base(dir), name)
		}
	}
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
	}
	paths := fixtures.Glob(t, "fixtures/*/config.xml")
	for _, v := range variants {
		for _, p := range paths {
			m := run(t, filepath.Dir(p), v)
			assert.Zero(t, m.Unscheduled, p)
			assert.Equal(t, m.Offers+m.Refusals, sumJobs(m), "%v %s: every offer decided by a member", v, p)
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
