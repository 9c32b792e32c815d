package harness

import (
	"fmt"

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
	if err != nil {
		return Source{}, true, err
	}
	w, err := swf.Load(arg)
	if err != nil {
		return Source{}, true, fmt.Errorf("SWF trace: %w", err)
	}
	return Source{Name: swf.Name(path) + arg[len(path):], Path: w.ConfigName, FS: w.FS, servers: o.Servers}, true, nil
}
