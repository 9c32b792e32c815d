package bench

import (
	"math"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// Bounds are physical limits of a workload that no schedule can beat
// (../shared/dssim/bounds.tsv defines them the same way):
//   - MeanActualRuntime: every job's turnaround is at least its actual run
//     time, so the average turnaround is at least their mean;
//   - PackingCost: every core-second of every job billed at the cheapest
//     per-core rate among the types that can run it — perfect packing, no
//     boot or idle time (booting is not billed by ds-server anyway).
type Bounds struct {
	MeanActualRuntime float64 `json:"mean_actual_runtime"`
	PackingCost       float64 `json:"packing_cost"`
}

// BoundsOf computes the bounds of a loaded config.
func BoundsOf(cfg *mocksrv.Config) Bounds {
	if len(cfg.Jobs) == 0 {
		return Bounds{}
	}
	var sumAct, cost float64
	for _, j := range cfg.Jobs {
		sumAct += float64(j.ActRunTime)
		best := math.Inf(1)
		for _, t := range cfg.Types {
			if t.Cores >= j.Cores && t.Memory >= j.Memory && t.Disk >= j.Disk {
				best = min(best, float64(t.HourlyRate)/3600/float64(t.Cores))
			}
		}
		if !math.IsInf(best, 1) {
			cost += best * float64(j.Cores) * float64(j.ActRunTime)
		}
	}
	return Bounds{MeanActualRuntime: sumAct / float64(len(cfg.Jobs)), PackingCost: cost}
}
