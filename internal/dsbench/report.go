package dsbench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/plots"
	"github.com/dssim-go/dssim-go/harness/report"
)

// benchReport is what dsbench prints and writes once the runs are done; a run
// and "dsbench merge" of its shards share it, so both give the same report.
type benchReport struct {
	configs, columns, baselines []string
	objective                   report.Measure
	format                      report.Format
	where                       string        // Target.where()
	elapsed                     time.Duration // the runs' wall time (summed over shards when merged)
	merged                      int           // shards merged, 0 for a run
	plots                       string
	strict                      bool
	timeline                    *bench.Run // the one run drawn as a timeline, or nil
}

// writeTo writes the report to the file out ("" or "-" for stdout) and
// returns dsbench's exit status.
func (rp benchReport) writeTo(out string, stdout, stderr io.Writer, results []bench.Result) int {
	w, closeOut, err := openOut(out, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: %v\n", err)
		return ExitFailure
	}
	code := rp.write(w, stderr, results)
	if err := closeOut(); err != nil { // (on a network file system a write error may show only here)
		fmt.Fprintf(stderr, "dsbench: --out %s: %v\n", out, err)
		return ExitFailure
	}
	return code
}

func (rp benchReport) write(w, stderr io.Writer, results []bench.Result) int {
	cmp := report.Compare(results, rp.configs, rp.columns, rp.baselines, rp.objective)
	output := report.Output{Results: results, Comparison: cmp}
	if rp.format == report.FormatTable || rp.format == report.FormatMarkdown || rp.format == report.FormatSummary {
		fmt.Fprintf(w, "dsbench: %s\n\n", rp.header(len(results), serverVersions(results)))
	}
	if err := output.Write(w, rp.format); err != nil {
		fmt.Fprintf(stderr, "dsbench: writing the report: %v\n", err)
		return ExitFailure
	}
	if rp.plots != "" {
		if code := rp.writePlots(stderr, cmp, results); code != ExitOK {
			return code
		}
	}
	if !slices.ContainsFunc(results, bench.Result.OK) {
		what := "the run produced no result"
		if len(results) != 1 {
			what = fmt.Sprintf("none of the %d runs produced a result", len(results))
		}
		fmt.Fprintf(stderr, "dsbench: %s (the report says why)\n", what)
		return ExitFailure
	}
	if rp.strict && slices.ContainsFunc(results, func(r bench.Result) bool { return !r.OK() }) {
		return ExitStrict
	}
	return ExitOK
}

// header is the report's first line, e.g. "10 configs × 3 strategies = 30
// runs (in-process) in 1.2s".
// A --server binary's version, as its logs said, is added to where the
// runs happened: "(against ./ds-server: 2-Apr, 2026 @ MQ)".
func (rp benchReport) header(runs int, versions []string) string {
	where := rp.where
	if len(versions) > 0 && strings.HasSuffix(where, ")") {
		where = strings.TrimSuffix(where, ")") + ": ds-server " + strings.Join(versions, ", ") + ")"
	}
	h := fmt.Sprintf("%s × %s = %s %s in %s", report.Plural(len(rp.configs), "config"), report.Plural(len(rp.columns), "strategy"),
		report.Plural(runs, "run"), where, humanDuration(rp.elapsed))
	if rp.merged > 0 {
		h += " of runs, merged from " + report.Plural(rp.merged, "shard")
	}
	return h
}

func (rp benchReport) writePlots(stderr io.Writer, cmp report.Comparison, results []bench.Result) int {
	files, err := plots.WriteWithBounds(rp.plots, cmp)
	if err == nil && rp.timeline != nil {
		var more []string
		more, err = plots.WriteTimeline(rp.plots, rp.timeline.Source, *rp.timeline.Variant)
		files = append(files, more...)
	}
	if err == nil {
		var more []string
		more, err = plots.WriteSweepPlots(rp.plots, results, rp.columns)
		files = append(files, more...)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: plots: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintf(stderr, "dsbench: %s in %s\n", report.Plural(len(files), "plot file"), rp.plots)
	noteStalePlots(stderr, rp.plots, files)
	return ExitOK
}

// serverVersions are the distinct versions the runs' server binaries
// printed, in order of appearance.
func serverVersions(results []bench.Result) []string {
	var vs []string
	for _, r := range results {
		if r.ServerVersion != "" && !slices.Contains(vs, r.ServerVersion) {
			vs = append(vs, r.ServerVersion)
		}
	}
	return vs
}

// humanDuration shows a wall time with the digits that matter: "0.05s",
// "3.4s", "2m41s" (a whole-second rounding would say "0s" for a quick run).
func humanDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	return d.Round(time.Second).String()
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
		if e.Type().IsRegular() && plots.IsOwnFile(name) && !slices.Contains(written, filepath.Join(dir, name)) {
			stale = append(stale, name)
		}
	}
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "dsbench: warning: %s holds %s this run does not draw, from an earlier run: %s (remove them, or give --plots an empty folder)\n",
			dir, report.Plural(len(stale), "plot file"), strings.Join(stale, ", "))
	}
}
