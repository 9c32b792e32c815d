package harness

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkOutput makes sure a file flag's path can be written before any run:
// a sweep that ran for hours must not end in "no such file or directory"
// with its results lost. It creates the missing folders (a shard's
// "pieces/3.json" on a fresh machine) and creates and removes a scratch
// file beside the path, so a folder without write permission is found
// too; the file itself is written only once there is something to write.
// "-" (stdout, where the flag allows it) and "" pass.
func checkOutput(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s %s: is a folder, not a file", flag, path)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	f, err := os.CreateTemp(dir, ".dsbench-check-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in %s: %w", flag, path, dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// checkFolder makes a folder flag's folder (--plots) before any run.
func checkFolder(flag, dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return checkOutput(flag, filepath.Join(dir, "x"))
}
