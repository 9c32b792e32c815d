// Package hand holds the hand-computed results the tests of the report,
// the plots and dsbench's command line share. Test code only.
package hand

import "github.com/dssim-go/dssim-go/harness/bench"

// Results is a hand-computed case: two baselines (atl, ff) and one
// strategy (mine) over three configs; mine has no result on c3.
func Results() []bench.Result {
	ok := func(cfg, col string, tt int, util, cost float64) bench.Result {
		return bench.Result{Config: cfg, Variant: col, Status: bench.StatusOK,
			Summary: bench.Summary{AvgTurnaround: tt, AvgUtil: util, TotalCost: cost},
			Bounds:  bench.Bounds{MeanActualRuntime: 20, PackingCost: 5}}
	}
	return []bench.Result{
		ok("c1", "atl", 100, 100, 10), ok("c1", "ff", 50, 60, 20), ok("c1", "mine", 40, 70, 15),
		ok("c2", "atl", 300, 100, 30), ok("c2", "ff", 60, 50, 40), ok("c2", "mine", 70, 80, 25),
		ok("c3", "atl", 500, 100, 50), ok("c3", "ff", 80, 55, 60),
		{Config: "c3", Variant: "mine", Status: bench.StatusTimeout, Err: "killed after 1s"},
	}
}
