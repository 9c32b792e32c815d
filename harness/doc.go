// Package harness is dsbench's library: it runs strategies × configs and
// compares them the way the COMP3100 course harnesses do (per-measure
// tables with Average and Normalised rows against chosen baselines and the
// configs where a strategy beats every baseline), plus what no course tool
// shows: the ratio of each result to a physical bound (no schedule can beat
// the mean actual runtime on turnaround, nor perfect packing on cost).
//
// This package holds no code: each concern is a package of its own, and a
// program imports the ones it needs (none of them imports a command line,
// a progress bar or a terminal package; dsbench's command line is
// internal/dsbench).
//
//   - harness/bench runs a bench: Bench (columns × configs), Target (in
//     process, over TCP, a ds-server binary, an external client), Result,
//     Summary, Bounds, Shard (one slice of the run list), Simulate.
//   - harness/columns reads the strategy columns: -a and -b specs, sweeps of
//     a strategy's parameters (Variant, ParseVariants).
//   - harness/sources reads the configs, the rows: files, folders, fixture
//     folders, the embedded suite, SWF traces, generated workloads, and the
//     workload transforms (Source, Resolve, Suite, Expand).
//   - harness/report arranges results into the course's tables and writes
//     them as text, Markdown, CSV or JSON (Compare, Comparison, Measure,
//     Output, Format).
//   - harness/plots draws the plots (SVG and PNG): cost against turnaround,
//     per-config bars, the bound plot, sweeps, a run's timeline.
//   - harness/shard writes a shard's runs as a JSON piece and merges the
//     pieces of a sweep run on many machines (Piece, Merge, Fingerprint).
//   - harness/viewpage makes dsbench's run viewer page and wait split.
//   - harness/viewer is the run viewer itself (dsview and dsbench --html).
//   - harness/outputs checks output paths before any run: writable, and
//     none of the inputs.
//   - harness/ports picks the runs' TCP ports and waits for a server to
//     listen.
//   - harness/filelabel makes file names from labels.
//
// ff and bf on the embedded suite from Go, the course tables on stdout
// (the package's Example runs the same bench and checks what it finds;
// harness/bench's ExampleBench prints each run's numbers):
//
//	vs, _ := columns.ParseVariants([]string{"ff,bf"})
//	b := &bench.Bench{Sources: sources.Suite(), Variants: vs}
//	results := b.Run(context.Background())
//	cmp := report.Compare(results, sources.Names(b.Sources), b.Columns(), []string{"ff"}, report.Turnaround)
//	_ = report.Output{Results: results, Comparison: cmp}.Write(os.Stdout, report.FormatTable)
package harness
