package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dssim-go/dssim-go/harness/outputs"
)

// CheckClient finds the --client command's program before any run, as
// the run would start it (a path with a slash relative to ClientDir, else
// through PATH), and the script it runs: a missing one is one clear
// message, not an error in every row.
func (t Target) CheckClient() error {
	if t.Client == "" {
		return nil
	}
	if _, err := SplitCommand(t.Client, 0); err != nil {
		return err
	}
	// The placeholder is kept: an argument with the port in it is one the
	// client writes (a log per run), never one of its files.
	args := strings.Fields(t.Client)
	prog := args[0]
	if strings.Contains(prog, "/") {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(t.ClientFolder(), prog)
		}
		if _, err := os.Stat(prog); err != nil {
			return fmt.Errorf("--client %q: %s does not exist (relative paths are taken from --client-dir %s)", t.Client, prog, t.ClientFolder())
		}
	} else if _, err := exec.LookPath(prog); err != nil {
		return fmt.Errorf("--client %q: no program %q in PATH", t.Client, prog)
	}
	return t.checkClientFiles(clientFiles(args))
}

// checkClientFiles checks the client's own files (client.py, Client.jar,
// run.sh): the client runs in ClientDir, so a command copied from another
// folder would fail in every run, each with the interpreter's "No such
// file" in its row.
func (t Target) checkClientFiles(files []string) error {
	dir, err := filepath.Abs(t.ClientFolder())
	if err != nil {
		return err
	}
	for _, f := range files {
		if filepath.IsAbs(f) {
			if _, err := os.Stat(f); err != nil {
				return fmt.Errorf("--client %q: %s does not exist", t.Client, f)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("--client %q: no %s in %s, the folder the client runs in (run dsbench there, or give it with --client-dir)", t.Client, f, dir)
		}
	}
	return nil
}

// interpreter is what CheckClient knows of a program that runs a script:
// its options that take the next argument as their value, and those after
// which no script file is named (inline code, a module, stdin).
type interpreter struct {
	withValue, noScript []string
}

var interpreters = map[string]interpreter{
	"python": {withValue: []string{"-W", "-X", "--check-hash-based-pycs"}, noScript: []string{"-c", "-m", "-"}},
	"node": {withValue: []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "--conditions", "-C",
		"--env-file", "--inspect-port", "--input-type", "--title"}, noScript: []string{"-e", "--eval", "-p", "--print", "-"}},
	"sh":   {withValue: []string{"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}, noScript: []string{"-c", "-s", "-"}},
	"ruby": {withValue: []string{"-I", "-r", "-C", "-E"}, noScript: []string{"-e", "-"}},
	"perl": {withValue: []string{"-I", "-M", "-m"}, noScript: []string{"-e", "-E", "-"}},
}

// interpreterOf names a program's kind by its base name ("" for none):
// python3.11 and ./venv/bin/python are python.
func interpreterOf(prog string) string {
	base := filepath.Base(prog)
	switch {
	case strings.HasPrefix(base, "python"):
		return "python"
	case base == "node" || base == "nodejs":
		return "node"
	case base == "sh" || base == "bash" || base == "dash" || base == "zsh":
		return "sh"
	case base == "ruby" || base == "perl" || base == "java":
		return base
	}
	return ""
}

// clientFiles are the arguments of a client command (split, its
// placeholder kept) that name files of the client's, which must exist
// before any run: the script an interpreter runs, the jar of java -jar,
// and a .py, .jar or .class argument before the first option (a wrapper's
// script: env python3 client.py). The client's other arguments (--out
// ./results/x.jar, a log it writes, the ds-system.xml dsbench writes) are
// not looked at, nor any with the port placeholder in it.
func clientFiles(args []string) []string {
	var files []string
	rest := args[1:]
	var script string
	switch kind := interpreterOf(args[0]); kind {
	case "java":
		script, rest = jarOf(rest)
	case "":
	default:
		script, rest = interpreters[kind].script(rest)
	}
	if script != "" {
		files = append(files, script)
	}
	for _, a := range rest {
		if strings.HasPrefix(a, "-") {
			break // the client's own options, and what follows them, are its business
		}
		if strings.ContainsAny(a, ":=") {
			continue
		}
		switch strings.ToLower(filepath.Ext(a)) {
		case ".py", ".jar", ".class":
			files = append(files, a)
		}
	}
	var kept []string
	for _, f := range files {
		if !strings.Contains(f, PortPlaceholder) {
			kept = append(kept, f)
		}
	}
	return kept
}

// script is the file an interpreter runs (its first argument that is
// neither an option nor an option's value) and the arguments after it;
// "" when it runs none (python3 -m pkg, bash -c) or when that argument
// does not look like a file (no extension, no slash: it may be the value
// of an option not known here, as node --inspect-port 9230).
func (in interpreter) script(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch in.option(a) {
		case optNoScript:
			return "", args[i+1:]
		case optValueNext:
			i++
			continue
		case optFlag:
			continue
		}
		if filepath.Ext(a) == "" && !strings.Contains(a, "/") {
			return "", args[i+1:]
		}
		return a, args[i+1:]
	}
	return "", nil
}

// optKind is what an interpreter's argument is to the search for its
// script.
type optKind int

const (
	optNone      optKind = iota // not an option: the script, if any
	optFlag                     // an option, with its value if any attached
	optValueNext                // an option whose value is the next argument
	optNoScript                 // no script follows (-c, -m, -e, stdin)
)

// option reads one argument: a long option (--require x, --require=x) as
// a whole, a cluster of short ones (-euo pipefail, -uc code, -Wignore)
// letter by letter, as the interpreters do.
func (in interpreter) option(a string) optKind {
	switch {
	case a == "-":
		return optNoScript
	case strings.HasPrefix(a, "--"):
		name, _, attached := strings.Cut(a, "=")
		switch {
		case slices.Contains(in.noScript, name):
			return optNoScript
		case slices.Contains(in.withValue, name) && !attached:
			return optValueNext
		}
		return optFlag
	case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
		return in.shortOptions(a)
	}
	return optNone
}

// shortOptions reads a cluster of short options: the first that takes a
// value takes the rest of the cluster, or the next argument when it is
// last.
func (in interpreter) shortOptions(a string) optKind {
	for j := 1; j < len(a); j++ {
		o := a[:1] + a[j:j+1]
		switch {
		case slices.Contains(in.noScript, o):
			return optNoScript
		case slices.Contains(in.withValue, o) && j == len(a)-1:
			return optValueNext
		case slices.Contains(in.withValue, o):
			return optFlag
		}
	}
	return optFlag
}

// jarOf is the jar of java -jar and the arguments after it; "" for a
// java command that names a class (its class path is not looked at).
func jarOf(args []string) (string, []string) {
	for i, a := range args {
		if a == "-jar" && i+1 < len(args) {
			return args[i+1], args[i+2:]
		}
	}
	return "", args
}

// replaceFile is outputs.ReplaceFile, a folder in the way said in words.
func replaceFile(path string, data []byte) error {
	err := outputs.ReplaceFile(path, data, ".dsbench-"+filepath.Base(path)+"-")
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			return fmt.Errorf("%s: cannot write the file: a folder of that name is in the way", path)
		}
	}
	return err
}
