package dsbench

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/outputs"
	"github.com/dssim-go/dssim-go/harness/plots"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/shard"
	"github.com/dssim-go/dssim-go/internal/flaghint"
)

type mergeConfig struct {
	format, plots, out string
	strict, help       bool
}

// mergeMain is "dsbench merge [flags] FILE...": the report of the whole
// sweep from its pieces, as the unsharded run would print and write it.
func mergeMain(args []string, stdout, stderr io.Writer) int {
	var c mergeConfig
	fs := pflag.NewFlagSet("dsbench merge", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.StringVarP(&c.format, "format", "f", "", "output: summary (one ranked table and what to look at), table (the course's full tables), markdown, csv or json (default, also when empty: as --out's extension says, .csv, .json or .md, else summary; with --client: table)")
	fs.StringVar(&c.plots, "plots", "", "write plots (SVG and PNG) into this folder (an earlier run's plots that this run does not draw are named on stderr)")
	fs.StringVar(&c.out, "out", "", "write the report to this file instead of stdout (- is stdout)")
	fs.BoolVar(&c.strict, "strict", false, "exit 3 when any run has no result")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "dsbench merge: %v (see dsbench merge -h)\n", flaghint.Error(fs, err))
		return ExitUsage
	}
	if c.help {
		fmt.Fprintf(stdout, "Usage: dsbench merge [flags] PIECE.json...\n\n"+
			"Rebuilds the report of a sweep run as shards (dsbench --shard i/n --out PIECE.json)\n"+
			"from every one of its pieces: the same tables, formats and plots as the unsharded run.\n\nFlags:\n%s", fs.FlagUsages())
		return ExitOK
	}
	format, warning, err := reportFormat(c.format, fs.Changed("format"), c.out, false)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench merge: %v\n", err)
		return ExitUsage
	}
	if warning != "" {
		fmt.Fprintln(stderr, "dsbench merge: warning:", warning)
	}
	m, err := shard.Merge(fs.Args())
	pieces := func() []outputs.InputFile {
		var in []outputs.InputFile
		for _, f := range fs.Args() {
			in = append(in, outputs.InputFile{Path: f, What: "a piece to merge"})
		}
		return in
	}
	if err == nil {
		if c.out != "-" {
			err = outputs.CheckFile("--out", c.out, pieces) // after the pieces: a refused merge makes no folder
		}
	}
	if err == nil {
		err = outputs.CheckFolder("--plots", c.plots, pieces, plots.IsOwnFile)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dsbench merge: %v\n", err)
		return ExitUsage
	}
	if m.Note != "" {
		fmt.Fprintln(stderr, "dsbench merge: note:", m.Note)
	}
	// A --client sweep's default is the course's tables, as its run's.
	format, _, _ = reportFormat(c.format, fs.Changed("format"), c.out, m.Fingerprint.Target.Client != "")
	objective, err := report.ParseMeasure(m.Fingerprint.Objective)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench merge: objective: %v\n", err)
		return ExitUsage
	}
	rp := benchReport{configs: sweepConfigNames(m.Fingerprint), columns: m.Fingerprint.Columns, baselines: m.Fingerprint.Baselines,
		objective: objective, format: format, plots: c.plots, strict: c.strict, elapsed: m.Elapsed,
		where: whereOf(m.Fingerprint.Target), merged: m.Shards}
	if c.plots != "" {
		if rp.timeline, err = m.Fingerprint.TimelineRun(); err != nil {
			fmt.Fprintf(stderr, "dsbench merge: no timeline plot: %v\n", err)
		}
	}
	return rp.writeTo(c.out, stdout, stderr, m.Results)
}

func sweepConfigNames(sw shard.Fingerprint) []string {
	var out []string
	for _, c := range sw.Configs {
		out = append(out, c.Name)
	}
	return out
}

func whereOf(t shard.FingerprintTarget) string {
	return where(bench.Target{Server: t.Server, Client: t.Client})
}
