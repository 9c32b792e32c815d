package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// Diagonal: config r's run of column c is in shard (r + c) mod n + 1; the
// shards cover every run once.
func TestShardSlicing(t *testing.T) {
	vs, err := columns.ParseVariants([]string{"ff,bf,fc"})
	require.NoError(t, err)
	b := &Bench{Sources: sources.Suite()[:3], Variants: vs}
	seen := map[int]int{}
	for i := 1; i <= 4; i++ {
		b.Shard = Shard{I: i, N: 4}
		for _, k := range b.Selected() {
			assert.Equal(t, i, (k/3+k%3)%4+1)
			seen[k]++
		}
	}
	assert.Len(t, seen, 9)
	for k, n := range seen {
		assert.Equal(t, 1, n, "run %d", k)
	}
	b.Shard = Shard{}
	assert.Len(t, b.Selected(), 9, "no shard: every run")
}

// Every column's runs spread over every shard, whatever the number of
// columns and shards share: round-robin over the run list put 28 columns'
// runs in 16 shards as four shards per column.
func TestShardSpreadsEveryColumn(t *testing.T) {
	for _, tc := range []struct{ configs, cols, n int }{{250, 28, 16}, {10, 30, 4}, {9, 3, 3}, {20, 1, 7}, {16, 16, 16}} {
		perShard := make([]int, tc.n)
		for c := 0; c < tc.cols; c++ {
			shards := map[int]bool{}
			for r := 0; r < tc.configs; r++ {
				k := r*tc.cols + c
				for i := 1; i <= tc.n; i++ {
					if (Shard{I: i, N: tc.n}).Has(k, tc.cols) {
						shards[i] = true
						perShard[i-1]++
					}
				}
			}
			assert.Len(t, shards, min(tc.n, tc.configs), "%+v: column %d", tc, c)
		}
		total := tc.configs * tc.cols
		for i, got := range perShard {
			assert.InDelta(t, float64(total)/float64(tc.n), float64(got), float64(tc.cols), "%+v: shard %d", tc, i+1)
		}
	}
}

// FuzzParseShard: the --shard values.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/4", "5/4", "0/3", "a/b", "-1/-1", " 2 / 3 ", "1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err == nil && (sh.I < 1 || sh.I > sh.N) {
			t.Fatalf("%q accepted as %v", s, sh)
		}
	})
}
