package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// checkClient finds the --client command's program before any run, as
// the run would start it (a path with a slash relative to ClientDir, else
// through PATH), and the script it runs: a missing one is one clear
// message, not an error in every row.
func (t Target) checkClient() error {
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
			prog = filepath.Join(t.clientDir(), prog)
		}
		if _, err := os.Stat(prog); err != nil {
			return fmt.Errorf("--client %q: %s does not exist (relative paths are taken from --client-dir %s)", t.Client, prog, t.clientDir())
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
	dir, err := filepath.Abs(t.clientDir())
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

// interpreter is what checkClient knows of a program that runs a script:
// its options that take the next argument as their value, and those after
// which no script file is named (inline code, a module, stdin).
type interpreter struct {
	withValue, noScript []string
}

var interpreters = map[string]interpreter{
	"python": {withValue: []string{"-W", "-X", "--check-hash-based-pycs"}, noScript: []string{"-c", "-m", "-"}},
	"node":   {withValue: []string{"-r", "--require", "--import", "--loader", "--conditions", "-C"}, noScript: []string{"-e", "--eval", "-p", "--print", "-"}},
	"sh":     {withValue: []string{"-o", "+o", "-O", "+O"}, noScript: []string{"-c", "-s", "-"}},
	"ruby":   {withValue: []string{"-I", "-r", "-C", "-E"}, noScript: []string{"-e", "-"}},
	"perl":   {withValue: []string{"-I", "-M", "-m"}, noScript: []string{"-e", "-E", "-"}},
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
// and any other .py, .jar or .class argument. The client's other
// arguments (--out ./results/x, a log it writes, the ds-system.xml dsbench
// writes) are not looked at, nor any with the port placeholder in it.
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
		if strings.HasPrefix(a, "-") || strings.ContainsAny(a, ":=") {
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
// "" when it runs none (python3 -m pkg, bash -c).
func (in interpreter) script(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if ok, _ := optionOf(a, in.noScript); ok {
			return "", args[i+1:]
		}
		if ok, attached := optionOf(a, in.withValue); ok {
			if !attached {
				i++
			}
			continue
		}
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			return a, args[i+1:]
		}
	}
	return "", nil
}

// optionOf reports whether arg is one of opts, and whether its value is
// attached (--opt=v, -mpkg) rather than the next argument.
func optionOf(arg string, opts []string) (is, attached bool) {
	for _, o := range opts {
		switch {
		case arg == o:
			return true, false
		case strings.HasPrefix(arg, o+"="):
			return true, true
		case len(o) == 2 && o[1] != '-' && strings.HasPrefix(arg, o):
			return true, true
		}
	}
	return false, false
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
