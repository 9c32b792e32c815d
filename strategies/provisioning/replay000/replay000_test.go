package replay000

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// D.1: ≈ 144.84 ± 12.13 jobs per stream (2,000 streams); with the base
// mean scaled by 5/p_max, ≈ 289.7 jobs at p_max 10.
func TestArrivalCounts(t *testing.T) {
	mean := func(pmax, n int) float64 {
		sum := 0
		for s := range n {
			js, err := Generate(Options{Seed: uint64(s), PMax: pmax})
			require.NoError(t, err)
			sum += len(js)
		}
		return float64(sum) / float64(n)
	}
	assert.InDelta(t, 144.84, mean(5, 2000), 1.0, "4 standard errors of the mean")
	assert.InDelta(t, 289.7, mean(10, 500), 3.0)
}

// D.1's static-p check: miss probability 0.839 (p = 2), 0.0088 (p = 3),
// 0 (p = 4) over 20,000 runs; here 4,000 streams with 4-σ bounds.
func TestStaticLate(t *testing.T) {
	const n = 4000
	late := map[int]int{}
	for s := range n {
		js, _ := Generate(Options{Seed: uint64(s), PMax: 5})
		for p := 2; p <= 4; p++ {
			if StaticLate(js, p) {
				late[p]++
			}
		}
	}
	assert.InDelta(t, 0.839, float64(late[2])/n, 0.025)
	assert.InDelta(t, 0.0088, float64(late[3])/n, 0.006)
	assert.LessOrEqual(t, late[4], 1)
}

func TestGeneratorRules(t *testing.T) {
	xs := Arrivals(rand.New(rand.NewPCG(1, 2)), BaseMean)
	for i, x := range xs {
		assert.LessOrEqual(t, x, float64(SubmitEnd))
		if i > 0 {
			assert.GreaterOrEqual(t, x, xs[i-1])
		}
	}
	mean, _ := Generate(Options{Seed: 7, PMax: 5})
	oracle, _ := Generate(Options{Seed: 7, PMax: 5, Oracle: true})
	require.Equal(t, len(mean), len(oracle))
	for i := range mean {
		assert.Equal(t, 1200, mean[i].Est)
		assert.Equal(t, oracle[i].Act, oracle[i].Est)
		assert.Equal(t, mean[i].Act, oracle[i].Act, "same stream, same runtimes")
		assert.GreaterOrEqual(t, mean[i].Act, 1)
	}
	_, err := Generate(Options{PMax: 0})
	assert.ErrorContains(t, err, "pmax=0")
}

func TestParseSweep(t *testing.T) {
	os, err := ParseSweep("seeds=3-5,pmax=5|10,estimate=mean|oracle")
	require.NoError(t, err)
	assert.Len(t, os, 12)
	assert.Equal(t, Options{Seed: 3, PMax: 5}, os[0])
	assert.Equal(t, Options{Seed: 5, PMax: 10, Oracle: true}, os[11])
	os, err = ParseSweep("")
	require.NoError(t, err)
	assert.Len(t, os, 500)
	for _, bad := range []string{"seeds=5-3", "pmax=0", "estimate=median", "colour=red", "seeds", "seeds=0-100000"} {
		_, err := ParseSweep(bad)
		assert.Error(t, err, bad)
	}
}

func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"seeds=0-499,pmax=5,estimate=mean|oracle", "seeds=7", "pmax=5|10", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		os, err := ParseSweep(s)
		if err == nil && len(os) == 0 {
			t.Fatalf("%q: no replay and no error", s)
		}
	})
}
