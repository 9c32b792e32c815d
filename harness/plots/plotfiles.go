package plots

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/dssim-go/dssim-go/harness/filelabel"
	"github.com/dssim-go/dssim-go/harness/report"
)

// IsOwnFile tells whether a file name is one dsbench --plots writes
// (Write, WriteBoundPlot, WriteTimeline, WriteSweepPlots), whichever run
// wrote it: the names --plots refuses to write over an input with and
// names as an earlier run's.
func IsOwnFile(name string) bool {
	ext := filepath.Ext(name)
	if !slices.Contains(Formats, strings.TrimPrefix(ext, ".")) {
		return false
	}
	base := strings.TrimSuffix(name, ext)
	fixed := []string{"tradeoff", "bounds", "timeline"}
	for _, m := range report.Measures {
		fixed = append(fixed, "metric-"+m.Objective())
	}
	if slices.Contains(fixed, base) {
		return true
	}
	for _, d := range sweepDims {
		if key, ok := strings.CutPrefix(base, "sweep-"+d.key+"-"); ok && filelabel.Is(key) {
			return true
		}
	}
	return false
}
