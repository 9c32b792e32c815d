// Package dsswf is the dsswf command: it converts an SWF trace with
// package mocksrv/swf and writes the config and job file into a folder, so
// that the folder runs like a fixture (dsmock -c DIR/config.xml, ds-server
// the same, dsbench DIR), and reports what it skipped.
package dsswf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/dssim-go/dssim-go/internal/flaghint"
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
	{"procs-per-core", "SWF processors per ds-sim core: cores = ⌈processors ÷ `N`⌉ (default 1)"},
	{"time-scale", "multiply the gaps between submit times by `FACTOR`: 0.5 doubles the arrival rate (default 1)"},
	{"offset", "submit time of the earliest job, in `SECONDS` (default 0)"},
	{"disk", "every job's disk in `MB`; SWF has none (default 100, the least GETS accepts)"},
	{"mem-per-core", "memory in `MB` per core of jobs whose trace line has no memory (default 100)"},
	{"max-jobs", "keep only the first `N` jobs by submit time (default all)"},
	{"servers", "take the <server> elements of the ds-sim `CONFIG` file instead of deriving servers from the trace (only those: CONFIG's failures and newline=\"true\" are not copied, and a warning says where to add them)"},
	{"job-file", "the job file's `NAME`, written beside config.xml (default jobs.xml)"},
}

// Main runs dsswf with args (without the program name).
func Main(args []string, stdout, stderr io.Writer) int {
	var o swf.Options
	var out string
	var help, force bool
	fs := pflag.NewFlagSet("dsswf", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.StringVarP(&out, "output", "o", "", "the folder `DIR` to write config.xml and the job file into (default: the trace's name, e.g. LANL-CM5 for LANL-CM5.swf.gz, or NAME.dssim for a trace not named .swf); a config.xml or job file there is replaced only when it holds what dsswf would write (however the trace was typed: config.xml's header comment naming it aside), or with --force")
	for _, f := range swfFlags {
		fs.Func(f.name, f.usage, func(v string) error { return o.Set(f.name, v) })
	}
	fs.BoolVar(&force, "force", false, "replace config.xml and the job file in DIR even when they hold something else (a file edited since dsswf wrote it, another conversion, a config of yours); without it dsswf replaces only files that already hold what it would write")
	fs.BoolVarP(&help, "help", "h", false, "show this help")
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "dsswf: "+format+"\n", a...)
		return code
	}
	if err := fs.Parse(args); err != nil {
		return fail(ExitUsage, "%v (see dsswf -h)", flaghint.Error(fs, err))
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
		out = defaultFolder(trace)
	}
	if o.Servers != "" {
		for _, w := range swf.ServerWarnings(o.Servers) {
			fmt.Fprintln(stderr, "dsswf: warning:", w)
		}
	}
	w, err := swf.LoadFile(trace, o)
	if err != nil {
		return fail(ExitInput, "%v", err)
	}
	if err := write(out, w, force); err != nil {
		return fail(ExitInput, "%v", err)
	}
	if o.Servers != "" {
		for _, l := range leftBehind(o.Servers, filepath.Join(out, "config.xml")) {
			fmt.Fprintln(stderr, "dsswf: warning:", l)
		}
	}
	report(stdout, out, w)
	return ExitOK
}

// defaultFolder is -o's default: the trace's name without .swf and .gz
// (swf.Name), or NAME.dssim for a trace named otherwise, whose name
// would be the trace file itself.
func defaultFolder(trace string) string {
	if name := swf.Name(trace); name != filepath.Base(trace) && name != "" {
		return name
	}
	return filepath.Base(trace) + ".dssim"
}

// write puts the two files into dir. Everything is checked before
// anything is written: an existing file is replaced only when it already
// holds what would be written or force is set (replaceable). Both files
// are written under temporary names and then renamed, the job file first,
// so a failed write leaves the folder as it was, not a config beside
// another conversion's jobs.
func write(dir string, w *swf.Workload, force bool) error {
	config, jobs := filepath.Join(dir, "config.xml"), filepath.Join(dir, w.Options.JobFile)
	files := []outFile{{jobs, w.JobsXML()}, {config, w.ConfigXML()}}
	if err := replaceable(files[1], files[0], w.Options.JobFile, force); err != nil {
		return err
	}
	for _, d := range []string{dir, filepath.Dir(jobs)} { // --job-file may name a subfolder
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t) // renamed ones are gone already
		}
	}()
	for _, f := range files {
		tmp, err := os.CreateTemp(filepath.Dir(f.path), ".dsswf-*")
		if err != nil {
			return err
		}
		temps = append(temps, tmp.Name())
		_, err = tmp.Write(f.data)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), 0o644)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
	}
	if err := os.Rename(temps[0], jobs); err != nil {
		return err
	}
	return os.Rename(temps[1], config)
}

// outFile is a file dsswf writes and what it writes into it.
type outFile struct {
	path string
	data []byte
}

// replaceable refuses to write over a file that holds anything but what
// would be written, unless force is set: a config.xml dsswf wrote may
// have been edited since (a server's hourlyRate changed by hand), and a
// re-run must not undo that without a word; one dsswf did not write is
// most likely the user's own. A folder in a file's place is refused even
// with force.
func replaceable(config, jobs outFile, jobFile string, force bool) error {
	names := false // the config there is dsswf's and names this job file
	old, err := existing(config.path, "-o")
	if err != nil {
		return err
	}
	if old != nil {
		converted := false
		converted, names = swf.WrittenByConfigXML(old, jobFile)
		if err := keep(config, old, swf.SameConfigXML(old, config.data), converted, force, "-o"); err != nil {
			return err
		}
	}
	if old, err = existing(jobs.path, "--job-file"); err != nil || old == nil {
		return err
	}
	return keep(jobs, old, bytes.Equal(old, jobs.data), names, force, "-o or --job-file")
}

// existing is the file's content, nil when there is no file; a folder in
// its place is an error that says which flag to change.
func existing(path, flag string) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case st.IsDir():
		return nil, fmt.Errorf("%s is a folder: give another %s", path, flag)
	}
	return os.ReadFile(path)
}

// keep refuses to replace old with f unless same (old holds what f
// would write: for config.xml, but for the trace's name in its header
// comment, which follows how the trace was typed) or force is set; dsswfs
// says whether dsswf wrote old.
func keep(f outFile, old []byte, same, dsswfs, force bool, flags string) error {
	switch {
	case force || same:
		return nil
	case dsswfs:
		return fmt.Errorf("%s exists and differs from what this conversion writes (edited since dsswf wrote it, or another conversion's): give --force to replace it, another %s, or remove it", f.path, flags)
	}
	return fmt.Errorf("%s exists and was not written by dsswf: give another %s, remove it, or give --force to replace it", f.path, flags)
}

// report says what was written and what was left out, and why.
func report(stdout io.Writer, dir string, w *swf.Workload) {
	fmt.Fprintf(stdout, "%s: %s\n", w.Trace, w.Summary())
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(dir, "config.xml"), filepath.Join(dir, w.Options.JobFile))
	for _, n := range w.Notes() {
		fmt.Fprintln(stdout, n)
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
The mapping is documented in package mocksrv/swf and in docs/dsswf.md.

Options:
`)
	fmt.Fprint(w, fs.FlagUsages())
	fmt.Fprintf(w, "\nExit status: %d converted, %d bad trace or servers config or unwritable output, %d bad command line.\n",
		ExitOK, ExitInput, ExitUsage)
}
