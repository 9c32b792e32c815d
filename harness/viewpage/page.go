// Package viewpage makes dsbench's pages of the run viewer (package
// harness/viewer): the HTML page of a bench (Write: the comparison as the
// page's model, Compare, with each config's best cell, the colours against
// the baselines and the cost–turnaround frontier, drawn as tables and a
// clickable plot; and per-config timelines) and the wait and cost
// splits of its runs (WriteSplits). Both simulate the runs again in-process
// and read the simulator's log back as dsview reads a ds-server log
// (RunViewer): a result does not keep its jobs' waits and placements.
package viewpage

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// What dsbench --html embeds at most: the timelines of the first
// htmlConfigs configs × the first htmlVariants strategies, and no more
// than htmlJobs job placements in all (a 20,000-job run is about 1 MB of
// page). What is left out is said on the page.
const (
	htmlConfigs  = 12
	htmlVariants = 8
	htmlJobs     = 200_000
)

// Write writes dsbench's run viewer page: the comparison (Compare: a
// summary with the cost–turnaround frontier and a clickable plot, one
// table per metric, the runs without a result), per-config timelines of
// the runs (the strategies of one config on one time axis), and the text
// report, folded. Timelines are simulated again in-process, with the
// simulator's log read back as dsview reads a ds-server log; runs of an
// external --client have none.
func Write(path string, b *bench.Bench, out report.Output) error {
	var buf bytes.Buffer
	if err := Render(&buf, b, out); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Render writes the page Write writes.
func Render(w io.Writer, b *bench.Bench, out report.Output) error {
	var tables bytes.Buffer
	if err := out.Write(&tables, report.FormatTable); err != nil {
		return err
	}
	page := &viewer.Page{Title: "dsbench", Tables: tables.String()}
	if b.Target.Server != "" && b.Target.Client == "" {
		page.Notes = append(page.Notes, "The runs were made over TCP ("+b.Target.Server+"); the timelines are the same runs simulated again in-process (the built-in simulator reproduces ds-server exactly).")
	}
	runs := map[[2]string]int{}
	if b.Target.Client != "" {
		page.Notes = append(page.Notes, "No timelines: the runs were made by an external client (--client), which dsbench cannot re-run in-process.")
	} else if err := addTimelines(page, b, out, runs); err != nil {
		return err
	}
	page.Compare = Compare(out, func(cfg, col string) int { return runs[[2]string{cfg, col}] })
	return page.Render(w)
}

// addTimelines simulates each (config, strategy) pair within the caps,
// the strategies on the cost–turnaround frontier first, then the
// baselines, then the others in column order (the runs a reader of the
// summary clicks first). A run without a result has no timeline and no
// note here: the page lists it once, with its reason. runs gets each
// timeline's index+1.
func addTimelines(page *viewer.Page, b *bench.Bench, out report.Output, runs map[[2]string]int) error {
	ok := map[[2]string]bool{}
	for _, r := range out.Results {
		ok[[2]string{r.Config, r.Variant}] = r.OK()
	}
	variants := timelineOrder(b.Variants, out.Comparison)
	jobs, left, n := 0, 0, 0
	for ci, src := range b.Sources {
		if ci >= htmlConfigs {
			left += len(variants)
			continue
		}
		g := viewer.Group{Title: src.Name}
		for vi, v := range variants {
			key := [2]string{src.Name, v.Label()}
			if done, known := ok[key]; known && !done {
				continue
			}
			if vi >= htmlVariants || jobs >= htmlJobs {
				left++
				continue
			}
			r, err := RunViewer(src, v)
			if err != nil {
				page.Notes = append(page.Notes, fmt.Sprintf("No timeline for %v", err))
				continue
			}
			jobs += len(r.Stays)
			g.Runs = append(g.Runs, r)
			n++
			runs[key] = n
		}
		if len(g.Runs) > 0 {
			page.Groups = append(page.Groups, g)
		}
	}
	if left > 0 {
		page.Notes = append(page.Notes, fmt.Sprintf("%d of %d runs with a result have no timeline here: the page embeds at most %d configs × %d strategies (those on the frontier and the baselines first) and %d job placements (the tables cover every run).",
			left, left+n, htmlConfigs, htmlVariants, htmlJobs))
	}
	return nil
}

// timelineOrder is the variants with those on the frontier first, then
// the baselines, then the rest, each in column order.
func timelineOrder(vs []columns.Variant, c report.Comparison) []columns.Variant {
	var frontier []string
	if len(c.Tables) > 0 {
		frontier = Frontier(c.Tables[report.Turnaround], c.Tables[report.Cost])
	}
	rank := func(v columns.Variant) int {
		switch {
		case slices.Contains(frontier, v.Label()):
			return 0
		case slices.Contains(c.Baselines, v.Label()):
			return 1
		}
		return 2
	}
	out := slices.Clone(vs)
	slices.SortStableFunc(out, func(a, b columns.Variant) int { return rank(a) - rank(b) })
	return out
}

// RunViewer runs the variant on the config in-process, writing the
// simulator's -v brief log, and reads it back as the viewer's run (with
// the servers' power from the simulator's timeline, which the brief log
// does not fully show).
func RunViewer(src sources.Source, v columns.Variant) (*viewer.Run, error) {
	var log bytes.Buffer
	opt := mocksrv.Options{Level: mocksrv.LevelBrief, Log: &log, Stderr: io.Discard}
	cfg, sess, err := bench.SimulateOne(src, v, opt)
	if err != nil {
		return nil, err
	}
	r, err := viewer.ParseLog(src.Name+" ("+v.Label()+", in-process log)", &log, cfg)
	if err != nil {
		return nil, err
	}
	r.UseTimeline(sess.Engine().Timeline())
	r.Name, r.Source = v.Label()+" on "+src.Name, "dsbench, in-process"
	return r, nil
}
