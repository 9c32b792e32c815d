package swf

import (
	"fmt"
	"strings"
)

// The rule for a trace run on a servers config's <server> elements
// (dsmock --swf with -c or servers=, dsbench's servers=), one for both
// tools so that they refuse and warn alike. dsswf, which writes a config
// rather than running one, has its own (internal/dsswf).

// FailuresLeftBehind is the refusal for the servers config at path when
// it makes servers fail (failureModel, failureFile or both, each named):
// the trace's run has none, so it would measure another system than the
// config's, and running on would hide that. It names the way to keep them
// (dsswf writes the files, to whose config the attributes can be added);
// nil when the config has no failures, and when it cannot be read (the
// conversion says why).
func FailuresLeftBehind(path string) error {
	var attrs []string
	for _, s := range UnusedSettings(path) {
		if s.Failures() {
			attrs = append(attrs, s.XMLAttr())
		}
	}
	if len(attrs) == 0 {
		return nil
	}
	what := "the attribute"
	if len(attrs) > 1 {
		what = "the attributes"
	}
	return fmt.Errorf("%s: <servers %s>: the trace runs on the config's <server> elements alone, without its failures; write the files with dsswf --servers %s and add %s to the config it writes (dsswf says how)",
		path, strings.Join(attrs, " "), path, what)
}

// RunSetup is what a trace's run has in place of the servers config's
// own settings.
type RunSetup struct {
	Newline bool // newline mode (-n), which newline="true" would turn on
	MemFail bool // dsmock's memory extension, whose draws randomSeed would seed
}

// Ignored lists the settings of the servers config at path that would
// count in a run of the config and have none in the trace's run, each
// with what counts instead: its job file (the trace's jobs run),
// newline="true" without -n, randomSeed with --mem-fail (its draws are
// seeded with 1024, ds-server's default). Failures are FailuresLeftBehind's.
// runner names what runs the trace ("--swf", "dsbench").
func (r RunSetup) Ignored(path, runner string) []string {
	alone := runner + " runs the trace on its <server> elements alone"
	var out []string
	for _, s := range UnusedSettings(path) {
		switch {
		case s.Attr == "file":
			out = append(out, fmt.Sprintf("%s: %s has no effect: %s, with the trace's jobs", path, s, alone))
		case s.Attr == "newline" && !r.Newline:
			out = append(out, fmt.Sprintf("%s: %s has no effect: %s; give -n for newline mode", path, s, alone))
		case s.Attr == "randomSeed" && r.MemFail:
			out = append(out, fmt.Sprintf("%s: %s has no effect: %s; --mem-fail's draws are seeded with 1024", path, s, alone))
		}
	}
	return out
}
