// Package dsswf is the dsswf command: it converts an SWF trace with
// package mocksrv/swf and writes the config and job file into a folder, so
// that the folder runs like a fixture (dsmock -c DIR/config.xml, ds-server
// the same, dsbench DIR), and reports what it skipped.
package dsswf

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// Exit statuses.
const (
	ExitOK    = 0
	ExitInput = 1 // the trace, the servers config or an output file failed
	ExitUsage = 2 // a bad command line
)

// swfFlags are the conversion options, by their names in swf.Options.Set.
var swfFlags = []struct{ name, usage string }{
	{"procs-per-core", "SWF processors per ds-sim core; cores = ⌈processors ÷ N⌉ (default 1)"},
	{"time-scale", "factor on the gaps between submit times: 0.5 doubles the arrival rate (default 1)"},
	{"offset", "submit time of the earliest job, in seconds (default 0)"},
	{"disk", "every job's disk in MB; SWF has none (default 100, the least GETS accepts)"},
	{"mem-per-core", "memory in MB per core of jobs whose trace line has no memory (default 100)"},
	{"max-jobs", "keep only the first N jobs by submit time (default all)"},
	{"servers", "take the <server> elements of this ds-sim config instead of deriving servers from the trace"},
	{"job-file", "the job file's name, written beside config.xml (default jobs.xml)"},
}

// Main runs dsswf with args (without the program name).
func Main(args []string, stdout, stderr io.Writer) int {
	var o swf.Options
	var out string
	var help bool
	fs := pflag.NewFlagSet("dsswf", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.StringVarP(&out, "output", "o", "", "the folder to write config.xml and the job file into (default: the trace's name, e.g. LANL-CM5 for LANL-CM5.swf.gz)")
	for _, f := range swfFlags {
		fs.Func(f.name, f.usage, func(v string) error { return o.Set(f.name, v) })
	}
	fs.BoolVarP(&help, "help", "h", false, "show this help")
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "dsswf: "+format+"\n", a...)
		return code
	}
	if err := fs.Parse(args); err != nil {
		return fail(ExitUsage, "%v (see dsswf -h)", err)
	}
	if help {
		usage(stdout, fs)
		return ExitOK
	}
	if fs.NArg() != 1 {
		return fail(ExitUsage, "want one trace file, got %d arguments (see dsswf -h)", fs.NArg())
	}
	if err := o.Validate(); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	trace := fs.Arg(0)
	if out == "" {
		out = swf.Name(trace)
	}
	w, err := swf.LoadFile(trace, o)
	if err != nil {
		return fail(ExitInput, "%v", err)
	}
	if err := write(out, w); err != nil {
		return fail(ExitInput, "%v", err)
	}
	report(stdout, out, w)
	return ExitOK
}

// write puts the two files into dir.
func write(dir string, w *swf.Workload) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.xml"), w.ConfigXML(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, w.Options.JobFile), w.JobsXML(), 0o644)
}

// report says what was written and what was left out, and why.
func report(stdout io.Writer, dir string, w *swf.Workload) {
	fmt.Fprintf(stdout, "%s: %d jobs, %d server types (%s)\n", w.Trace, len(w.Jobs), len(w.Servers), w.Options)
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(dir, "config.xml"), filepath.Join(dir, w.Options.JobFile))
	if len(w.Skipped) == 0 {
		fmt.Fprintln(stdout, "skipped: none")
	}
	for _, c := range w.Skipped {
		fmt.Fprintf(stdout, "skipped %d: %s\n", c.N, c.Reason)
	}
	if w.CappedMemory > 0 {
		fmt.Fprintf(stdout, "actMemory capped at the request for %d jobs that used more than they asked for\n", w.CappedMemory)
	}
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprint(w, `Usage: dsswf [-o DIR] [OPTIONS] TRACE.swf[.gz]

dsswf converts a Standard Workload Format trace (Parallel Workloads Archive)
into a ds-sim workload: DIR/config.xml (the servers, derived from the trace
or taken from --servers, and <jobs file="jobs.xml"/>) and DIR/jobs.xml (one
<job> per kept trace line, ids 0, 1, 2, … by submit time, with the hidden
attributes actMemory, swfJob, user and app that ds-server ignores). Run it
with dsmock -c DIR/config.xml, ds-server the same way, or dsbench DIR.
Cancelled jobs, partial-execution lines and lines missing a submit time, a
run time or a processor count are skipped, and counted in the report.
The mapping is documented in package mocksrv/swf and in README.

Options:
`)
	fmt.Fprint(w, strings.ReplaceAll(fs.FlagUsages(), " value ", " VALUE "))
	fmt.Fprintf(w, "\nExit status: %d converted, %d bad trace or servers config or unwritable output, %d bad command line.\n",
		ExitOK, ExitInput, ExitUsage)
}
