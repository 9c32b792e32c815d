package viewer

import "math/rand/v2"

// synthRun is a run of the given size built directly (no simulation), for
// the browser test at scale and the rendering benchmarks: jobs spread over
// the servers, each server running its jobs one after another after one
// boot, a few failures, a global queue that rises and falls.
func synthRun(jobs, servers int) *Run {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &Run{Name: "synthetic", Source: "synthetic", Level: "all"}
	for i, c := range []int{2, 4, 8, 16} {
		r.Types = append(r.Types, Type{Name: "t" + string(rune('a'+i)), Cores: c, Memory: 1000 * c, Disk: 4000 * c,
			Boot: 60, Rate: float32(c) / 10})
	}
	for i := range servers {
		r.Servers = append(r.Servers, Server{Type: i * len(r.Types) / servers, ID: i - (i*len(r.Types)/servers)*servers/len(r.Types)})
	}
	cursor := make([]int, servers)
	for i := range jobs {
		submit := i * 7
		act := 50 + rng.IntN(900)
		r.Jobs = append(r.Jobs, Job{ID: i, Submit: submit, Cores: 1 + rng.IntN(2), Memory: 500, Disk: 1000, Est: act + rng.IntN(200) - 100, Act: act})
		srv := rng.IntN(servers)
		if cursor[srv] == 0 {
			r.Servers[srv].Power = []Power{{BootStart: submit, BootEnd: submit + 60, Off: -1}}
			cursor[srv] = submit + 60
		}
		start := max(submit, cursor[srv])
		r.Stays = append(r.Stays, Stay{Job: i, Server: srv, Ready: submit, Placed: submit, Start: start, End: start + act})
		cursor[srv] = start + act
		r.End = max(r.End, start+act)
	}
	for i := 0; i < servers; i += 17 {
		r.Servers[i].Fails = []Span{{r.End / 3, r.End/3 + 500}}
	}
	var q []Span
	for i := 0; i < jobs; i += 5 {
		q = append(q, Span{i * 7, i*7 + rng.IntN(3000)})
	}
	r.Queue = steps(q)
	r.finishSeries()
	return r
}
