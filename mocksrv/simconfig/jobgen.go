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

// jobgen is the generator's state (§5.1) and its steps (§5.2-§5.8), in
// the order of the draws: the job type, the run times, the cores, memory
// and disk, then the submit time.
type jobgen struct {
	c    *Config
	g    *glibcRand
	s    *jobgenSystem
	w    *Workload
	cum  []int // cumulative population rates
	run  *jobgenRunning
	load int // load offset between states (§4.5)
	n    int // number of server types

	interval, submit, state, dir, target, periodEnd int
	gLoad, windowCount, prevLoad                    int
	minMet, tooLow                                  bool
}

// jobgenRun is generateJobs with a given generator (tests watch its draws).
func jobgenRun(c *Config, g *glibcRand) ([]Job, *ConfigError) {
	j := newJobgen(c, g)
	capHint := min(c.JobCount, 1<<16)
	jobs := make([]Job, 0, capHint)
	for id := 0; id < c.JobCount && j.submit < c.EndTime; id++ { // §5.2
		job, err := j.next(id)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job)
	}
	return jobs, nil
}

func newJobgen(c *Config, g *glibcRand) *jobgen {
	s := newJobgenSystem(c.Types)
	w := c.Workload
	j := &jobgen{c: c, g: g, s: s, w: w, cum: make([]int, len(c.JobTypes)), n: len(s.cores),
		load:     (w.MaxLoad - w.MinLoad) / 4, // §4.5 (ds-server later uses div 3; irrelevant)
		interval: 60, dir: 1, target: w.MinLoad}
	acc := 0
	for i, t := range c.JobTypes {
		acc += t.PopulationRate
		j.cum[i] = acc
	}
	j.periodEnd = j.duration(0)
	j.run = newJobgenRunning(j.n)
	return j
}

// duration is how long the load stays in a state (§5.1).
func (j *jobgen) duration(state int) int {
	switch state {
	case 0:
		return j.w.AvgLowTime
	case 4:
		return j.w.AvgHighTime
	}
	return j.w.AvgTransitTime
}

// next generates job id (§5.2 A-K).
func (j *jobgen) next(id int) (Job, *ConfigError) {
	jt := j.jobType()
	act, est := j.runTimes(jt)
	cores, err := j.cores(id)
	if err != nil {
		return Job{}, err
	}
	mem, disk := j.memDisk(cores)
	if cores, err = j.submitTime(id, cores); err != nil {
		return Job{}, err
	}
	j.placed(cores, act)
	return Job{ID: id, Type: jt.Name, Submit: j.submit, EstRunTime: est, ActRunTime: act,
		Cores: cores, Memory: mem, Disk: disk}, nil
}

// jobType is step A.
func (j *jobgen) jobType() JobType {
	r := j.g.draw(100)
	ti := 0
	for r >= j.cum[ti] {
		ti++
	}
	return j.c.JobTypes[ti]
}

// runTimes are steps B-D: the actual run time and the estimate.
func (j *jobgen) runTimes(jt JobType) (act, est int) {
	act = jt.MinRunTime + j.g.draw(max(1, jt.MaxRunTime-jt.MinRunTime))
	errv := j.g.draw(act)
	est = act + errv
	if j.g.draw(2) == 0 {
		est = act - errv
	}
	return act, est
}

// cores is step E (§5.5).
func (j *jobgen) cores(id int) (int, *ConfigError) {
	s, g := j.s, j.g
	if j.tooLow || j.n == 1 {
		h := s.maxCores / 2
		if h == 0 {
			// job-generation.md §8, decision 2.
			m := fmt.Sprintf("cannot generate job %d: the largest server type has 1 core, and ds-server's upper-half core rule divides by zero", id)
			return 0, &ConfigError{Context: "job generation", Msg: m, Stderr: []string{m}, Status: 1,
				Divergence: "ds-server dies with SIGFPE (exit status 136) and writes nothing"}
		}
		return h + g.draw(h) + 1, nil
	}
	r := g.draw(100)
	i, acc := 0, s.gran[0]
	for i < j.n-1 && r >= acc {
		i++
		acc += s.gran[i]
	}
	lower := 0
	switch {
	case i == j.n-1:
		lower = s.prevSmaller(s.cores[i], i-2) // i−2, not i−1 (§5.5)
	case i > 0:
		lower = s.prevSmaller(s.cores[i], i-1)
	}
	return lower + g.draw(s.cores[i]-lower) + 1, nil
}

// memDisk are steps F-G, from the cores as first drawn (§5.6).
func (j *jobgen) memDisk(cores int) (mem, disk int) {
	mem = (100 + j.g.draw((1+cores/10)*1000)) * cores
	mem = min(mem-mem%100, j.s.maxMem)
	disk = (100 + j.g.draw((1+cores/10)*2000)) * cores
	disk = min(disk-disk%100, j.s.maxDisk)
	return mem, disk
}

// submitTime is step H: the next submit time, following the load (§5.7).
// It returns the cores, one fewer for each pass where the job's own fit
// class was full.
func (j *jobgen) submitTime(id, cores int) (int, *ConfigError) {
	for pass := 0; ; pass++ {
		if pass == jobgenMaxPasses {
			m := fmt.Sprintf("job %d: no submit time found after %d passes", id, pass)
			return 0, &ConfigError{Context: "job generation", Msg: m, Stderr: []string{m}, Status: 1,
				Divergence: "ds-server would loop on"}
		}
		if j.tooLow {
			j.interval = 1
		}
		j.submit += j.g.draw(j.interval)
		j.followLoad()
		j.run.prune(j.submit)
		k := j.s.fitIdx[cores]
		lLoad := jobgenPct(j.run.inUseFrom(k), j.s.usable[k])
		if lLoad >= 100 && cores > 1 {
			cores--
		}
		j.gLoad = jobgenPct(j.run.total, j.s.totalCores)
		j.adjustInterval()
		if !(j.minMet && (j.gLoad > j.w.MaxLoad || lLoad >= 100)) {
			return cores, nil
		}
	}
}

// followLoad moves to the next load state once the period is over and the
// target is reached (§5.7).
func (j *jobgen) followLoad() {
	if j.submit > j.periodEnd && ((j.dir > 0 && j.gLoad >= j.target) || (j.dir < 0 && j.gLoad <= j.target)) {
		start := j.periodEnd
		if j.state+j.dir < 0 || j.state+j.dir > 4 {
			j.dir = -j.dir
		}
		j.state += j.dir
		j.target += j.load * j.dir
		j.periodEnd = start + j.duration(j.state)
	}
}

// adjustInterval widens the submit interval above the target load and
// narrows it below (§5.7).
func (j *jobgen) adjustInterval() {
	if j.gLoad >= j.target {
		j.tooLow = false
	}
	if j.gLoad < j.target {
		j.interval -= 5
	} else {
		j.interval += 5
	}
	j.interval = min(max(j.interval, 5), 43200)
}

// placed is steps I-K (§5.8): the job runs, and the load trend is checked
// every ten jobs below the target.
func (j *jobgen) placed(cores, act int) {
	if !j.minMet && j.gLoad >= j.w.MinLoad {
		j.minMet = true
	}
	f := j.s.fitIdx[cores]
	j.run.add(j.submit+act, f, j.s.cores[f])
	j.windowCount++
	if j.gLoad < j.target && j.windowCount == 10 {
		d := j.gLoad - j.prevLoad
		j.tooLow = d <= 2 && d >= -2
		j.prevLoad, j.windowCount = j.gLoad, 0
	} else if j.gLoad >= j.target {
		j.prevLoad, j.windowCount, j.tooLow = j.gLoad, 0, false
	}
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
