package simconfig

import "strconv"

// ignoredOptions lists the command-line options that the configuration
// leaves without effect (job-generation.md §3.2, §3.6; ds-server.md §8;
// failure-models.md: a model's horizon is the end time in force; §12.5:
// -l), each as a sentence naming the value given and what wins over it.
func (l *cfgLoader) ignoredOptions() []string {
	var out []string
	add := func(opt string, v int, why string) {
		out = append(out, opt+" "+strconv.Itoa(v)+" has no effect: "+why)
	}
	jobFile := "the jobs come from the config's job file " + l.cfg.JobFile
	model := l.cfg.FailureModel != ""
	o := l.opt
	switch {
	case !o.SeedGiven:
	case l.seenConfig && l.seedSet:
		add("-r", o.Seed, "the config's randomSeed "+strconv.Itoa(int(l.seed))+" overrides it")
	case l.seenConfig:
		add("-r", o.Seed, "the config's <config> element seeds with 1024 (it has no randomSeed)")
	case l.jobFileMode && !model:
		add("-r", o.Seed, jobFile+" and no failure model draws numbers")
	}
	switch {
	case !o.JobCountGiven:
	case l.jobFileMode:
		add("-j", o.JobCount, jobFile)
	case l.jobCountSet:
		add("-j", o.JobCount, "the config's jobcount "+strconv.Itoa(l.jobCount)+" overrides it")
	}
	switch {
	case !o.EndTimeGiven:
	case l.endTimeSet:
		add("-d", o.EndTime, "the config's endtime "+strconv.Itoa(l.endTime)+" overrides it")
	case l.jobFileMode && !model:
		add("-d", o.EndTime, jobFile+" (with a failure model it would set the failures' horizon)")
	}
	if o.LimitGiven { // -l is the no-config mode's (failure-models.md §12.5)
		add("-l", o.Limit, "the config's <server> limits give the servers per type")
	}
	return out
}

// randomIgnored is ignoredOptions for the no-config mode: -f is accepted
// and generates no failures, so -g and -s change nothing
// (failure-models.md §1.3, §12.5).
func randomIgnored(o LoadOptions) []string {
	if !o.FailureGiven {
		return nil
	}
	out := []string{"-f " + o.Failure + " generates no failures without -c, as in ds-server (ds-res-failures.txt gets its header only)"}
	for _, g := range []struct {
		opt   string
		given bool
		v     int
	}{{"-g", o.GrainGiven, o.Grain}, {"-s", o.ScaleGiven, o.Scale}} {
		if g.given {
			out = append(out, g.opt+" "+strconv.Itoa(g.v)+" has no effect: -f generates no failures without -c")
		}
	}
	return out
}
