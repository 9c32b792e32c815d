package dsview

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
)

var summaryCost = regexp.MustCompile(`total cost: \$([0-9.]+)`)

// --costs on every shared -v all transcript of the real ds-server: a row
// per log, whose cost ratio × the packing bound is ds-server's own total
// cost to the cent, and whose five parts add up to the ratio.
func TestDsviewCostsMatchDsServer(t *testing.T) {
	eachTranscript(t, "--costs", func(t *testing.T, _, summary string, cfg *mocksrv.Config, lines []string) {
		assert.Equal(t, []string{"run", "cost", "ratio", "work", "dearer", "types", "lost", "runs", "partly", "used", "empty"}, strings.Fields(lines[0]))
		f := strings.Fields(lines[1])
		require.Len(t, f, 7, lines[1])
		var v []float64
		for _, x := range f[1:] {
			n, err := strconv.ParseFloat(x, 64)
			require.NoError(t, err, lines[1])
			v = append(v, n)
		}
		assert.InDelta(t, v[0], v[1]+v[2]+v[3]+v[4]+v[5], 0.0003, "the parts add up")
		assert.Equal(t, "1.0000", f[2], "work: every job of a recorded run completed")
		bound := bench.BoundsOf(cfg).PackingCost
		m := summaryCost.FindStringSubmatch(summary)
		require.NotNil(t, m, "the summary's total cost")
		want, _ := strconv.ParseFloat(m[1], 64)
		assert.InDelta(t, want, v[0]*bound, 0.005+0.00005*bound, "ds-server's total cost")
	})

	var stdout, stderr strings.Builder
	dir := fixtures.Dir(t)
	cfg := filepath.Join(dir, "fixtures", "config20-med-med", "config.xml")
	log := filepath.Join(dir, "transcripts", "config20-med-med.ff.vall.log.gz")
	assert.Equal(t, ExitUsage, Main([]string{"--costs", "--waits", "-c", cfg, log}, &stdout, &stderr))
	assert.Equal(t, "dsview: --waits and --costs: one table at a time (run dsview once for each)\n", stderr.String())
}
