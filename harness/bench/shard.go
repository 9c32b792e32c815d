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
// The slicing is diagonal over the canonical run order (Bench.Runs:
// configs in order, and for each config every strategy column, then the
// external client): the run of config r and column c (counted from 0)
// belongs to shard (r + c) mod n + 1. Each shard gets a share of every
// config and of every column, so neither a slow config nor a slow
// strategy lands on one machine. (Round-robin over the run list, run k in
// shard k mod n + 1, put a column's runs in only n / gcd(columns, n)
// shards: with 28 strategies and 16 shards, four shards held every run of
// the slowest strategy.) With one column it is round-robin over the
// configs. Shards count from 1, as Slurm's --array=1-N and GNU parallel's
// {} do; a shard can be empty when n exceeds the number of runs (its
// piece still counts).

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

// Has reports whether run k of the canonical order is in the shard, the
// run list having width columns per config.
func (s Shard) Has(k, width int) bool {
	if s.N == 0 {
		return true
	}
	if width < 1 {
		width = 1
	}
	return (k/width+k%width)%s.N == s.I-1
}

// Selected lists the indices, in Runs order, of the runs of b's shard.
func (b *Bench) Selected() []int {
	var out []int
	width := len(b.Columns())
	for k := range b.Runs() {
		if b.Shard.Has(k, width) {
			out = append(out, k)
		}
	}
	return out
}
