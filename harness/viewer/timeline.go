package viewer

import "github.com/dssim-go/dssim-go/mocksrv"

// UseTimeline takes the servers' powered periods from the simulator's own
// timeline (an in-process run): exact even where the log is silent (TERM
// is not shown at -v brief), so the cost is then exactly the simulator's.
// The series are recomputed.
func (r *Run) UseTimeline(tl *mocksrv.Timeline) {
	at := map[[2]any]int{}
	for i, s := range r.Servers {
		at[[2]any{r.Types[s.Type].Name, s.ID}] = i
		r.Servers[i].Power = nil
	}
	for _, ts := range tl.Servers {
		i, ok := at[[2]any{ts.Type, ts.ID}]
		if !ok {
			continue
		}
		for _, p := range ts.Power {
			r.Servers[i].Power = append(r.Servers[i].Power, Power{p.BootStart, p.BootEnd, p.Off, p.Reset})
		}
	}
	r.Notes = nil
	r.finishSeries()
}
