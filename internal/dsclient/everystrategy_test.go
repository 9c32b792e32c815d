package dsclient_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/pairtest"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies"
)

// TestEveryStrategyOverTCP: every registered strategy, through dsclient
// over loopback TCP against the simulator as dsmock serves it, gives the
// summary of its in-process run on every shared fixture, with the
// simulator speaking either ds-server year: dsclient reads the 2026
// records (with the rate) and the 2025 ones alike, and decides the same.
// A run that fails in-process (no queue on the failure trace) fails over
// TCP too, with the same summary. No 2026 record's rate may disagree with
// the ds-system.xml dsmock writes (checkOverTCP).
func TestEveryStrategyOverTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over TCP: every strategy × every fixture × two years")
	}
	runs := 0
	for _, path := range fixtures.Glob(t, "fixtures/*/config.xml") {
		fx := filepath.Base(filepath.Dir(path))
		cfg, err := mocksrv.LoadConfig(path, mocksrv.LoadOptions{BaseDir: filepath.Dir(path)})
		require.NoError(t, err)
		for _, info := range strategies.All() {
			if strings.HasPrefix(info.Name, "test-") {
				continue // registered by this package's tests
			}
			runs++
			t.Run(fx+"/"+info.Name, func(t *testing.T) {
				// Over TCP a run mostly waits for wake-ups: two at a
				// time use the cores the waits leave idle.
				t.Parallel()
				checkOverTCP(t, cfg, info.Name)
			})
		}
	}
	t.Logf("%d strategy × fixture pairs, each in-process and over TCP in both years", runs)
}

// checkOverTCP runs the strategy (a spec, as -a takes it) in-process (the
// default year: the summary does not depend on it), then through dsclient
// over TCP against the simulator of each year, where no rate the server
// sends may disagree with ds-system.xml.
func checkOverTCP(t *testing.T, cfg *mocksrv.Config, name string) {
	spec, err := strategies.ParseSpec(name)
	require.NoError(t, err)
	st, err := strategies.New(spec.Name, spec.Settings)
	require.NoError(t, err)
	sess, inErr := bench.Simulate(context.Background(), cfg, st, mocksrv.Options{}, "t")
	require.NotNil(t, sess)
	want := ""
	if rep := sess.Report(); rep != nil {
		want = rep.Text
	}
	for _, year := range []mocksrv.Year{mocksrv.Year2025, mocksrv.Year2026} {
		r := pairtest.Run(t, cfg, mocksrv.Options{Level: mocksrv.LevelBrief, NoHeader: true, Year: year}, "-a", name, "--spin", "0")
		if inErr != nil {
			assert.NotEqual(t, dsclient.ExitOK, r.Code, "%v: in-process the run failed (%v); over TCP it succeeded", year, inErr)
		} else {
			require.Equal(t, dsclient.ExitOK, r.Code, "%v: stderr: %s", year, r.Stderr)
		}
		assert.NotContains(t, r.Stderr.String(), client.RateMismatchWarning, "%v: a GETS record's rate is not ds-system.xml's", year)
		if want == "" {
			assert.NotContains(t, r.Log, "# actual simulation end time", "%v: a summary over TCP, none in-process", year)
			continue
		}
		assert.True(t, strings.HasSuffix(r.Log, want), "%v: the summary over TCP is not the in-process one:\n%s\nwant\n%s", year, lastLines(r.Log, 8), want)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
