package simconfig

import (
	"fmt"
	"math"
)

// jobgenMaxPasses bounds the submit-time passes of one job. With minLoad <=
// maxLoad (checked before generating) a job needs at most about a thousand
// passes (job-generation.md §8); the bound only guarantees that generation
// can never hang.
const jobgenMaxPasses = 10000000

// jobgenSystem holds the values derived from the sorted server types before
// the first job (job-generation.md §4).
type jobgenSystem struct {
	cores, limits []int // sorted order (§4.1)
	maxCores      int   // of the largest type: the last after sorting (§4.2)
	maxMem        int
	maxDisk       int
	totalCores    int   // §4.3
	gran          []int // size-class percentages (§4.4)
	// fitIdx[c] is the smallest index k with cores[k] >= c, for c in
	// 0..maxCores: fit(c) = cores[fitIdx[c]] (§4.6).
	fitIdx []int
	// usable[k] = Σ cores[i] × limit[i] over i >= k: the usableTotal of a
	// job whose cores fit first at index k (§4.7).
	usable []int
}

func newJobgenSystem(types []ServerType) *jobgenSystem {
	n := len(types)
	s := &jobgenSystem{cores: make([]int, n), limits: make([]int, n), gran: make([]int, n), usable: make([]int, n+1)}
	for i, t := range types {
		s.cores[i], s.limits[i] = t.Cores, t.Limit
		s.totalCores += t.Cores * t.Limit
	}
	L := types[n-1]
	s.maxCores, s.maxMem, s.maxDisk = L.Cores, L.Memory, L.Disk
	s.fitIdx = make([]int, s.maxCores+1)
	k := 0
	for c := 0; c <= s.maxCores; c++ {
		for s.cores[k] < c {
			k++
		}
		s.fitIdx[c] = k
	}
	for i := n - 1; i >= 0; i-- {
		s.usable[i] = s.usable[i+1] + s.cores[i]*s.limits[i]
	}
	// capa[i] = Σ limit[j] over cores[j] >= cores[i], i.e. j >= fitIdx[cores[i]].
	capa := make([]int, n)
	suffix := make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		suffix[i] = suffix[i+1] + s.limits[i]
	}
	total := 0
	for i := range capa {
		capa[i] = suffix[s.fitIdx[s.cores[i]]]
		total += capa[i]
	}
	for i := range capa {
		s.gran[i] = jobgenRoundHalfUp(float32(capa[i]), float32(total))
	}
	return s
}

// jobgenRoundHalfUp is gran of §4.4: q = f32(a/b), p = f32(q×100), then
// floor(float64(p) + 0.5), the +0.5 in double precision after p was rounded
// to float32.
func jobgenRoundHalfUp(a, b float32) int {
	q := float32(a / b)
	p := float32(q * 100)
	return int(math.Floor(float64(p) + 0.5))
}

// jobgenPct is pct of §4.6: both integers to float32, divide and multiply by
// 100 in float32 (each result explicitly rounded), truncate toward zero.
func jobgenPct(used, total int) int {
	q := float32(float32(used) / float32(total))
	p := float32(q * 100)
	return int(p)
}

// prevSmaller is §4.6: cores[j] for the first j = k, k-1, …, 0 with
// cores[j] < c; 0 if none or k < 0.
func (s *jobgenSystem) prevSmaller(c, k int) int {
	for j := k; j >= 0; j-- {
		if s.cores[j] < c {
			return s.cores[j]
		}
	}
	return 0
}

// generateJobs generates the workload of a configuration without a job file
// (job-generation.md §5), with the generator seeded like srand(seed). The
// config must be loaded: types sorted, job types rates summing to 100, a
// workload with minLoad <= maxLoad.
func generateJobs(c *Config, seed uint32) ([]Job, *ConfigError) {
	return jobgenRun(c, newGlibcRand(seed))
}

// jobgenRun is generateJobs with a given generator (tests watch its draws).
func jobgenRun(c *Config, g *glibcRand) ([]Job, *ConfigError) {
	s := newJobgenSystem(c.Types)
	n := len(s.cores)
	w := c.Workload
	cum := make([]int, len(c.JobTypes))
	acc := 0
	for i, t := range c.JobTypes {
		acc += t.PopulationRate
		cum[i] = acc
	}
	loadOffset := (w.MaxLoad - w.MinLoad) / 4 // §4.5 (ds-server later uses div 3; irrelevant)
	duration := func(state int) int {
		switch state {
		case 0:
			return w.AvgLowTime
		case 4:
			return w.AvgHighTime
		}
		return w.AvgTransitTime
	}

	// Generator state (§5.1).
	var (
		interval    = 60
		submit      = 0
		state       = 0
		dir         = 1
		target      = w.MinLoad
		periodEnd   = duration(0)
		gLoad       = 0
		minMet      = false
		tooLow      = false
		windowCount = 0
		prevLoad    = 0
	)
	run := newJobgenRunning(n)

	capHint := c.JobCount
	if capHint > 1<<16 {
		capHint = 1 << 16
	}
	jobs := make([]Job, 0, capHint)
	for id := 0; id < c.JobCount && submit < c.EndTime; id++ { // §5.2
		// A. Job type.
		r := g.draw(100)
		ti := 0
		for r >= cum[ti] {
			ti++
		}
		jt := c.JobTypes[ti]
		// B–D. Run times.
		act := jt.MinRunTime + g.draw(max(1, jt.MaxRunTime-jt.MinRunTime))
		errv := g.draw(act)
		est := act + errv
		if g.draw(2) == 0 {
			est = act - errv
		}
		// E. Cores.
		var cores int
		if tooLow || n == 1 {
			h := s.maxCores / 2
			if h == 0 {
				// job-generation.md §8, decision 2.
				m := fmt.Sprintf("cannot generate job %d: the largest server type has 1 core, and ds-server's upper-half core rule (job-generation.md §5.5 case 1) divides by zero", id)
				return nil, &ConfigError{Context: "job generation", Msg: m, Stderr: []string{m}, Status: 1,
					Divergence: "ds-server dies with SIGFPE (exit status 136) and writes nothing (job-generation.md §8)"}
			}
			cores = h + g.draw(h) + 1
		} else {
			r := g.draw(100)
			i, acc := 0, s.gran[0]
			for i < n-1 && r >= acc {
				i++
				acc += s.gran[i]
			}
			lower := 0
			switch {
			case i == n-1:
				lower = s.prevSmaller(s.cores[i], i-2) // i−2, not i−1 (§5.5)
			case i > 0:
				lower = s.prevSmaller(s.cores[i], i-1)
			}
			cores = lower + g.draw(s.cores[i]-lower) + 1
		}
		// F–G. Memory and disk, from the cores as first drawn (§5.6).
		mem := (100 + g.draw((1+cores/10)*1000)) * cores
		mem = min(mem-mem%100, s.maxMem)
		disk := (100 + g.draw((1+cores/10)*2000)) * cores
		disk = min(disk-disk%100, s.maxDisk)
		// H. Submit time and load following (§5.7).
		lLoad := 0
		for pass := 0; ; pass++ {
			if pass == jobgenMaxPasses {
				m := fmt.Sprintf("job %d: no submit time found after %d passes", id, pass)
				return nil, &ConfigError{Context: "job generation", Msg: m, Stderr: []string{m}, Status: 1,
					Divergence: "ds-server would loop on"}
			}
			if tooLow {
				interval = 1
			}
			submit += g.draw(interval)
			if submit > periodEnd && ((dir > 0 && gLoad >= target) || (dir < 0 && gLoad <= target)) {
				start := periodEnd
				if state+dir < 0 || state+dir > 4 {
					dir = -dir
				}
				state += dir
				target += loadOffset * dir
				periodEnd = start + duration(state)
			}
			run.prune(submit)
			k := s.fitIdx[cores]
			lLoad = jobgenPct(run.inUseFrom(k), s.usable[k])
			if lLoad >= 100 && cores > 1 {
				cores--
			}
			gLoad = jobgenPct(run.total, s.totalCores)
			if gLoad >= target {
				tooLow = false
			}
			if gLoad < target {
				interval -= 5
			} else {
				interval += 5
			}
			if interval < 5 {
				interval = 5
			} else if interval > 43200 {
				interval = 43200
			}
			if !(minMet && (gLoad > w.MaxLoad || lLoad >= 100)) {
				break
			}
		}
		// I–K (§5.8).
		if !minMet && gLoad >= w.MinLoad {
			minMet = true
		}
		jobs = append(jobs, Job{ID: id, Type: jt.Name, Submit: submit, EstRunTime: est, ActRunTime: act,
			Cores: cores, Memory: mem, Disk: disk})
		f := s.fitIdx[cores]
		run.add(submit+act, f, s.cores[f])
		windowCount++
		if gLoad < target && windowCount == 10 {
			d := gLoad - prevLoad
			tooLow = d <= 2 && d >= -2
			prevLoad, windowCount = gLoad, 0
		} else if gLoad >= target {
			prevLoad, windowCount, tooLow = gLoad, 0, false
		}
	}
	return jobs, nil
}

// jobgenRunning tracks the jobs still running at the current submit time
// (§4.7). Submit times never decrease, so a job that has finished is dropped
// for good: a min-heap on end times, plus the sum of fit values per fit index
// and in total, keeps every load measure O(types) per pass instead of
// O(jobs).
type jobgenRunning struct {
	heap  []jobgenEnd
	inUse []int // Σ fit over running jobs, by fit index
	total int   // Σ fit over running jobs
}

type jobgenEnd struct {
	end, idx, fit int
}

func newJobgenRunning(n int) *jobgenRunning {
	return &jobgenRunning{inUse: make([]int, n)}
}

// add registers a job running until end (exclusive) whose cores fit first
// at type index idx with core count fit.
func (r *jobgenRunning) add(end, idx, fit int) {
	r.inUse[idx] += fit
	r.total += fit
	h := append(r.heap, jobgenEnd{end, idx, fit})
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p].end <= h[i].end {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
	r.heap = h
}

// prune drops the jobs that are not running at t (submit + act <= t).
func (r *jobgenRunning) prune(t int) {
	h := r.heap
	for len(h) > 0 && h[0].end <= t {
		r.inUse[h[0].idx] -= h[0].fit
		r.total -= h[0].fit
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for i := 0; ; {
			l, m := 2*i+1, i
			if l < len(h) && h[l].end < h[m].end {
				m = l
			}
			if l+1 < len(h) && h[l+1].end < h[m].end {
				m = l + 1
			}
			if m == i {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	r.heap = h
}

// inUseFrom is Σ fit over running jobs whose fit index is >= k, i.e. whose
// fit is >= the current job's cores (§4.7 usableInUse).
func (r *jobgenRunning) inUseFrom(k int) int {
	s := 0
	for _, v := range r.inUse[k:] {
		s += v
	}
	return s
}
