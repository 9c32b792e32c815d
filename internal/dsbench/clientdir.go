package dsbench

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dssim-go/dssim-go/harness/outputs"
)

// checkClientDir refuses a --client-dir whose ds-system.xml, which dsbench
// writes before each run, is one of the inputs: by its name, or under
// another name through a hard or a symbolic link (the files are compared,
// os.SameFile, not their names).
func checkClientDir(dir string, inputs func() []outputs.InputFile) error {
	target := filepath.Join(dir, "ds-system.xml")
	in, ok := outputs.SameAsInput(target, inputs())
	if !ok {
		return nil
	}
	how := ""
	if st, err := os.Lstat(target); err == nil && st.Mode()&os.ModeSymlink != 0 {
		how = " through a symbolic link"
	} else if !sameName(target, in.Path) {
		how = " under another name (a hard link)"
	}
	return fmt.Errorf("--client-dir %s: would write %s, the same file as %s (%s)%s: writing it would overwrite an input; choose another folder", dir, target, in.Path, in.What, how)
}

// sameName reports whether two paths name the same directory entry.
func sameName(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
