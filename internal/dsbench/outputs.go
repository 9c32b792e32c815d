package dsbench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/outputs"
	"github.com/dssim-go/dssim-go/harness/plots"
)

// checkOutputs checks every file and folder flag before any run (the last
// check, so a run refused for another reason leaves no folder behind).
// No output may be one of the run's inputs (benchInputs).
func (c *cliConfig) checkOutputs(b *bench.Bench) error {
	// The inputs are listed at most once, and only when an output exists:
	// a path that does not exist yet cannot be an input, and finding a
	// config's job file means loading the config.
	in := sync.OnceValue(func() []outputs.InputFile { return benchInputs(b) })
	var written []outputs.InputFile // the files the flags before this one write (What: the flag)
	for _, o := range [][2]string{{"--out", c.out}, {"--html", c.html}, {"--waits", c.waits}, {"--costs", c.costs}} {
		if o[1] == "" || o[1] == "-" && o[0] != "--html" { // --out -, --waits - and --costs - are stdout
			continue
		}
		if err := outputs.CheckFile(o[0], o[1], in); err != nil {
			return err
		}
		if other, ok := writtenBefore(o[1], written); ok {
			return fmt.Errorf("%s %s: %s writes that file too; give each output a file of its own", o[0], o[1], other)
		}
		written = append(written, outputs.InputFile{Path: o[1], What: o[0]})
	}
	if err := outputs.CheckFolder("--plots", c.plots, in, plots.IsOwnFile); err != nil {
		return err
	}
	if err := outputs.CheckFolder("--keep-logs", c.keepLogs, in, bench.IsKeptLog); err != nil {
		return err
	}
	if b.Target.Client == "" {
		return nil
	}
	return checkClientDir(b.Target.ClientFolder(), in)
}

// writtenBefore finds the flag among written that writes path too: by
// the same path cleaned, or, for a file already there, by another name or
// through a link (outputs.SameAsInput).
func writtenBefore(path string, written []outputs.InputFile) (flag string, ok bool) {
	abs, err := filepath.Abs(path)
	for _, w := range written {
		if wabs, werr := filepath.Abs(w.Path); err == nil && werr == nil && wabs == abs {
			return w.What, true
		}
	}
	if in, ok := outputs.SameAsInput(path, written); ok {
		return in.What, true
	}
	return "", false
}

// openOut is where --out sends the report or piece: the file it names, or
// stdout when it is not given or is "-" (as for --waits). close is never nil.
func openOut(out string, stdout io.Writer) (w io.Writer, close func() error, err error) {
	if out == "" || out == "-" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(out)
	if err != nil {
		return nil, nil, fmt.Errorf("--out %s: %w", out, err)
	}
	return f, f.Close, nil
}

// benchInputs lists the files a bench reads: each config file and the job
// list and failure trace it names, each SWF trace and its servers= file,
// and the --server binary.
func benchInputs(b *bench.Bench) []outputs.InputFile {
	var out []outputs.InputFile
	seen := map[string]bool{}
	add := func(path, what string) {
		if path != "" && !seen[path] {
			seen[path] = true
			out = append(out, outputs.InputFile{Path: path, What: what})
		}
	}
	for _, s := range b.Sources {
		add(s.TraceFile(), "the SWF trace of config "+s.Name)
		add(s.ServersFile(), "the servers= file of config "+s.Name)
		if s.FS != nil || seen[s.Path] {
			continue
		}
		add(s.Path, "config "+s.Name)
		cfg, err := s.Load()
		if err != nil {
			continue // the run says why; the config file itself is listed
		}
		add(cfg.JobPath, "the job file of config "+s.Name) // where the loader read them
		add(cfg.FailurePath, "the failure trace of config "+s.Name)
	}
	if b.Target.Server != "" && b.Target.Server != bench.ServerDsmock {
		add(b.Target.Server, "the --server binary")
	}
	return out
}
