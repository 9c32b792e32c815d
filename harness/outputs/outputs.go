// Package outputs checks a command's output paths before any run: that a
// file or folder can be written (a sweep that ran for hours must not end
// in "no such file or directory"), and that none of them is one of the
// command's inputs (InputFile) under its own or another name, or through a
// link: a report must never be written over a config, a trace or a piece.
// dsbench and dsview check their flags with it.
package outputs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckFile makes sure a file flag's path can be written before any run:
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
func CheckFile(flag, path string, inputs func() []InputFile) error {
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

// CheckFolder makes a folder flag's folder (--plots, --keep-logs) before
// any run and checks that it can be written in, and that no input sits
// there under a name the flag writes (writes: a plot's or a log's name).
func CheckFolder(flag, dir string, inputs func() []InputFile, writes func(name string) bool) error {
	if dir == "" {
		return nil
	}
	if err := CheckInputsIn(flag, dir, inputs, writes); err != nil {
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

// SameAsInput finds the input that path already is, as CheckFile finds
// it (sameFileAs: by another name or through a link too), for a command
// that writes its output files otherwise. ok is false when path does not exist:
// a file not there yet is no input.
func SameAsInput(path string, inputs []InputFile) (in InputFile, ok bool) {
	st, err := os.Stat(path)
	if err != nil {
		return InputFile{}, false
	}
	return sameFileAs(st, inputs)
}

// CheckInputsIn refuses a folder flag when an input is in dir under a
// name the flag writes there.
func CheckInputsIn(flag, dir string, inputs func() []InputFile, writes func(name string) bool) error {
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

// ReplaceFile writes data to path (mode 0644) through a temporary file in
// its folder and a rename: a reader, or a concurrent writer, never sees
// half a file, and a link at path (hard or symbolic) is replaced, never
// written through onto the file it leads to. The temporary file's name
// starts with prefix (a command's own, so that a stray one says whose it
// is); on an error it is removed, and the error is the system's.
func ReplaceFile(path string, data []byte, prefix string) error {
	f, err := os.CreateTemp(filepath.Dir(path), prefix+"*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
