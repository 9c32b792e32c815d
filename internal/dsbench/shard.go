package dsbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/shard"
)

// dsbench --shard's command line: the slice's runs (bench.Shard says
// how the run list is sliced) written as a piece for dsbench merge.

// errShardFlags: a shard writes its piece and nothing else; the report's
// format and plots are chosen when merging.
var errShardFlags = errors.New("--shard writes a JSON piece for dsbench merge: give --format and --plots to dsbench merge instead")

// parseShard reads --shard; -f and --plots are refused with it (they
// belong to the merge).
func (c *cliConfig) parseShard(fs *pflag.FlagSet) (bench.Shard, error) {
	sh, err := bench.ParseShard(c.shard)
	switch {
	case err != nil:
	case fs.Changed("format") || fs.Changed("plots"):
		err = errShardFlags
	case fs.Lookup("html") != nil && fs.Changed("html"):
		// The viewer re-runs each config for its timelines: it needs the
		// runs in one process, which a shard is not.
		err = errors.New("--html is not available with --shard: write the page from an unsharded run")
	case fs.Lookup("waits") != nil && fs.Changed("waits"):
		err = errors.New("--waits is not available with --shard: the waits are the runs simulated again, in one process (run them unsharded)")
	case fs.Lookup("costs") != nil && fs.Changed("costs"):
		err = errors.New("--costs is not available with --shard: the cost split is the runs simulated again, in one process (run them unsharded)")
	}
	return sh, err
}

// writeShard writes the shard's piece to --out or stdout. An interrupted
// shard writes nothing: a piece with killed runs would merge into a wrong
// report. With --strict a shard with a failed run exits 3 once its piece
// is written, so that a job array flags it before the merge.
func (c *cliConfig) writeShard(ctx context.Context, stdout, stderr io.Writer, b *bench.Bench, objective report.Measure, elapsed time.Duration, results []bench.Result) int {
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "dsbench: interrupted: no piece written")
		return ExitFailure
	}
	w, closeOut, err := openOut(c.out, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: %v\n", err)
		return ExitFailure
	}
	err = shard.WritePiece(w, b.Shard, shard.FingerprintOf(b, objective, c.baselines), elapsed, b.Selected(), results)
	if cerr := closeOut(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: writing the piece: %v\n", err)
		return ExitFailure
	}
	if failed := countFailed(results); c.strict && failed > 0 {
		fmt.Fprintf(stderr, "dsbench: --strict: %d of the %s of shard %s %s no result (the piece is written; dsbench merge lists why)\n",
			failed, report.Plural(len(results), "run"), b.Shard, map[bool]string{true: "has", false: "have"}[failed == 1])
		return ExitStrict
	}
	return ExitOK
}

func countFailed(results []bench.Result) int {
	n := 0
	for _, r := range results {
		if !r.OK() {
			n++
		}
	}
	return n
}
