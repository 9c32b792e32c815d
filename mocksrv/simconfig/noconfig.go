package simconfig

import (
	"fmt"
	"strings"
)

// randomTypes are ds-server's eight built-in server types of the
// no-configuration mode (failure-models.md §12.2, job-generation.md
// Appendix A), already in ascending core order; limits and memory are drawn.
var randomTypes = [8]ServerType{
	{Name: "tiny", Cores: 1, Disk: 4000, HourlyRate: 0.1},
	{Name: "small", Cores: 2, Disk: 16000, HourlyRate: 0.2},
	{Name: "medium", Cores: 4, Disk: 64000, HourlyRate: 0.4},
	{Name: "large", Cores: 8, Disk: 256000, HourlyRate: 0.8},
	{Name: "xlarge", Cores: 16, Disk: 512000, HourlyRate: 1.6},
	{Name: "2xlarge", Cores: 32, Disk: 1024000, HourlyRate: 3.2},
	{Name: "3xlarge", Cores: 64, Disk: 2048000, HourlyRate: 6.4},
	{Name: "4xlarge", Cores: 128, Disk: 4096000, HourlyRate: 12.8},
}

// randomJobTypes are the no-configuration job types (Appendix A step 4).
var randomJobTypes = []JobType{
	{Name: "instant", MinRunTime: 1, MaxRunTime: 60, PopulationRate: 58},
	{Name: "short", MinRunTime: 61, MaxRunTime: 600, PopulationRate: 30},
	{Name: "medium", MinRunTime: 601, MaxRunTime: 3600, PopulationRate: 10},
	{Name: "long", MinRunTime: 3601, MaxRunTime: 604800, PopulationRate: 2},
}

// RandomConfigPath is what ds-res-failures.txt names as the configuration
// file in the no-configuration mode (failure-models.md §12.5).
const RandomConfigPath = "random (internal)"

// RandomConfig is ds-server run without -c (failure-models.md §12,
// job-generation.md Appendix A): the glibc stream seeded by -r (unseeded,
// i.e. seed 1, without it) draws the eight types' limits (no limit draws
// with -l), their memory, the workload, then the jobs, which -j and -d
// bound. -f is accepted but generates no failures (§12.5); a failure trace
// (dsmock's -f extension) needs a configuration and is refused.
func RandomConfig(opt LoadOptions) (*Config, error) {
	if e := opt.validate(); e != nil {
		return nil, e
	}
	c := &Config{Path: RandomConfigPath, Random: true, Seed: 1, JobTypes: randomJobTypes,
		EndTime: cfgDefaultEndTime, JobCount: cfgDefaultJobCount, Generated: true, IgnoredOptions: randomIgnored(opt)}
	if opt.FailureGiven {
		if !isFailureModel(opt.Failure) {
			m := fmt.Sprintf("-f %s: not a failure model (%s); a failure trace needs a configuration file (-c); without one only a model name is accepted, and it generates no failures",
				opt.Failure, strings.Join(FailureModelNames(), ", "))
			return nil, &ConfigError{File: "command line", Context: "option -f", Msg: m, Stderr: []string{"Invalid resource failure model!", m}, Usage: true, Status: 1}
		}
		m, _ := lookupFailModel(opt.Failure)
		c.FailureModel = m.name
		c.FailureDist = [4]float64{m.timeMu, m.timeSigma, m.nodeMu, m.nodeSigma} // the header still names them
	}
	if opt.SeedGiven {
		c.Seed = opt.Seed
	}
	if opt.EndTimeGiven {
		c.EndTime = opt.EndTime
	}
	if opt.JobCountGiven {
		c.JobCount = opt.JobCount
	}
	g := newGlibcRand(uint32(c.Seed))
	c.Types = randomSystem(g, opt)
	c.ConfigOrder = c.Types
	c.Workload = randomWorkload(g)
	jobs, e := jobgenRun(c, g)
	if e != nil {
		return nil, e
	}
	c.Jobs = jobs
	return c, nil
}

// randomSystem draws the limits (§12.2: types 7 down to 0, a kind draw that
// is always 0, then a limit draw unless -l) and the memory (§12.3: types 0
// up to 7).
func randomSystem(g *glibcRand, opt LoadOptions) []ServerType {
	types := randomTypes
	last := len(types)
	for k := len(types) - 1; k >= 0; k-- {
		kind := k + g.draw(last-k) // always k, but the draw is consumed
		if opt.LimitGiven {
			types[k].Limit = opt.Limit
		} else if x := 1 + g.draw(40); x <= 10 {
			types[k].Limit = x
		} else {
			types[k].Limit = x + 10 - x%10 // 11..19 -> 20, 20 -> 30, 40 -> 50
		}
		last = kind
	}
	for k := range types {
		t := &types[k]
		t.BootupTime = 60
		t.Memory = (1 + g.draw(t.Disk/t.Cores/1000)) * 1000 * t.Cores
	}
	return types[:]
}

// randomWorkload is §12.4: the loads and the three period lengths.
func randomWorkload(g *glibcRand) *Workload {
	w := &Workload{MinLoad: 1 + g.draw(99)}
	w.MaxLoad = w.MinLoad + g.draw(100-w.MinLoad+1)
	w.AvgLowTime = 3600 + g.draw(43200)
	w.AvgHighTime = 3600 + g.draw(43200)
	w.AvgTransitTime = min(w.AvgLowTime, w.AvgHighTime)
	return w
}
