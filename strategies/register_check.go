package strategies

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"
)

// check is Register's validation of one Info, before it is added.
func (info Info) check() error {
	if err := checkWord(info.Name); err != nil {
		return fmt.Errorf("strategy %q: name %v", info.Name, err)
	}
	if info.New == nil {
		return fmt.Errorf("strategy %s: New is nil", info.Name)
	}
	seen := map[string]bool{}
	for _, p := range info.Params {
		if err := checkWord(p.Name); err != nil {
			return fmt.Errorf("strategy %s: parameter %q: name %v", info.Name, p.Name, err)
		}
		if seen[p.Name] {
			return fmt.Errorf("strategy %s: parameter %s declared twice", info.Name, p.Name)
		}
		seen[p.Name] = true
		if p.Kind < Float || p.Kind > List {
			return fmt.Errorf("strategy %s: parameter %s: unknown Kind %d", info.Name, p.Name, int(p.Kind))
		}
		// A List default's elements may name strategies registered later:
		// only its syntax is checked here, the rest at Bind.
		if p.Choices != nil && p.Kind != String {
			return fmt.Errorf("strategy %s: parameter %s: Choices are for String parameters, not %s", info.Name, p.Name, p.Kind)
		}
		if _, err := convert(p, p.Default); err != nil {
			return fmt.Errorf("strategy %s: parameter %s: default %q is not a valid %s: %v", info.Name, p.Name, p.Default, p.Kind, err)
		}
	}
	return nil
}

// SpecPunctuation are the characters the spec grammar (see Spec) gives a
// meaning to, so that a name or key holding one could never be written in
// dsbench's "-a name:k=v,…", dsclient's -a or --param k=v, or a list
// element (nor a dsbench column label in -b). Blanks and other non-printing
// characters are refused apart.
const SpecPunctuation = ",;:=[]"

// checkWord says what is wrong with a strategy or parameter name, or nil.
func checkWord(w string) error {
	if w == "" {
		return errors.New("is empty")
	}
	for i, r := range w {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) || strings.ContainsRune(SpecPunctuation, r) {
			return fmt.Errorf("holds %q at byte %d: -a name:k=v,… and --param k=v cannot write it (a name may not hold blanks, control characters or any of %s)",
				r, i, strings.Join(strings.Split(SpecPunctuation, ""), " "))
		}
	}
	return nil
}

// callerSite is "file.go:line" of the caller skip frames up (2: the
// caller of the function that calls callerSite), with the file relative
// to the module root when it lies inside this module, so that messages
// read "strategies/wary/wary.go:22" whatever the checkout's folder.
func callerSite(skip int) string {
	_, file, line, ok := runtime.Caller(skip)
	if !ok {
		return "an unknown place"
	}
	if root := moduleRoot(); root != "" {
		file = strings.TrimPrefix(file, root+"/")
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// moduleRoot is the folder above this file's package (strategies/), as the
// compiler recorded it: an absolute path, or the module path under
// -trimpath. It is "" when the runtime cannot say.
func moduleRoot() string {
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return path.Dir(path.Dir(filepath.ToSlash(self)))
}
