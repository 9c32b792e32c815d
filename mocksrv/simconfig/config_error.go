package simconfig

import (
	"fmt"
	"io"
	"strings"
)

// ConfigError is a configuration (or job file, or failure trace) that
// ds-server refuses, or on which it would crash, hang or misbehave.
//
// Stderr holds exactly the lines ds-server prints on stderr before it exits,
// in order (ds-server.md §2.1): informational lines printed earlier while
// loading (e.g. "Error: Server rental rate"), the rule's own message, and for
// most rules "Configuration file (<f>) invalid!". Usage tells whether the
// stdout line "Usage: <argv0> -h all" follows. Status is the exit status.
//
// Where ds-server has no defined behaviour (it aborts, hangs, divides by zero
// or silently misbehaves: ds-server.md Appendix D, job-generation.md §8),
// Divergence says what the reference does, and Stderr holds our own clear
// message followed, when the problem is in the input files, by ds-server's
// generic "Configuration file (<f>) invalid!" line.
type ConfigError struct {
	File    string // the file at fault, as given (config, job file or failure trace)
	Context string // where in it, e.g. "<server> 2: attribute cores" or "record 3"
	Msg     string // what is wrong (one line)

	Stderr     []string
	Usage      bool
	Status     int
	Divergence string // "" when ds-server behaves exactly like this
}

// Error is a one-line message naming the file, the place and the problem, e.g.
// "config.xml: <server> 2: attribute cores: 0: Out of bound! (1 - 1024); Core count limit".
func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Context != "" {
		b.WriteString(e.Context)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Report prints what ds-server prints for this error: the Stderr lines on
// stderr, then, when Usage is set, "Usage: <argv0> -h all" on stdout. The
// caller exits with Status.
func (e *ConfigError) Report(stdout, stderr io.Writer, argv0 string) error {
	for _, l := range e.Stderr {
		if _, err := fmt.Fprintln(stderr, l); err != nil {
			return err
		}
	}
	if e.Usage {
		if _, err := fmt.Fprintf(stdout, "Usage: %s -h all\n", argv0); err != nil {
			return err
		}
	}
	return nil
}

// cfgInvalidLine is ds-server's generic rejection line (ds-server.md §2.1).
func cfgInvalidLine(configPath string) string {
	return "Configuration file (" + configPath + ") invalid!"
}

// Where is the line a command adds after ds-server's own (Report): the
// file, the element and attribute (or line) and the problem, as Error
// gives them, since ds-server's lines name neither the element nor the
// attribute ("0: Out of bound! (1 - 1024); Core count limit"). ok is false
// when the error is not in a file (a command-line option, whose
// ds-server message names it already) or a Stderr line already says it.
func (e *ConfigError) Where() (line string, ok bool) {
	if e.File == "" || e.File == "command line" {
		return "", false
	}
	line = e.Error()
	for _, l := range e.Stderr {
		if strings.Contains(l, line) {
			return "", false
		}
	}
	return line, true
}
