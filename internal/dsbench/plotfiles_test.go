package dsbench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/report"
)

// A --plots folder used again: an earlier run's timeline and sweep plots,
// which this run does not draw, are named on stderr and left in place, as
// is everything else.
func TestStalePlotsAreNamed(t *testing.T) {
	dir := t.TempDir()
	stale := []string{"timeline.svg", "timeline.png", "sweep-af-tt.svg", "sweep-inacc-boots.png"}
	kept := []string{"notes.txt", "timeline.pdf", "my-tradeoff.svg", "sweep-af-a b.svg", "tradeoff.svg"}
	for _, f := range append(append([]string{}, stale...), kept...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("old"), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sweep-af-co.svg"), 0o755))

	// A run of three configs, no sweep: no timeline, no sweep plots.
	rp := benchReport{configs: []string{"c1", "c2", "c3"}, columns: []string{"atl", "ff", "mine"}, plots: dir}
	res := handResults()
	var stderr bytes.Buffer
	require.Equal(t, ExitOK, rp.writePlots(&stderr, report.Compare(res, rp.configs, rp.columns, nil, report.Turnaround), res))
	for _, f := range append(append([]string{}, stale...), kept...) {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	assert.DirExists(t, filepath.Join(dir, "sweep-af-co.svg"))
	checkSVG(t, filepath.Join(dir, "tradeoff.svg")) // this run's
	assert.Contains(t, stderr.String(), "dsbench: warning: "+dir+" holds 4 plot files this run does not draw, from an earlier run: "+
		"sweep-af-tt.svg, sweep-inacc-boots.png, timeline.png, timeline.svg (remove them")
}
