package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// Sharded sweeps: dsbench --shard i/n runs one of n deterministic slices of
// the run list (Bench.Shard) and writes its results as JSON (a piece:
// package harness/shard); dsbench merge rebuilds the whole report from the
// n pieces.
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

// Selected lists the indices, in Runs order, of the runs of b's shard.
func (b *Bench) Selected() []int {
	var out []int
	for k := range b.Runs() {
		if b.Shard.Has(k) {
			out = append(out, k)
		}
	}
	return out
}
