package plots

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOwnPlotName(t *testing.T) {
	for name, own := range map[string]bool{
		"tradeoff.svg": true, "bounds.png": true, "timeline.svg": true, "metric-ru.png": true,
		"sweep-af-tt.svg": true, "sweep-inacc-poweredCoresAvg.png": true, "sweep-af-a.b_c-d.svg": true,
		"timeline.pdf": false, "my-tradeoff.svg": false, "tradeoff.svg.bak": false, "metric-xx.svg": false,
		"sweep-af-.svg": false, "sweep-xx-tt.svg": false, "sweep-af-a b.svg": false, "notes.txt": false, "svg": false,
	} {
		assert.Equal(t, own, IsOwnFile(name), name)
	}
}

// Metric names that differ only in case get plot files of their own; the
// others keep their names (README links the study's).
func TestSweepFileKeysFoldCase(t *testing.T) {
	names := sweepFileKeys([]sweepMetric{{key: "tt"}, {key: "deadlineMetPct"}, {key: "boots"}, {key: "Boots"}, {key: "a b"}, {key: "a.b"}})
	assert.Equal(t, "tt", names["tt"])
	assert.Equal(t, "deadlineMetPct", names["deadlineMetPct"])
	assert.Equal(t, "boots", names["boots"])
	assert.Regexp(t, `^Boots~[0-9a-f]{8}$`, names["Boots"])
	assert.Regexp(t, `^a_b~[0-9a-f]{8}$`, names["a b"])
	for _, n := range names {
		assert.True(t, IsOwnFile("sweep-af-"+n+".svg"), n)
	}
}
