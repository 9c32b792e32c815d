package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// Round-robin: run k is in shard k mod n + 1; the shards cover every run
// once.
func TestShardSlicing(t *testing.T) {
	vs, err := columns.ParseVariants([]string{"ff,bf,fc"})
	require.NoError(t, err)
	b := &Bench{Sources: sources.Suite()[:3], Variants: vs}
	seen := map[int]int{}
	for i := 1; i <= 4; i++ {
		b.Shard = Shard{I: i, N: 4}
		for _, k := range b.Selected() {
			assert.Equal(t, i, k%4+1)
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
