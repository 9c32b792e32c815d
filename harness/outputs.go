package harness

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/plots"
)

// checkOutputs checks every file and folder flag before any run (the last
// check, so a run refused for another reason leaves no folder behind).
// No output may be one of the run's inputs (benchInputs).
func (c *cliConfig) checkOutputs(b *bench.Bench) error {
	// The inputs are listed at most once, and only when an output exists:
	// a path that does not exist yet cannot be an input, and finding a
	// config's job file means loading the config.
	in := sync.OnceValue(func() []InputFile { return benchInputs(b) })
	for _, o := range [][2]string{{"--out", c.out}, {"--html", c.html}, {"--waits", c.waits}} {
		if o[1] == "-" && o[0] != "--html" { // --out - and --waits - are stdout
			continue
		}
		if err := checkOutput(o[0], o[1], in); err != nil {
			return err
		}
	}
	if err := checkFolder("--plots", c.plots, in, plots.IsOwnFile); err != nil {
		return err
	}
	if err := checkFolder("--keep-logs", c.keepLogs, in, bench.IsKeptLog); err != nil {
		return err
	}
	if b.Target.Client == "" {
		return nil
	}
	return checkClientDir(b.Target.ClientFolder(), in)
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

// checkOutput makes sure a file flag's path can be written before any run:
// a sweep that ran for hours must not end in "no such file or directory"
// with its results lost. It creates the missing folders (a shard's
// "pieces/3.json" on a fresh machine); an existing file is opened for
// writing without truncating it, and otherwise a scratch file is created
// and removed beside the path, so a folder or file without write
// permission is found too. The file itself is written only once there is
// something to write. A path that is one of the inputs (the same file,
// whatever the name) is refused: the report would be written over a
// config, a trace or a piece without a word. "" (the flag not given)
// passes.
func checkOutput(flag, path string, inputs func() []InputFile) error {
	if path == "" {
		return nil
	}
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return fmt.Errorf("%s %s: names a folder, not a file", flag, path)
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s %s: is a folder, not a file", flag, path)
		}
		if in, ok := sameFileAs(st, inputs()); ok {
			return fmt.Errorf("%s %s: the same file as %s (%s): writing it would overwrite an input; choose another path", flag, path, in.Path, in.What)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("%s %s: %w", flag, path, err)
		}
		return f.Close()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if err := writable(dir); err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return nil
}

// checkFolder makes a folder flag's folder (--plots, --keep-logs) before
// any run and checks that it can be written in, and that no input sits
// there under a name the flag writes (writes: a plot's or a log's name).
func checkFolder(flag, dir string, inputs func() []InputFile, writes func(name string) bool) error {
	if dir == "" {
		return nil
	}
	if err := checkInputsIn(flag, dir, inputs, writes); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	if err := writable(dir); err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	return nil
}

// writable creates and removes a scratch file in dir.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".dsbench-check-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// sameFileAs finds the input that is the file st describes (os.SameFile:
// the same file by another name or a link is found too).
func sameFileAs(st os.FileInfo, inputs []InputFile) (InputFile, bool) {
	for _, in := range inputs {
		if ist, err := os.Stat(in.Path); err == nil && os.SameFile(st, ist) {
			return in, true
		}
	}
	return InputFile{}, false
}

// InputFile is a file a command reads (a config, a file it names, a
// trace, a piece) and what it is ("config x"), for the error.
type InputFile struct{ Path, What string }

// SameAsInput finds the input that path already is, as dsbench's output
// flags are checked (sameFileAs: by another name or through a link too),
// for another command's outputs. ok is false when path does not exist:
// a file not there yet is no input.
func SameAsInput(path string, inputs []InputFile) (in InputFile, ok bool) {
	st, err := os.Stat(path)
	if err != nil {
		return InputFile{}, false
	}
	return sameFileAs(st, inputs)
}

// checkInputsIn refuses a folder flag when an input is in dir under a
// name the flag writes there.
func checkInputsIn(flag, dir string, inputs func() []InputFile, writes func(name string) bool) error {
	if dir == "" {
		return nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil // nothing in it yet; other checks say what is wrong with it
	}
	for _, in := range inputs() {
		name := filepath.Base(in.Path)
		if !writes(name) {
			continue
		}
		target := filepath.Join(dir, name)
		st, err := os.Stat(target)
		if err != nil {
			continue
		}
		if _, ok := sameFileAs(st, []InputFile{in}); ok {
			return fmt.Errorf("%s %s: would write %s, the same file as %s (%s): writing it would overwrite an input; choose another folder", flag, dir, target, in.Path, in.What)
		}
	}
	return nil
}

// benchInputs lists the files a bench reads: each config file and the job
// list and failure trace it names, each SWF trace and its servers= file,
// and the --server binary.
func benchInputs(b *bench.Bench) []InputFile {
	var out []InputFile
	seen := map[string]bool{}
	add := func(path, what string) {
		if path != "" && !seen[path] {
			seen[path] = true
			out = append(out, InputFile{path, what})
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
