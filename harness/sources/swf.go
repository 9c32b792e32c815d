package sources

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// traceSource turns a command-line argument naming an SWF trace
// ("trace.swf", "trace.swf.gz", options after a colon:
// "trace.swf:procs-per-core=4,time-scale=0.5"; package mocksrv/swf) into a
// Source: the trace is converted now, so that a bad line or option is
// refused before any run, and the config and job file it makes are kept
// in memory (FS), where Load and the staging for a server binary read
// them. ok is false when arg is not a trace. The row is named after the
// trace's file, with the options when given.
func traceSource(arg string) (s Source, ok bool, err error) {
	if !swf.IsTrace(arg) {
		return Source{}, false, nil
	}
	path, o, err := swf.ParseSpec(arg)
	var list *swf.OneValueError
	if errors.As(err, &list) {
		// -a sweeps a strategy's parameter; a trace's options are not swept
		// (each value is a conversion of its own), but giving it twice is.
		return Source{}, true, fmt.Errorf("%w; give the trace once per value (%s)", err, strings.Join(list.PerValue, " "))
	}
	if err != nil {
		return Source{}, true, err
	}
	if o.JobFile != "" {
		// The job file lives in memory under a name nobody sees (a server
		// binary's staging folder at most): the option would change nothing.
		return Source{}, true, fmt.Errorf("swf spec %q: job-file= names the job file dsswf writes; dsbench writes none (it converts the trace in memory): leave it out", arg)
	}
	if o.Servers != "" {
		// The run would measure the servers without the failures the
		// config gives them: refused as dsmock --swf refuses them.
		if err := swf.FailuresLeftBehind(o.Servers); err != nil {
			return Source{}, true, fmt.Errorf("swf spec %q: %w", arg, err)
		}
	}
	w, err := swf.Load(arg)
	if err != nil {
		return Source{}, true, fmt.Errorf("SWF trace: %w", err)
	}
	name := swfRowName(path, arg[len(path):])
	return Source{Name: name, Path: w.ConfigName, FS: w.FS, servers: o.Servers, trace: path, swf: &conversion{name, w.Result}}, true, nil
}

// swfRowName names a trace's row as typed (the options in their order),
// less the empty items the options skip (",time-scale=0.5", "a=1,,b=2",
// a trailing comma), which would otherwise make a second name for the
// same conversion; opts is the spec after the trace's path (":a=1,b=2").
func swfRowName(path, opts string) string {
	var items []string
	for _, it := range strings.Split(strings.TrimPrefix(opts, ":"), ",") {
		if it = strings.TrimSpace(it); it != "" {
			items = append(items, it)
		}
	}
	if len(items) == 0 {
		return swf.Name(path)
	}
	return swf.Name(path) + ":" + strings.Join(items, ",")
}

// conversion is a trace source's conversion report: what dsbench prints
// once per trace and each of its runs records (Result.SWF).
type conversion struct {
	name string // the trace's row name
	*swf.Result
}

// SWFConversion is what a run's config kept of its trace, in the JSON
// report (Result.SWF): the jobs a trace's run has are not all its lines.
type SWFConversion struct {
	Kept    int `json:"kept"`    // jobs in the workload
	Skipped int `json:"skipped"` // job lines left out, for the reasons in SkippedBy
	// SkippedBy counts the skipped lines per reason (swf.Skip*).
	SkippedBy map[string]int `json:"skipped_by,omitempty"`
	// NoReqTime counts the jobs whose estimate is their run time (the
	// trace had no requested time for them).
	NoReqTime    int `json:"no_requested_time,omitempty"`
	CappedMemory int `json:"capped_memory,omitempty"`
	// DerivedCores is the derived cluster's cores, MachineCores the
	// machine's it is sized to (every type gets them all); 0 when the
	// servers were given.
	DerivedCores int64 `json:"derived_cores,omitempty"`
	MachineCores int64 `json:"machine_cores,omitempty"`
}

// Conversion is what the config, an SWF trace, kept of the trace's lines,
// as a run records it (Result.SWF); nil for a config file.
func (s Source) Conversion() *SWFConversion {
	if s.swf == nil {
		return nil
	}
	return s.swf.report()
}

// TraceFile is the SWF trace the config was converted from, "" for a
// config file.
func (s Source) TraceFile() string { return s.trace }

// ServersFile is the servers config an SWF trace's conversion took its
// servers from (servers=), "" for none.
func (s Source) ServersFile() string { return s.servers }

// report is the run record's part of the conversion.
func (c *conversion) report() *SWFConversion {
	r := &SWFConversion{Kept: len(c.Jobs), Skipped: c.SkippedTotal(), NoReqTime: c.NoReqTime, CappedMemory: c.CappedMemory,
		DerivedCores: c.DerivedCores(), MachineCores: c.Machine.Cores}
	for _, k := range c.Skipped {
		if r.SkippedBy == nil {
			r.SkippedBy = map[string]int{}
		}
		r.SkippedBy[k.Reason] = k.N
	}
	return r
}

// ConversionReports are the lines dsbench prints on stderr, as dsswf says
// them, once per converted trace (a trace under several workload
// transforms is converted once), each line after the trace's row name.
func ConversionReports(srcs []Source) []string {
	var out []string
	seen := map[*conversion]bool{}
	for _, s := range srcs {
		if s.swf == nil || seen[s.swf] {
			continue
		}
		seen[s.swf] = true
		out = append(out, s.swf.name+": "+s.swf.Summary())
		for _, n := range s.swf.Notes() {
			out = append(out, s.swf.name+": "+n)
		}
	}
	return out
}
