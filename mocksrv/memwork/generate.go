package memwork

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// app is one latent application.
type app struct {
	cores, mem, disk int     // the request triple every job of the app sends
	run              float64 // run-time scale, seconds
	u                float64 // usage ratio: used ÷ requested
}

// Workload is a generated workload: the jobs (ActMemory and App set) and
// what describes them.
type Workload struct {
	Params Params
	Jobs   []model.Job
}

// Generate draws the workload of p (validated first). The same p gives
// the same jobs (PCG seeded with p.Seed).
func Generate(p Params) (*Workload, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x6d656d776f726b)) // "memwork"
	apps := drawApps(rng, p)
	cum := zipfCDF(p.Apps, p.Zipf)
	gap := meanGap(apps, cum, p)
	jobs := make([]model.Job, p.Jobs)
	t := 0.0
	for i := range jobs {
		k := sort.SearchFloat64s(cum, rng.Float64()*cum[len(cum)-1])
		k = min(k, len(apps)-1)
		a := apps[k]
		act := max(1, int(a.run*(0.5+rng.Float64())))
		act = min(act, 604800)
		est := act + int(rng.Float64()*float64(act))*sign(rng)
		est = max(est, 1)
		used := int(math.Round(a.u * float64(a.mem) * (1 + p.Jitter*(2*rng.Float64()-1))))
		used = min(max(used, 1), a.mem)
		jobs[i] = model.Job{ID: i, Type: "memwork", Submit: int(t), EstRunTime: est, ActRunTime: act,
			Cores: a.cores, Memory: a.mem, Disk: a.disk, ActMemory: used, App: "app" + itoa(k)}
		t += rng.ExpFloat64() * gap
	}
	return &Workload{Params: p, Jobs: jobs}, nil
}

// drawApps draws the latent applications: request triples by ds-sim's
// rules (ds-server.md Appendix A steps 3 and 4 for two types of equal
// cores: cores uniform in 1 … C), scaled to the big type; run-time scales
// log-uniform; usage ratios: OverFrac of the apps log-uniform in
// [1/MaxRatio, 1/2], the others uniform in (1/2, 1].
func drawApps(rng *rand.Rand, p Params) []app {
	c := p.Cluster
	apps := make([]app, p.Apps)
	for k := range apps {
		a := &apps[k]
		if k > 0 && rng.Float64() < p.Collide {
			o := apps[rng.IntN(k)]
			a.cores, a.mem, a.disk = o.cores, o.mem, o.disk
		} else {
			a.cores = 1 + rng.IntN(c.Cores)
			a.mem = dsRequest(rng, a.cores, 1000, c.Cores, c.BigMemory)
			a.disk = dsRequest(rng, a.cores, 2000, c.Cores, c.Disk)
		}
		a.run = float64(p.RunMin) * math.Pow(float64(p.RunMax)/float64(p.RunMin), rng.Float64())
		if rng.Float64() < p.OverFrac {
			a.u = math.Exp(-(math.Log(2) + rng.Float64()*(math.Log(p.MaxRatio)-math.Log(2))))
		} else {
			a.u = 1 - rng.Float64()/2
		}
	}
	return apps
}

// dsRequest is ds-sim's request rule, (100 + r((1 + cores div 10)·unit))
// · cores (ds-server.md Appendix A step 4), scaled so that the largest
// request the rule can give for the cluster's cores C is the largest
// type's capacity limit, then truncated to a multiple of 100 (at least
// 100). The scaling is this package's: ds-server requires a type to have
// at least 1000 MB and 200 MB per core, so a small type of M/32 needs
// M ≥ 32,000 MB, far above what the unscaled rule requests of a few cores;
// scaled, requests keep the rule's shape and span the cluster's memory
// (the paper's jobs spanned its 32 MB nodes).
func dsRequest(rng *rand.Rand, cores, unit, C, limit int) int {
	raw := int64(100+rng.IntN((1+cores/10)*unit)) * int64(cores)
	top := int64(100+(1+C/10)*unit-1) * int64(C)
	v := int(raw * int64(limit) / top)
	v -= v % 100
	return min(max(v, 100), limit)
}

// zipfCDF is the cumulative weight of apps 1 … n under 1/k^s.
func zipfCDF(n int, s float64) []float64 {
	cum := make([]float64, n)
	sum := 0.0
	for k := range cum {
		sum += math.Pow(float64(k+1), -s)
		cum[k] = sum
	}
	return cum
}

// meanGap is the mean inter-arrival time giving the offered load: the
// expected core-seconds of a job ÷ (Load × the cluster's cores).
func meanGap(apps []app, cum []float64, p Params) float64 {
	demand, prev := 0.0, 0.0
	for k, a := range apps {
		demand += (cum[k] - prev) * float64(a.cores) * a.run
		prev = cum[k]
	}
	demand /= cum[len(cum)-1]
	cores := float64(2 * p.Cluster.Count * p.Cluster.Cores)
	return demand / (p.Load * cores)
}

func sign(rng *rand.Rand) int {
	if rng.IntN(2) == 0 {
		return -1
	}
	return 1
}

// Stats describe a workload, for printing beside results.
type Stats struct {
	Jobs, Apps int     // jobs; apps that have at least one job
	Over2x     float64 // share of jobs requesting ≥ 2× what they use
	MaxRatio   float64 // the largest request ÷ use
	// Shrinkable is the share of jobs (for fraction f) whose request
	// exceeds the small type's memory while their use fits it: the jobs
	// estimation can move to small servers (the paper's §3.2 condition).
	Shrinkable float64
}

// Stats computes the workload's statistics for fraction f.
func (w *Workload) Stats(f float64) Stats {
	small := w.Params.Cluster.SmallMemory(f)
	var st Stats
	seen := map[string]bool{}
	over, shrink := 0, 0
	for _, j := range w.Jobs {
		seen[j.App] = true
		r := float64(j.Memory) / float64(j.ActMem())
		if r >= 2 {
			over++
		}
		st.MaxRatio = math.Max(st.MaxRatio, r)
		if j.Memory > small && j.ActMem() <= small {
			shrink++
		}
	}
	st.Jobs, st.Apps = len(w.Jobs), len(seen)
	if st.Jobs > 0 {
		st.Over2x = float64(over) / float64(st.Jobs)
		st.Shrinkable = float64(shrink) / float64(st.Jobs)
	}
	return st
}
