package harness

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// checkOutputs checks every file and folder flag before any run (the last
// check, so a run refused for another reason leaves no folder behind).
func (c *cliConfig) checkOutputs() error {
	for _, o := range [][2]string{{"--out", c.out}, {"--html", c.html}, {"--waits", c.waits}} {
		if o[1] == "-" && o[0] != "--html" { // --out - and --waits - are stdout
			continue
		}
		if err := checkOutput(o[0], o[1]); err != nil {
			return err
		}
	}
	return checkFolder("--plots", c.plots)
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
// something to write. "" (the flag not given) passes.
func checkOutput(flag, path string) error {
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

// checkFolder makes a folder flag's folder (--plots) before any run and
// checks that it can be written in.
func checkFolder(flag, dir string) error {
	if dir == "" {
		return nil
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
