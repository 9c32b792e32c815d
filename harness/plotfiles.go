package harness

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ownPlotName tells whether a file name is one dsbench --plots writes
// (WritePlots, WriteBoundPlot, WriteTimeline, WriteSweepPlots), whichever
// run wrote it.
func ownPlotName(name string) bool {
	ext := filepath.Ext(name)
	if !slices.Contains(PlotFormats, strings.TrimPrefix(ext, ".")) {
		return false
	}
	base := strings.TrimSuffix(name, ext)
	fixed := []string{"tradeoff", "bounds", "timeline"}
	for _, m := range Measures {
		fixed = append(fixed, "metric-"+m.Objective())
	}
	if slices.Contains(fixed, base) {
		return true
	}
	for _, d := range sweepDims {
		if key, ok := strings.CutPrefix(base, "sweep-"+d.key+"-"); ok && key != "" && fileKey(key) == key {
			return true
		}
	}
	return false
}

// removeStalePlots removes from dir the plot files of dsbench's own names
// that this run did not write (written), so that a folder used again holds
// only this run's plots: a timeline from an earlier one-config run, or
// sweep plots from an earlier sweep, would read as this run's. Other files
// are left alone. What it removes, or fails to, is said on stderr.
func removeStalePlots(stderr io.Writer, dir string, written []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: plots: cannot look for an earlier run's plots: %v\n", err)
		return
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !ownPlotName(name) || slices.Contains(written, filepath.Join(dir, name)) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			fmt.Fprintf(stderr, "dsbench: plots: %s is an earlier run's plot and could not be removed: %v\n", filepath.Join(dir, name), err)
			continue
		}
		removed = append(removed, name)
	}
	if len(removed) > 0 {
		fmt.Fprintf(stderr, "dsbench: removed %s of an earlier run from %s (this run does not draw them): %s\n",
			plural(len(removed), "plot file"), dir, strings.Join(removed, ", "))
	}
}
