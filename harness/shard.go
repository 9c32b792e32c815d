package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Sharded sweeps: dsbench --shard i/n runs one of n deterministic slices of
// the run list and writes its results as JSON (a piece, piece.go); dsbench
// merge rebuilds the whole report from the n pieces (merge.go).
//
// The slicing is round-robin over the canonical run order (Bench.Runs:
// configs in order, and for each config every strategy column, then the
// external client): run k (counted from 0) belongs to shard k mod n + 1.
// Round-robin rather than contiguous blocks so that each shard gets a share
// of every config, and a slow config does not land on one machine. Shards
// count from 1, as Slurm's --array=1-N and GNU parallel's {} do; a shard can
// be empty when n exceeds the number of runs (its piece still counts).

// Shard is one slice of the run list; the zero value is every run.
type Shard struct {
	I, N int // shard I of N, 1 ≤ I ≤ N
}

// ParseShard reads a --shard value "i/n".
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, ierr := strconv.Atoi(strings.TrimSpace(is))
	n, nerr := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || ierr != nil || nerr != nil:
		return Shard{}, fmt.Errorf("--shard %q: want i/n, two whole numbers (e.g. 2/4: the second of four slices)", s)
	case n < 1:
		return Shard{}, fmt.Errorf("--shard %q: the number of shards must be at least 1", s)
	case i < 1 || i > n:
		return Shard{}, fmt.Errorf("--shard %q: the shard number must be between 1 and %d", s, n)
	}
	return Shard{I: i, N: n}, nil
}

// String is "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Has reports whether run k of the canonical order is in the shard.
func (s Shard) Has(k int) bool { return s.N == 0 || k%s.N == s.I-1 }

// selected lists the indices, in Runs order, of the runs of b's shard.
func (b *Bench) selected() []int {
	var out []int
	for k := range b.Runs() {
		if b.Shard.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

// errShardFlags: a shard writes its piece and nothing else; the report's
// format and plots are chosen when merging.
var errShardFlags = errors.New("--shard writes a JSON piece for dsbench merge: give --format and --plots to dsbench merge instead")

// parseShard reads --shard; -f and --plots are refused with it (they
// belong to the merge).
func (c *cliConfig) parseShard(fs *pflag.FlagSet) (Shard, error) {
	sh, err := ParseShard(c.shard)
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
	}
	return sh, err
}

// writeShard writes the shard's piece to --out or stdout. An interrupted
// shard writes nothing: a piece with killed runs would merge into a wrong
// report. With --strict a shard with a failed run exits 3 once its piece
// is written, so that a job array flags it before the merge.
func (c *cliConfig) writeShard(ctx context.Context, stdout, stderr io.Writer, b *Bench, objective Measure, elapsed time.Duration, results []Result) int {
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "dsbench: interrupted: no piece written")
		return ExitFailure
	}
	w, closeOut, err := openOut(c.out, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: %v\n", err)
		return ExitFailure
	}
	err = writePiece(w, b.Shard, sweepOf(b, objective, c.baselines), elapsed, b.selected(), results)
	if cerr := closeOut(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: writing the piece: %v\n", err)
		return ExitFailure
	}
	if failed := countFailed(results); c.strict && failed > 0 {
		fmt.Fprintf(stderr, "dsbench: --strict: %d of the %s of shard %s %s no result (the piece is written; dsbench merge lists why)\n",
			failed, plural(len(results), "run"), b.Shard, map[bool]string{true: "has", false: "have"}[failed == 1])
		return ExitStrict
	}
	return ExitOK
}

func countFailed(results []Result) int {
	n := 0
	for _, r := range results {
		if !r.OK() {
			n++
		}
	}
	return n
}
