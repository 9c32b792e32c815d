package provisioning

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// B.2.1: H = max(Δt, 2 × P90 of est, nearest rank); λ̂'s EWMA.
func TestHorizonAndEWMA(t *testing.T) {
	assert.Equal(t, 300, autoHorizon(300, nil))
	ests := []int{}
	for i := 1; i <= 10; i++ {
		ests = insertSorted(ests, 100*(11-i)) // 1000 … 100, inserted out of order
	}
	assert.Equal(t, []int{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000}, ests)
	assert.Equal(t, 1800, autoHorizon(300, ests), "P90 of 10 values is the 9th")
	assert.Equal(t, 5000, autoHorizon(5000, ests))
	var e ewma
	e.update(4, 300, 1200)
	assert.Equal(t, 4.0, e.v, "the first sample initialises λ̂")
	e.update(0, 1200, 1200)
	assert.InDelta(t, 2.0, e.v, 1e-12, "one half-life halves the gap")
}

// A small plan both solvers agree on the shape of: no backlog and no
// arrivals keep q_min; a backlog at or above g(Q) forces Q (4.14); more
// backlog never asks for less capacity.
func basePlan() plan {
	return plan{n0: 0, p0: 2, arr: 0.5, pc: 1 - math.Exp(-0.25), qmin: 0, qmax: 10,
		cq: 0.1 * 300 / 3600, wait: 0.1 / 3600 * 300, churn: 0.1 * 60 / 3600, term: 1200 * 0.1 / 3600,
		gQ: 1e9, k: 8, cap: 200, ntarget: -1}
}

func TestPlanDecisions(t *testing.T) {
	var d dpScratch
	for _, mono := range []bool{false, true} {
		idle := basePlan()
		idle.arr, idle.mono = 0, mono
		assert.Equal(t, 0, d.solve(&idle), "nothing to do: q_min")
		assert.Equal(t, 0, idle.fluid())
		forced := basePlan()
		forced.n0, forced.gQ, forced.mono = 30, 30, mono
		assert.Equal(t, 10, d.solve(&forced), "n ≥ g(Q): Q")
		prev := 0
		for n := 0.0; n <= 60; n += 5 {
			pr := basePlan()
			pr.n0, pr.mono = n, mono
			q := d.solve(&pr)
			assert.GreaterOrEqual(t, q, prev, "n=%v", n)
			prev = q
			f := pr.fluid()
			assert.True(t, f >= pr.qmin && f <= pr.qmax)
		}
	}
	// Grid of step ⌈Q/50⌉ above 50, ending at Q.
	pr := basePlan()
	pr.qmax = 120
	g := pr.grid(nil)
	assert.Equal(t, 0, g[0])
	assert.Equal(t, 3, g[1])
	assert.Equal(t, 120, g[len(g)-1])
	// A terminal target no plan meets: Q.
	pr = basePlan()
	pr.n0, pr.ntarget = 50, 0
	assert.Equal(t, 10, pr.fluid())
}

// One costdp epoch solve at the defaults K = 8, N = 200 with a full
// backlog range (n0 = 200) and Q = 50.
func BenchmarkCostDPEpoch(b *testing.B) {
	pr := basePlan()
	pr.qmax, pr.n0, pr.arr = 50, 200, 3
	var d dpScratch
	b.ReportAllocs()
	for b.Loop() {
		d.valid = false // a fresh plan each time, not the reuse of a steady epoch
		d.solve(&pr)
	}
}

// A whole in-process run of config100-long-high per strategy.
func BenchmarkConfig100LongHigh(b *testing.B) {
	path := filepath.Join(fixtures.Dir(b), "fixtures", "config100-long-high")
	for _, f := range families {
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := strategies.New(f.name, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := strattest.Run(path, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
