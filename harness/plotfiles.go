package harness

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dssim-go/dssim-go/harness/filelabel"
	"github.com/dssim-go/dssim-go/harness/report"
)

// ownPlotName tells whether a file name is one dsbench --plots writes
// (WritePlots, WriteBoundPlot, WriteTimeline, WriteSweepPlots), whichever
// run wrote it: the names --plots refuses to write over an input with
// (checkOutputs) and names as an earlier run's (noteStalePlots).
func ownPlotName(name string) bool {
	ext := filepath.Ext(name)
	if !slices.Contains(PlotFormats, strings.TrimPrefix(ext, ".")) {
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

// noteStalePlots names on stderr the plot files of dsbench's own names in
// dir that this run did not write (written): a timeline from an earlier
// one-config run, or sweep plots from an earlier sweep, would read as this
// run's. They are named, not removed: the folder is the user's, and an
// earlier run's plots may be wanted (a study's committed plots, a run kept
// for comparison); naming them is enough to stop the misreading.
func noteStalePlots(stderr io.Writer, dir string, written []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: plots: cannot look for an earlier run's plots: %v\n", err)
		return
	}
	var stale []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && ownPlotName(name) && !slices.Contains(written, filepath.Join(dir, name)) {
			stale = append(stale, name)
		}
	}
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "dsbench: warning: %s holds %s this run does not draw, from an earlier run: %s (remove them, or give --plots an empty folder)\n",
			dir, report.Plural(len(stale), "plot file"), strings.Join(stale, ", "))
	}
}
