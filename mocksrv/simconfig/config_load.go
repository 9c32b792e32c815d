package simconfig

import (
	"github.com/dssim-go/dssim-go/protocol/didyoumean"

	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/beevik/etree"
)

// Defaults of the termination conditions (ds-server.md §2.6) and the seed
// (§2.8).
const (
	cfgDefaultEndTime  = 2592000
	cfgDefaultJobCount = 1000
	cfgDefaultSeed     = 1024
	cfgMaxServerTypes  = 100
	cfgMaxJobTypes     = 127
	cfgMaxJobs         = 1000000
	cfgMaxNameLen      = 65
)

// cfgBOM is a UTF-8 byte order mark, which XML parsers (and ds-server's)
// accept before the document and encoding/xml does not.
var cfgBOM = []byte("\xef\xbb\xbf")

// LoadConfig reads and loads a ds-server configuration file. A missing or
// unreadable file gets ds-server's -c error (ds-server.md §2.1). Every other
// problem is reported by ParseConfig.
func LoadConfig(path string, opt LoadOptions) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		line := "No such file (" + path + ") exist!"
		return nil, &ConfigError{File: path, Msg: "cannot read the configuration file: " + cfgPathErr(err),
			Stderr: []string{line}, Usage: true, Status: 1}
	}
	return ParseConfig(path, data, opt)
}

// ParseConfig loads a configuration from its text; path is the file name as
// given (used in messages and to resolve relative file names). The result is
// ready for a simulation: types sorted, the job list read from the job file
// or generated (Appendix A, job-generation.md), the failure trace read.
// Every error is a *ConfigError.
func ParseConfig(path string, data []byte, opt LoadOptions) (*Config, error) {
	if e := opt.validate(); e != nil {
		return nil, e
	}
	l := &cfgLoader{path: path, dir: filepath.Dir(path), opt: opt, cfg: &Config{Path: path}}
	if e := l.load(data); e != nil {
		return nil, e
	}
	return l.cfg, nil
}

// cfgLoader holds the state of one load: what ds-server keeps in globals
// while it walks the document.
type cfgLoader struct {
	path string // config path as given
	data []byte // its text (for the line of an element: etree keeps none)
	dir  string // its folder (fallback for relative file names)
	opt  LoadOptions
	cfg  *Config

	notes []string // stderr lines printed so far by accepted input

	seenConfig, seenServers, seenJobs bool
	jobFileMode                       bool
	servers, jobTypes, conditions     int // elements seen (1-based counters in messages)
	seed                              uint32
	seedSet                           bool // <config> has randomSeed
	endTime, jobCount                 int
	endTimeSet, jobCountSet           bool
	traceRaw                          []FailureRecord // parsed trace, checked against the types after the walk
	traceLines                        []int           // line of each record
	traceFile                         string          // trace path as given ("" if none)
}

// invalid is a rule failure of §2.2–§2.7: the rule's stderr lines, then
// "Configuration file (<f>) invalid!", then the Usage line, exit status 1.
func (l *cfgLoader) invalid(ctx, msg string, lines ...string) *ConfigError {
	return l.wrap(&ConfigError{File: l.path, Context: ctx, Msg: msg, Stderr: lines})
}

// wrap completes an error found in the config or in a file it names: the
// stderr lines printed before it, the generic invalid line and the Usage line.
func (l *cfgLoader) wrap(e *ConfigError) *ConfigError {
	st := make([]string, 0, len(l.notes)+len(e.Stderr)+1)
	st = append(st, l.notes...)
	st = append(st, e.Stderr...)
	e.Stderr = append(st, cfgInvalidLine(l.path))
	e.Usage, e.Status = true, 1
	return e
}

// fatal is a check that prints only its own message and exits 1, with no
// "invalid" line and no Usage line (ds-server.md §2.3 post-load checks, §2.5).
func (l *cfgLoader) fatal(ctx, msg string, lines ...string) *ConfigError {
	st := append(append([]string(nil), l.notes...), lines...)
	return &ConfigError{File: l.path, Context: ctx, Msg: msg, Stderr: st, Status: 1}
}

// load runs the whole pipeline of §2 on the document text.
func (l *cfgLoader) load(data []byte) *ConfigError {
	data = bytes.TrimPrefix(data, cfgBOM)
	l.data = data
	if line, msg := cfgXMLWellFormed(data); msg != "" {
		return l.crash(fmt.Sprintf("line %d", line), msg)
	}
	doc := etree.NewDocument()
	doc.ReadSettings.CharsetReader = cfgXMLDecoder(nil).CharsetReader
	if err := doc.ReadFromBytes(data); err != nil {
		line, msg := cfgXMLErr(err, 0)
		return l.crash(fmt.Sprintf("line %d", line), msg)
	}
	if e := l.walk(doc); e != nil {
		return e
	}
	return l.finish()
}

// crash reports input on which the reference aborts (ds-server.md §2.1,
// Appendix D): our clear message, then the generic invalid line.
func (l *cfgLoader) crash(ctx, msg string) *ConfigError {
	e := l.invalid(ctx, msg, l.path+": "+ctx+": "+msg)
	e.Divergence = "ds-server aborts on an assertion (exit status 134)"
	return e
}

// walk visits every element in document order, depth first, parent before
// children (ds-server.md §2.1), and reacts to the element names it knows.
// Everything else is ignored but its children are still visited.
func (l *cfgLoader) walk(doc *etree.Document) *ConfigError {
	stack := []*etree.Element{}
	if r := doc.Root(); r != nil {
		stack = append(stack, r)
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var err *ConfigError
		switch e.Tag {
		case "config":
			err = l.configElem(e)
		case "servers":
			err = l.serversElem(e)
		case "server":
			err = l.serverElem(e)
		case "jobs":
			err = l.jobsElem(e)
		case "job":
			err = l.jobTypeElem(e)
		case "workload":
			err = l.workloadElem(e)
		case "condition":
			err = l.conditionElem(e)
		}
		if err != nil {
			return err
		}
		kids := e.ChildElements()
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return nil
}

// finish applies the checks ds-server makes once the document is read, then
// the termination rules, and generates the jobs when there is no job file.
func (l *cfgLoader) finish() *ConfigError {
	for _, step := range [...]func() *ConfigError{l.checkDocument, l.sortTypes, l.loadTrace, l.checkTypes, l.checkWorkload} {
		if e := step(); e != nil {
			return e
		}
	}
	l.setSeed()
	g := newGlibcRand(l.seed)
	l.setTermination()
	l.cfg.IgnoredOptions = l.ignoredOptions()
	if l.jobFileMode {
		// No job draws: the failures start at the first output
		// (failure-models.md §1.4), with the end time in force before
		// the §2.7 termination reset (conditions, -j and -d are then
		// ignored; ds-res-failures.txt's header shows the reset value).
		l.generateFailures(g)
		l.cfg.JobCount, l.cfg.EndTime = len(l.cfg.Jobs), cfgDefaultEndTime
		l.cfg.Warnings = l.notes
		return nil
	}
	if e := l.generate(g); e != nil {
		return e
	}
	l.generateFailures(g)
	return nil
}

// generateFailures runs the failure model, if one was chosen, on the glibc
// stream where job generation left it (failure-models.md §1.4). -g and -s
// count only with -f; a model from the failureModel attribute always runs
// with a 300 s grain and a scale of 100 (§2.2: the failureTimeGrain
// attribute is range-checked and then never used).
func (l *cfgLoader) generateFailures(g *glibcRand) {
	c := l.cfg
	m, ok := lookupFailModel(c.FailureModel)
	if !ok {
		return
	}
	grain, scale := failDefaultGrain, failDefaultScale
	if l.opt.FailureGiven && l.opt.GrainGiven {
		grain = l.opt.Grain
	}
	if l.opt.FailureGiven && l.opt.ScaleGiven {
		scale = l.opt.Scale
	}
	c.Failures, c.FailureTotal = newFailGen(g, m, c.Types, grain, scale, c.EndTime).generate()
	c.FailureDist = [4]float64{m.timeMu, m.timeSigma, m.nodeMu, m.nodeSigma}
}

// checkDocument: servers present, population rates summing to 100.
func (l *cfgLoader) checkDocument() *ConfigError {
	c := l.cfg
	if !l.seenServers {
		e := l.invalid("", `no <servers> element`, l.path+`: no <servers> element`)
		e.Divergence = "ds-server aborts on an assertion (exit status 134)"
		return e
	}
	if len(c.ConfigOrder) == 0 {
		e := l.invalid("<servers>", "no <server> element", l.path+": <servers>: no <server> element")
		e.Divergence = "ds-server's behaviour without server types is not specified"
		return e
	}
	if !l.jobFileMode {
		sum := 0
		for _, t := range c.JobTypes {
			sum += t.PopulationRate
		}
		if sum != 100 {
			// ds-server prints no specific message for this rule (§2.4).
			return l.invalid("<jobs>", fmt.Sprintf("the populationRate values sum to %d, not 100", sum))
		}
	}
	return nil
}

// sortTypes is ds-server.md §2.9: stable sort by core count only.
func (l *cfgLoader) sortTypes() *ConfigError {
	c := l.cfg
	c.Types = append([]ServerType(nil), c.ConfigOrder...)
	sort.SliceStable(c.Types, func(i, j int) bool { return c.Types[i].Cores < c.Types[j].Cores })
	return nil
}

// loadTrace reads the failure trace (config or -f) and checks its servers.
func (l *cfgLoader) loadTrace() *ConfigError {
	c := l.cfg
	if l.opt.FailureGiven && !isFailureModel(l.opt.Failure) {
		// dsmock extension: -f names a trace file (LoadOptions.Failure).
		if e := l.readTrace(l.opt.Failure, "option -f"); e != nil {
			if strings.Contains(e.Msg, "no such file found!") {
				// ds-server's line says file; the user may have meant a model.
				e.Msg += " (nor is it a failure model: " + strings.Join(FailureModelNames(), ", ") + ")" +
					didyoumean.Hint(l.opt.Failure, FailureModelNames())
			}
			return e
		}
	}
	if l.traceFile != "" {
		if e := failtraceCheck(l.traceFile, l.traceRaw, l.traceLines, c.Types); e != nil {
			return l.wrap(e)
		}
		c.Failures = l.traceRaw
	}
	return nil
}

// checkTypes is the post-load check of §2.3: per type in sorted order; own
// message only.
func (l *cfgLoader) checkTypes() *ConfigError {
	for _, t := range l.cfg.Types {
		ctx := fmt.Sprintf("<server> type %s", t.Name)
		switch {
		case t.Memory < 200*t.Cores:
			m := fmt.Sprintf("Insufficient memory (min/core: 200 for server type: %s)!", t.Name)
			return l.fatal(ctx, m, m)
		case t.Disk < 200*t.Cores:
			m := fmt.Sprintf("Insufficient disk space (min/core: 200 for server type: %s)!", t.Name)
			return l.fatal(ctx, m, m)
		case t.HourlyRate == 0:
			m := fmt.Sprintf("The (hourly) rental rate of server %s missing!", t.Name)
			return l.fatal(ctx, m, m)
		}
	}
	return nil
}

// checkWorkload refuses a workload with minLoad > maxLoad.
func (l *cfgLoader) checkWorkload() *ConfigError {
	c := l.cfg
	if w := c.Workload; w != nil && w.MinLoad > w.MaxLoad {
		// §2.5; ds-server checks this only after generating and its
		// generator never finishes for such a workload, so we reject it
		// before generating (job-generation.md decision 1).
		m := fmt.Sprintf("Min load (%d) should be less than max load (%d)!", w.MinLoad, w.MaxLoad)
		e := l.fatal("<workload>", m, m)
		if !l.jobFileMode {
			e.Divergence = "ds-server hangs while generating jobs for this workload"
		}
		return e
	}
	return nil
}

// setSeed is job-generation.md §3.2: never seeded = seed 1, unless -r
// seeded it.
func (l *cfgLoader) setSeed() {
	if !l.seenConfig {
		l.seed = 1
		if l.opt.SeedGiven {
			l.seed = uint32(l.opt.Seed)
		}
	}
	l.cfg.Seed = int(l.seed)
}

// setTermination applies the termination rules of §2.6 for generated jobs.
func (l *cfgLoader) setTermination() {
	c := l.cfg
	c.EndTime, c.JobCount = cfgDefaultEndTime, cfgDefaultJobCount
	if l.opt.EndTimeGiven {
		c.EndTime = l.opt.EndTime
	}
	if l.opt.JobCountGiven {
		c.JobCount = l.opt.JobCount
	}
	if l.endTimeSet { // config conditions are read later and win (§2.6)
		c.EndTime = l.endTime
	}
	if l.jobCountSet {
		c.JobCount = l.jobCount
	}
}

// generate generates the jobs (job-generation.md) with g, seeded.
func (l *cfgLoader) generate(g *glibcRand) *ConfigError {
	c := l.cfg
	if c.Workload == nil {
		// job-generation.md decision 3.
		m := "no <workload> element: cannot generate jobs without one (give a <workload> or a <jobs file=…>)"
		return &ConfigError{File: l.path, Context: "<workload>", Msg: m,
			Stderr: append(append([]string(nil), l.notes...), l.path+": "+m), Status: 1,
			Divergence: "ds-server generates with minLoad = maxLoad = 0 (not verified)"}
	}
	jobs, e := jobgenRun(c, g)
	if e != nil {
		e.File = l.path
		e.Stderr = append(append([]string(nil), l.notes...), e.Stderr...)
		return e
	}
	c.Jobs, c.Generated = jobs, true
	c.Warnings = l.notes
	return nil
}

// resolve finds a file named in the config: relative names are looked up in
// BaseDir (or the working directory, as ds-server does), then, as a
// user-friendly fallback, in the config file's own folder. It returns ""
// when the file is not found in either place.
func (l *cfgLoader) resolve(name string) string {
	if name == "" {
		return ""
	}
	if l.opt.FS != nil {
		p := path.Join(path.Dir(filepath.ToSlash(l.path)), filepath.ToSlash(name))
		if st, err := fs.Stat(l.opt.FS, p); err == nil && st.Mode().IsRegular() {
			return p
		}
		return ""
	}
	if filepath.IsAbs(name) {
		if cfgIsFile(name) {
			return name
		}
		return ""
	}
	first := name
	if l.opt.BaseDir != "" {
		first = filepath.Join(l.opt.BaseDir, name)
	}
	if cfgIsFile(first) {
		return first
	}
	if second := filepath.Join(l.dir, name); cfgIsFile(second) {
		return second
	}
	return ""
}

// readFile reads a file resolve found, from Options.FS when set.
func (l *cfgLoader) readFile(p string) ([]byte, error) {
	if l.opt.FS != nil {
		return fs.ReadFile(l.opt.FS, p)
	}
	return os.ReadFile(p)
}

func cfgIsFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// cfgPathErr shortens an *fs.PathError to its cause ("no such file or directory").
func cfgPathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
