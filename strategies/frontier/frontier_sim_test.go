package frontier_test

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/pairtest"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/frontier"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

var presets = []string{"cost", "balanced", "turnaround"}

// Every shared fixture (the failure trace included) and every config of
// the embedded suite (non-uniform prices, slow boots, failures) completes
// in-process with every preset: every job run, none left unscheduled. And
// none of its cost is ds-server's accounting: rehoming moves a running job
// only off a server that has completed one, so no server goes unbilled
// because its jobs all left by MIGJ (ds-server.md §6.2), and a source is
// TERMinated after the move, so the time the moved job ran there is billed
// (§6.1). Every action ds-server accepted, the ledger took too
// (LedgerMismatches): frontier decides from the ledger alone.
func TestEveryConfigCompletes(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	for _, p := range fixtures.Glob(t, "fixtures/*/config.xml") {
		for _, preset := range presets {
			m, err := strattest.RunNamed(filepath.Dir(p), "frontier", map[string]string{"preset": preset})
			require.NoError(t, err, "%s %s", p, preset)
			assert.Zero(t, m.Unscheduled, p)
			assert.Positive(t, m.Jobs, p)
			assert.Zero(t, m.Unbilled, "%s %s: cost ds-server left out", p, preset)
			assert.Zero(t, m.LedgerMismatches, "%s %s: the ledger kept in step with the simulator", p, preset)
		}
	}
	suite, err := fs.Glob(configs.FS(), "*.xml")
	require.NoError(t, err)
	require.NotEmpty(t, suite)
	for _, p := range suite {
		for _, preset := range presets {
			s, err := strategies.New("frontier", map[string]string{"preset": preset})
			require.NoError(t, err)
			m, err := strattest.RunFS(configs.FS(), p, s)
			require.NoError(t, err, "%s %s", p, preset)
			assert.Zero(t, m.Unscheduled, p)
			assert.Zero(t, m.Unbilled, "%s %s: cost ds-server left out", p, preset)
			assert.Zero(t, m.LedgerMismatches, "%s %s: the ledger kept in step with the simulator", p, preset)
		}
	}
}

// The real protocol: dsclient -a frontier over TCP against dsmock gives,
// on every shared fixture, the same server log (its summary included) as
// the in-process run: the strategy sends only standard messages and
// decides the same way over the wire.
func TestWireMatchesInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over many configs: the full suite (without -short) runs them")
	}
	for _, p := range fixtures.Glob(t, "fixtures/*/config.xml") {
		cfg, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: filepath.Dir(p)})
		require.NoError(t, err)
		name := filepath.Base(filepath.Dir(p))
		want := inProcessLog(t, cfg, mocksrv.Options{NoHeader: true}, nil)
		got := wireLog(t, cfg)
		require.NotEmpty(t, want, name)
		assert.Contains(t, want, "total cost", name)
		assert.Equal(t, want, got, name)
	}
}

// A refused MIGJ over the real protocol: the cost preset on the held-out
// config100-long-high-seed1111 rehomes job 348 at the completion that
// empties large 13 (rehome), in the same batch as job 348's own
// completion, and ds-server refuses it (ERR: completing now, §5.11). The
// run goes on as in-process: the same -v all log, every message
// included. (The shared fixtures had such a run, config100-med-high,
// until the early prior changed the cost preset's first decisions there;
// none of the 54 runs of the three presets on them has one now.)
func TestWireMatchesInProcessWithARefusedMove(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole run: the full suite (without -short) runs it")
	}
	p := filepath.Join("testdata", "heldout", "config100-long-high-seed1111.xml")
	cfg, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: filepath.Dir(p)})
	require.NoError(t, err)
	all := mocksrv.Options{NoHeader: true, Level: mocksrv.LevelAll} // with the messages (-v all)
	want := inProcessLog(t, cfg, all, map[string]string{"preset": "cost"})
	require.Regexp(t, `RCVD MIGJ [^\n]*\n\s*SENT ERR: Job \d+ cannot be migrated as it is completing`, want,
		"the run no longer has a refused MIGJ: find another that does")
	r := pairtest.Run(t, cfg, all, "-a", "frontier", "--param", "preset=cost")
	require.Equal(t, 0, r.Code, r.Stderr.String())
	assert.Equal(t, want, r.Log)
}

func inProcessLog(t *testing.T, cfg *mocksrv.Config, opt mocksrv.Options, settings map[string]string) string {
	var log bytes.Buffer
	opt.Log = &log
	sess, err := mocksrv.NewSession(cfg, opt)
	require.NoError(t, err)
	s, err := strategies.New("frontier", settings)
	require.NoError(t, err)
	_, err = client.Run(s, sess, client.Options{User: "t",
		System: func(client.Backend) (*servertypes.System, error) { return sess.System() }})
	require.NoError(t, err)
	return log.String()
}

func wireLog(t *testing.T, cfg *mocksrv.Config) string {
	r := pairtest.Run(t, cfg, mocksrv.Options{NoHeader: true}, "-a", "frontier")
	require.Equal(t, 0, r.Code, r.Stderr.String())
	return r.Log
}
