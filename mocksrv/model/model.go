// Package model is the data of a simulation: the server types, jobs,
// workload and failure records of a configuration, as package simconfig
// loads them and package engine runs them. It does no I/O and imports
// nothing that does, so the engine that depends on it does not either.
// Field comments cite ../shared/docs/ds-server.md.
package model

import (
	"cmp"
	"slices"
	"sort"
)

// ServerType is a <server> element of the config (§2.3).
type ServerType struct {
	Name       string
	Limit      int // servers of this type, ids 0 .. Limit-1
	BootupTime int
	HourlyRate float32 // stored as a 32-bit float, like ds-server
	Cores      int
	Memory     int
	Disk       int
}

// JobType is a <job> element inside <jobs> (§2.4).
type JobType struct {
	Name           string
	MinRunTime     int
	MaxRunTime     int
	PopulationRate int
}

// Workload is the <workload> element (§2.5). The three durations already
// carry ds-server's absent-attribute quirk.
type Workload struct {
	Type           string
	MinLoad        int
	MaxLoad        int
	AvgLowTime     int
	AvgHighTime    int
	AvgTransitTime int
}

// Job is one job of the workload.
type Job struct {
	ID         int
	Type       string // job type name (informative)
	Submit     int
	EstRunTime int
	ActRunTime int // the run time the simulation uses (= EstRunTime when a job file has none)
	Cores      int
	Memory     int
	Disk       int

	// The memory extension's hidden ground truth (estimation.md Part E),
	// read from a job file's extra <job> attributes, which ds-server
	// ignores: ActMemory is the memory the job really uses (0 when the
	// attribute is absent: ActMem then gives the request), App an optional
	// application label for offline key diagnostics. Only the extension
	// reads them.
	ActMemory int
	App       string
}

// ActMem is the memory the job really uses: ActMemory, or the request when
// the job file did not say (the job uses what it asked for).
func (j *Job) ActMem() int {
	if j.ActMemory > 0 {
		return j.ActMemory
	}
	return j.Memory
}

// FailureRecord is one line of a failure trace: the server is unavailable
// from Start to End inclusive and recovers at End+1 (Appendix C.1).
type FailureRecord struct {
	Start, End int
	Type       string
	ID         int
}

// Config is a loaded configuration: everything a simulation needs.
type Config struct {
	Path    string // as given (used in messages and ds-res-failures.txt)
	Random  bool   // ds-server's no-configuration mode (run without -c; failure-models.md §12)
	Seed    int    // randomSeed (default 1024)
	Newline bool   // newline="true"

	// Types are the server types in ds-server's sorted order: stably sorted
	// by cores ascending (§2.9). ConfigOrder keeps the file order.
	Types       []ServerType
	ConfigOrder []ServerType

	JobTypes []JobType // config order
	Workload *Workload // nil when absent
	EndTime  int       // termination endtime (after the job-file reset)
	JobCount int       // termination jobcount (after the job-file reset)

	JobFile string // path from <jobs file=…>, "" when jobs were generated
	// JobPath and FailurePath are where the loader found and read the job
	// file and the failure trace (the working folder or BaseDir first,
	// then beside the config; a path in LoadOptions.FS when loaded from
	// one): what a command writing files must not overwrite.
	JobPath, FailurePath string
	// ActMemoryJobs counts the job file's <job> elements that carry
	// actMemory; ActMemoryErr is the first invalid one (no number, < 0 or
	// above the job's memory), naming file, line, job and attribute. Both
	// matter only with the memory extension on (ds-server ignores the
	// attribute, so a file it accepts loads here too).
	ActMemoryJobs int
	ActMemoryErr  error
	Generated     bool  // jobs were generated (ds-jobs.xml is written at the end)
	Jobs          []Job // the workload, in release order

	FailureFile  string          // failureFile attribute or -f trace ("" if none)
	FailureModel string          // failureModel attribute or -f model ("" if none)
	Failures     []FailureRecord // trace records in file order (no phantom; the engine adds it), or a model's generated failures
	// FailureDist is a model's time and node distributions (μt, σt, μn, σn;
	// failure-models.md §2.1), printed in ds-res-failures.txt's header;
	// zero for a trace.
	FailureDist [4]float64
	// FailureTotal is a model's total failed slot count, Σ c of
	// failure-models.md §5.5: the "Total #failures" line of -v all.
	FailureTotal int
	// GrainOnly: <servers> has failureTimeGrain but neither failureModel nor
	// failureFile. Nothing fails, yet ds-server still writes
	// ds-res-failures.txt, its header from an invalid model entry
	// (failure-models.md §9 [UNDEFINED]); we write an empty model name and
	// zeros.
	GrainOnly bool

	// IgnoredOptions say which of -r, -j, -d and -l this configuration
	// leaves without effect, and why ("-j 5 has no effect: the config's
	// jobcount 1000 overrides it"), or, without a configuration, that -f
	// (with -g, -s) generates no failures: ds-server says nothing, a user
	// most likely expected the option to count.
	IgnoredOptions []string

	// Warnings are the lines ds-server prints on stderr while loading a
	// configuration it accepts (e.g. "Error: Server rental rate", "No digits
	// were found!" for a workload duration, ds-server.md §2.3, §2.5), in order.
	Warnings []string
}

// Simulated reports whether failures are simulated (GETS then carries six
// more fields and ds-res-failures.txt is written).
func (c *Config) Simulated() bool { return c.FailureFile != "" || c.FailureModel != "" }

// Largest returns ds-server's largest type: the last type after sorting
// (ties: the one latest in the config). It bounds GETS Capable/Avail/Bounded
// and job generation.
func (c *Config) Largest() ServerType { return c.Types[len(c.Types)-1] }

// FailureEvent is one event of a failure trace as ds-server schedules it
// (ds-server.md Appendix C.1): a failure at failStart, or a recovery at
// failEnd+1.
type FailureEvent struct {
	Time     int
	Recovery bool          // a recovery (RESR) rather than a failure (RESF)
	Record   FailureRecord // the trace record (the phantom's is 0 0 <smallest type> 0)
	Phantom  bool          // the extra never-recovering failure ds-server adds
}

// FailureEvents returns the failure events of a configuration with a failure
// trace, in the order ds-server processes them (Appendix C.1): each record
// gives a failure at Start and a recovery at End+1, listed record by record
// (failure then recovery) and then stably sorted by time; then the phantom
// failure [BUG-COMPAT] of server 0 of the smallest type (sorted order) at time
// 0, with no recovery, placed after any real time-0 events. It returns nil
// when the configuration has no trace.
func (c *Config) FailureEvents() []FailureEvent {
	if c.FailureFile == "" || len(c.Types) == 0 {
		return nil
	}
	ev := make([]FailureEvent, 0, 2*len(c.Failures)+1)
	for _, r := range c.Failures {
		ev = append(ev, FailureEvent{Time: r.Start, Record: r}, FailureEvent{Time: r.End + 1, Recovery: true, Record: r})
	}
	slices.SortStableFunc(ev, func(a, b FailureEvent) int { return cmp.Compare(a.Time, b.Time) })
	at := sort.Search(len(ev), func(i int) bool { return ev[i].Time > 0 })
	ph := FailureEvent{Time: 0, Phantom: true, Record: FailureRecord{Start: 0, End: 0, Type: c.Types[0].Name, ID: 0}}
	ev = append(ev, FailureEvent{})
	copy(ev[at+1:], ev[at:])
	ev[at] = ph
	return ev
}
