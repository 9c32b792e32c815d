package simconfig

import (
	"fmt"
	"strings"

	"github.com/beevik/etree"
)

// cfgIntSpec describes an integer attribute of the config (ds-server.md
// §2.2–§2.6): its bounds, the limit name of the "Out of bound!" message and
// the text after "Error: " printed when it is missing ("" = optional).
type cfgIntSpec struct {
	name     string
	min, max int64
	limit    string
	missing  string
}

// Messages for missing attributes. Those of <server> and <condition> are
// ds-server's (ds-server.md §2.3, §2.6). ds-server.md does not give the ones
// for <job> run times and rate and for the workload loads: these wordings are
// ours, in the same style (not verified against the reference).
var (
	specLimit      = cfgIntSpec{"limit", 1, 1000, "Resource limit (#servers/type)", "Resource limit"}
	specBootupTime = cfgIntSpec{"bootupTime", 0, 600, "Server bootup time", "Bootup time"}
	specCores      = cfgIntSpec{"cores", 1, 1024, "Core count limit", "Core count"}
	specMemory     = cfgIntSpec{"memory", 1000, 2147483647, "Memory limit", "The amount of memory"}
	specDisk       = cfgIntSpec{"disk", 1000, 2147483647, "Disk limit", "The amount of storage"}
	specMinRun     = cfgIntSpec{"minRunTime", 1, 604799, "Job run time", "Min job run time"}
	specMaxRun     = cfgIntSpec{"maxRunTime", 1, 604800, "Job run time", "Max job run time"}
	specPopRate    = cfgIntSpec{"populationRate", 1, 100, "Job population rate", "Job population rate"}
	specMinLoad    = cfgIntSpec{"minLoad", 1, 99, "Min load limit", "Min load"}
	specMaxLoad    = cfgIntSpec{"maxLoad", 1, 100, "Max load limit", "Max load"}
	specEndTime    = cfgIntSpec{"value", 1, 2592000, "Simulation end time", "Termination condition value"}
	specJobCount   = cfgIntSpec{"value", 1, 1000000, "Max Job count", "Termination condition value"}
	specSeed       = cfgIntSpec{"randomSeed", 1, 4294967295, "Random seed limit", ""}
	specGrain      = cfgIntSpec{"failureTimeGrain", 60, 3600, "Server failure time granularity", ""}
	specLoadTime   = [3]cfgIntSpec{
		{"avgLowTime", 3600, 43200, "Time limit of load state", ""},
		{"avgHighTime", 3600, 43200, "Time limit of load state", ""},
		{"avgTransitTime", 3600, 43200, "Time limit of load state", ""},
	}
)

// cfgAttr returns an attribute's value and whether it is present.
func cfgAttr(e *etree.Element, name string) (string, bool) {
	for _, a := range e.Attr {
		if a.Space == "" && a.Key == name {
			return a.Value, true
		}
	}
	return "", false
}

// intAttr reads an integer attribute like ds-server (§2.1): strtol, then the
// int conversion, then the bounds. present is false for an absent optional
// attribute.
func (l *cfgLoader) intAttr(e *etree.Element, ctx string, s cfgIntSpec) (v int, present bool, err *ConfigError) {
	actx := ctx + ": attribute " + s.name
	raw, ok := cfgAttr(e, s.name)
	if !ok {
		if s.missing == "" {
			return 0, false, nil
		}
		return 0, false, l.invalid(actx, "missing", "Error: "+s.missing)
	}
	n, st := cfgStrtol(raw)
	switch st {
	case cfgNumNoDigits:
		return 0, true, l.invalid(actx, fmt.Sprintf("%q: %s", raw, cfgNoDigitsLine), cfgNoDigitsLine)
	case cfgNumRange:
		return 0, true, l.invalid(actx, fmt.Sprintf("%q: %s", raw, cfgRangeLine("strtol")), cfgRangeLine("strtol"))
	}
	v = cfgInt32(n)
	if int64(v) < s.min || int64(v) > s.max {
		m := fmt.Sprintf("%d: Out of bound! (%d - %d); %s", v, s.min, s.max, s.limit)
		return v, true, l.invalid(actx, m, m)
	}
	return v, true, nil
}

// nameAttr reads the required "type" attribute of <server> and <job>
// (§2.3, §2.4): at most 65 bytes.
func (l *cfgLoader) nameAttr(e *etree.Element, ctx, what string, k int) (string, *ConfigError) {
	name, ok := cfgAttr(e, "type")
	if !ok {
		m := fmt.Sprintf(`no "type" attribute specified in "%s" element %d!`, what, k)
		return "", l.invalid(ctx+": attribute type", "missing", m)
	}
	if len(name) > cfgMaxNameLen {
		m := fmt.Sprintf("ERR: %s type name, %s is too long (max: %d)", what, name, cfgMaxNameLen)
		return "", l.invalid(ctx+": attribute type", m, m)
	}
	return name, nil
}

// configElem: <config randomSeed newline> (§2.2). The generator is seeded
// when this element is processed, so -r has no effect here (§2.8).
func (l *cfgLoader) configElem(e *etree.Element) *ConfigError {
	l.seenConfig = true
	l.seed = cfgDefaultSeed
	v, present, err := l.intAttr(e, "<config>", specSeed)
	if err != nil {
		return err
	}
	if present {
		l.seed, l.seedSet = uint32(v), true
	}
	if nl, ok := cfgAttr(e, "newline"); ok && nl == "true" {
		l.cfg.Newline = true
	}
	return nil
}

// serversElem: <servers> and its failure attributes (§2.3, Appendix C).
func (l *cfgLoader) serversElem(e *etree.Element) *ConfigError {
	const ctx = "<servers>"
	if l.seenServers {
		m := `Only one system ("servers" element) is supported!`
		return l.invalid(ctx, m, m)
	}
	l.seenServers = true
	for _, name := range []string{"failureModel", "failureTimeGrain", "failureFile"} {
		if _, ok := cfgAttr(e, name); ok && l.opt.FailureGiven {
			m := "The '-f' command line option is used already!"
			return l.invalid(ctx+": attribute "+name, m, m)
		}
	}
	if m, ok := cfgAttr(e, "failureModel"); ok {
		if !isFailureModel(m) {
			msg := "Invalid resource failure model!"
			return l.invalid(ctx+": attribute failureModel", fmt.Sprintf("%q: %s", m, msg), msg)
		}
		l.cfg.FailureModel = m
	}
	// Validated, then ignored: the grain stays 300 s [BUG-COMPAT] (§2.3).
	_, grain, err := l.intAttr(e, ctx, specGrain)
	if err != nil {
		return err
	}
	_, file := cfgAttr(e, "failureFile")
	l.cfg.GrainOnly = grain && !file && l.cfg.FailureModel == "" && !l.opt.FailureGiven
	if f, ok := cfgAttr(e, "failureFile"); ok && l.cfg.FailureModel == "" {
		// A model wins: the file is then never opened (§2.3).
		return l.readTrace(f, ctx+": attribute failureFile")
	}
	if l.opt.FailureGiven && isFailureModel(l.opt.Failure) {
		l.cfg.FailureModel = l.opt.Failure
	}
	return nil
}

// readTrace reads and parses a failure trace (Appendix C.1). Its records are
// checked against the server types once they are all known.
func (l *cfgLoader) readTrace(name, ctx string) *ConfigError {
	p := l.resolve(name)
	if p == "" {
		m := name + ": no such file found!"
		return l.invalid(ctx, m, m)
	}
	data, err := l.readFile(p)
	if err != nil {
		m := name + ": no such file found!"
		return l.invalid(ctx, m+" ("+cfgPathErr(err)+")", m)
	}
	recs, lines, e := failtraceParse(name, data)
	if e != nil {
		return l.wrap(e)
	}
	l.cfg.FailureFile, l.cfg.FailurePath, l.traceFile, l.traceRaw, l.traceLines = name, p, name, recs, lines
	return nil
}

// serverElem: one server type (§2.3).
func (l *cfgLoader) serverElem(e *etree.Element) *ConfigError {
	l.servers++
	k := l.servers
	ctx := fmt.Sprintf("<server> %d", k)
	if !l.seenServers {
		// ds-server.md §2.1: an error, with no specific message given.
		return l.invalid(ctx, "<server> before any <servers> element")
	}
	if len(l.cfg.ConfigOrder) >= cfgMaxServerTypes {
		m := fmt.Sprintf("Too many server types (max: %d)", cfgMaxServerTypes)
		return l.invalid(ctx, m, m)
	}
	var t ServerType
	var err *ConfigError
	if t.Name, err = l.nameAttr(e, ctx, "server", k); err != nil {
		return err
	}
	if strings.TrimSpace(t.Name) == "" || strings.ContainsAny(t.Name, " \t\r\n\v\f") {
		// ds-server accepts these, but no client can name such a server in
		// a command (the protocol separates fields with spaces).
		e := l.invalid(ctx+": attribute type", fmt.Sprintf("server type name %q is empty or contains white space", t.Name))
		e.Divergence = "ds-server accepts the name; the protocol cannot carry it"
		return e
	}
	if err := l.uniqueType(t.Name, k); err != nil {
		return err
	}
	ctx = fmt.Sprintf("<server> %d (%s)", k, t.Name)
	if t.Limit, _, err = l.intAttr(e, ctx, specLimit); err != nil {
		return err
	}
	if t.BootupTime, _, err = l.intAttr(e, ctx, specBootupTime); err != nil {
		return err
	}
	if raw, ok := cfgAttr(e, "hourlyRate"); !ok {
		// Printed, then rejected by the zero check after loading [BUG-COMPAT].
		l.notes = append(l.notes, "Error: Server rental rate")
	} else {
		v, st := cfgStrtod(raw)
		actx := ctx + ": attribute hourlyRate"
		switch {
		case st == cfgNumNoDigits:
			// Not specified by ds-server.md; we treat it like an integer
			// without digits.
			return l.invalid(actx, fmt.Sprintf("%q: %s", raw, cfgNoDigitsLine), cfgNoDigitsLine)
		case st == cfgNumRange:
			return l.invalid(actx, fmt.Sprintf("%q: %s", raw, cfgRangeLine("strtod")), cfgRangeLine("strtod"))
		case v == -1:
			// Exactly -1 is rejected with no specific message [BUG-COMPAT];
			// other values are not range checked (§2.3).
			return l.invalid(actx, fmt.Sprintf("%q: the rate -1 is rejected", raw))
		}
		t.HourlyRate = float32(v)
	}
	if t.Cores, _, err = l.intAttr(e, ctx, specCores); err != nil {
		return err
	}
	if t.Memory, _, err = l.intAttr(e, ctx, specMemory); err != nil {
		return err
	}
	if t.Disk, _, err = l.intAttr(e, ctx, specDisk); err != nil {
		return err
	}
	l.cfg.ConfigOrder = append(l.cfg.ConfigOrder, t)
	return nil
}

// jobsElem: <jobs> (a container of job types) or <jobs file="…"> (§2.4, §2.7).
func (l *cfgLoader) jobsElem(e *etree.Element) *ConfigError {
	const ctx = "<jobs>"
	if l.seenJobs {
		m := `Only one set of job types ("jobs" element) is supported!`
		return l.invalid(ctx, m, m)
	}
	l.seenJobs = true
	f, ok := cfgAttr(e, "file")
	if !ok {
		return nil
	}
	l.jobFileMode = true
	l.cfg.JobFile = f
	p := l.resolve(f)
	l.cfg.JobPath = p
	if p == "" {
		e := l.invalid(ctx+": attribute file", fmt.Sprintf("job file %q not found", f), fmt.Sprintf("%s: job file %s not found", l.path, f))
		e.Divergence = "ds-server aborts on a missing job file"
		return e
	}
	data, err := l.readFile(p)
	if err != nil {
		e := l.invalid(ctx+": attribute file", fmt.Sprintf("job file %q: %s", f, cfgPathErr(err)), fmt.Sprintf("%s: job file %s: %s", l.path, f, cfgPathErr(err)))
		e.Divergence = "ds-server aborts on an unreadable job file"
		return e
	}
	jobs, ext, je := jobfileParseExt(f, data)
	if je != nil {
		return l.wrap(je)
	}
	l.cfg.Jobs = jobs
	l.cfg.ActMemoryJobs = ext.count
	if ext.err != nil {
		l.cfg.ActMemoryErr = ext.err
	}
	return nil
}

// jobTypeElem: one job type (§2.4). With a job file, or before any <jobs>,
// ds-server reports that the "jobs" element is missing.
func (l *cfgLoader) jobTypeElem(e *etree.Element) *ConfigError {
	l.jobTypes++
	k := l.jobTypes
	ctx := fmt.Sprintf("<job> %d", k)
	if l.jobFileMode || !l.seenJobs {
		m := `The "jobs" element is missing!`
		why := "a <job> element before any <jobs> element"
		if l.jobFileMode {
			why = "a <job> element in a configuration that uses a job file"
		}
		return l.invalid(ctx, why+": "+m, m)
	}
	if len(l.cfg.JobTypes) >= cfgMaxJobTypes {
		m := fmt.Sprintf("Too many job types (max: %d)", cfgMaxJobTypes)
		return l.invalid(ctx, m, m)
	}
	var t JobType
	var err *ConfigError
	if t.Name, err = l.nameAttr(e, ctx, "job", k); err != nil {
		return err
	}
	ctx = fmt.Sprintf("<job> %d (%s)", k, t.Name)
	if t.MinRunTime, _, err = l.intAttr(e, ctx, specMinRun); err != nil {
		return err
	}
	if t.MaxRunTime, _, err = l.intAttr(e, ctx, specMaxRun); err != nil {
		return err
	}
	if t.MaxRunTime <= t.MinRunTime {
		m := "max job runtime must be greater than min job runtime!"
		return l.invalid(ctx+": attribute maxRunTime", fmt.Sprintf("%d <= %d: %s", t.MaxRunTime, t.MinRunTime, m), m)
	}
	if t.PopulationRate, _, err = l.intAttr(e, ctx, specPopRate); err != nil {
		return err
	}
	l.cfg.JobTypes = append(l.cfg.JobTypes, t)
	return nil
}

// workloadElem: <workload> (§2.5, job-generation.md §3.5), with the
// carry-over quirk of the three optional durations [BUG-COMPAT]: an absent
// one takes the most recently read integer of this element, and one present
// without digits is -1, not range checked, and carried over in turn.
func (l *cfgLoader) workloadElem(e *etree.Element) *ConfigError {
	const ctx = "<workload>"
	if l.cfg.Workload != nil {
		m := `Only one workload pattern ("workload" element) is supported!`
		return l.invalid(ctx, m, m)
	}
	w := &Workload{}
	typ, ok := cfgAttr(e, "type")
	if !ok {
		m := `no "type" attribute specified in "workload" element!`
		return l.invalid(ctx+": attribute type", "missing", m)
	}
	w.Type = typ
	var err *ConfigError
	if w.MinLoad, _, err = l.intAttr(e, ctx, specMinLoad); err != nil {
		return err
	}
	if w.MaxLoad, _, err = l.intAttr(e, ctx, specMaxLoad); err != nil {
		return err
	}
	last := w.MaxLoad
	dst := [3]*int{&w.AvgLowTime, &w.AvgHighTime, &w.AvgTransitTime}
	for i, s := range specLoadTime {
		if raw, ok := cfgAttr(e, s.name); ok {
			if _, st := cfgStrtol(raw); st == cfgNumNoDigits {
				l.notes = append(l.notes, cfgNoDigitsLine)
				last = -1
			} else {
				v, _, err := l.intAttr(e, ctx, s)
				if err != nil {
					return err
				}
				last = v
			}
		}
		*dst[i] = last
	}
	l.cfg.Workload = w
	return nil
}

// conditionElem: a termination condition (§2.6). A repeated condition takes
// its last value.
func (l *cfgLoader) conditionElem(e *etree.Element) *ConfigError {
	l.conditions++
	ctx := fmt.Sprintf("<condition> %d", l.conditions)
	typ, _ := cfgAttr(e, "type")
	var spec cfgIntSpec
	switch typ {
	case "endtime":
		spec = specEndTime
	case "jobcount":
		spec = specJobCount
	default:
		m := `Error: invalid "type" attribute!`
		return l.invalid(ctx+": attribute type", fmt.Sprintf("%q: %s", typ, m), m)
	}
	ctx += " (" + typ + ")"
	v, _, err := l.intAttr(e, ctx, spec)
	if err != nil {
		return err
	}
	if typ == "endtime" {
		l.endTime, l.endTimeSet = v, true
	} else {
		l.jobCount, l.jobCountSet = v, true
	}
	return nil
}

// uniqueType refuses the k-th <server> when an earlier one has its type
// name. ds-server loads both, but a client names a server by type and id
// (GETS Type, SCHD, ...), and the first type of the name answers for both:
// the second's servers can never be used, which no message says. Refused
// when the config loads, with both lines, before dsmock listens.
func (l *cfgLoader) uniqueType(name string, k int) *ConfigError {
	for j, t := range l.cfg.ConfigOrder {
		if t.Name != name {
			continue
		}
		first, line := cfgElementLine(l.data, "server", j+1), cfgElementLine(l.data, "server", k)
		ctx := fmt.Sprintf("line %d: <server> %d (%s): attribute type", line, k, name)
		e := l.invalid(ctx, fmt.Sprintf("server type %q listed twice (first as <server> %d, line %d): a client names servers by type, so one of the two could never be used", name, j+1, first))
		e.Divergence = "ds-server loads both types; commands naming the type reach only one of them"
		return e
	}
	return nil
}
