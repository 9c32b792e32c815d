package simconfig

import (
	"fmt"
	"io/fs"
)

// LoadOptions carries the ds-server command-line values that interact with
// the configuration (ds-server.md §8). Each value counts only when its Given
// flag is set.
type LoadOptions struct {
	EndTime      int // -d: generation end time, used when the config has no endtime condition
	EndTimeGiven bool

	JobCount      int // -j: generation job count, used when the config has no jobcount condition
	JobCountGiven bool

	Seed      int // -r: only effective when the file has no <config> element (§2.8)
	SeedGiven bool

	// -f: a failure model name (teragrid, nd07cpu, ...) or, as a dsmock
	// extension, the path of a failure trace file. ds-server's -f takes model
	// names only; models are refused (decision 5), so a trace path is the
	// only -f value that loads.
	Failure      string
	FailureGiven bool

	Grain      int // -g: failure time grain (models only, so validated then unused)
	GrainGiven bool

	Scale      int // -s: failure scale (models only, so validated then unused)
	ScaleGiven bool

	Limit      int // -l: servers per type, no-config mode only (ignored with a configuration)
	LimitGiven bool

	// BaseDir is the folder relative <jobs file> and failureFile paths are
	// looked up in first ("" = the working directory, as ds-server does);
	// when not found there, the config file's own folder is tried (a
	// user-friendly fallback: ds-server would abort or reject).
	BaseDir string

	// FS, when set, is where every file the config names is read from
	// (relative to the config's own folder inside FS); BaseDir and the
	// working directory are then not used. dsbench uses it for the configs
	// embedded in the binary.
	FS fs.FS
}

// cfgOptionBound is one range check of §8 with its limit name.
type cfgOptionBound struct {
	given    bool
	v        int64
	min, max int64
	limit    string
}

// validate checks the option values against ds-server's ranges (§8). A bad
// value gets ds-server's option error: the bound message on stderr and the
// Usage line, exit status 1 (no "Configuration file … invalid!" line: the
// reference checks options before it reads the file).
func (o LoadOptions) validate() *ConfigError {
	checks := []struct {
		flag string
		b    cfgOptionBound
	}{
		{"-d", cfgOptionBound{o.EndTimeGiven, int64(o.EndTime), 1, 2592000, "Simulation end time"}},
		{"-j", cfgOptionBound{o.JobCountGiven, int64(o.JobCount), 1, 1000000, "Max Job count"}},
		{"-r", cfgOptionBound{o.SeedGiven, int64(o.Seed), 1, 4294967295, "Random seed limit"}},
		{"-g", cfgOptionBound{o.GrainGiven, int64(o.Grain), 60, 3600, "Server failure time granularity"}},
		// The limit name of -s is not given by ds-server.md; this wording is ours.
		{"-s", cfgOptionBound{o.ScaleGiven, int64(o.Scale), 1, 100, "Server failure scale factor"}},
		// Nor is -l's (ds-server.md §8: 1..1000); the wording is ours.
		{"-l", cfgOptionBound{o.LimitGiven, int64(o.Limit), 1, 1000, "Servers per type"}},
	}
	for _, c := range checks {
		if c.b.given && (c.b.v < c.b.min || c.b.v > c.b.max) {
			line := fmt.Sprintf("%d: Out of bound! (%d - %d); %s", c.b.v, c.b.min, c.b.max, c.b.limit)
			return &ConfigError{File: "command line", Context: "option " + c.flag, Msg: line,
				Stderr: []string{line}, Usage: true, Status: 1}
		}
	}
	if o.FailureGiven && o.Failure == "" {
		return &ConfigError{File: "command line", Context: "option -f", Msg: "empty failure model or trace path",
			Stderr: []string{"Invalid resource failure model!"}, Usage: true, Status: 1}
	}
	return nil
}
