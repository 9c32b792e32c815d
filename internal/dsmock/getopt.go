package dsmock

import (
	"fmt"
	"strings"
)

// opt is one parsed option: a letter (or a long name) and its value.
type opt struct {
	name  string
	value string
}

// getopt parses args like POSIX/GNU getopt with ds-server's option string
// (ds-server.md §8): letters may be combined ("-no"), a letter that takes
// a value takes the rest of its word or the next word ("-vall", "-v all"),
// non-option words are skipped (GNU permutation), "--" ends the options.
// Long options (dsmock's own) are "--name" or "--name=value"; withValue
// lists those that take a value. Errors carry ds-server's texts.
func getopt(args []string, spec string, long map[string]bool) ([]opt, error) {
	var out []opt
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, has := strings.Cut(a[2:], "=")
			takes, known := long[name]
			if !known {
				return nil, fmt.Errorf("Unknown option `--%s'.", name)
			}
			if takes && !has {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("Option --%s requires an argument.", name)
				}
				i++
				val = args[i]
			} else if !takes && has {
				return nil, fmt.Errorf("Option --%s takes no argument.", name)
			}
			out = append(out, opt{name, val})
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue // not an option: skipped
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			p := strings.IndexByte(spec, c)
			if c == ':' || p < 0 {
				return nil, fmt.Errorf("Unknown option `-%c'.", c)
			}
			if p+1 < len(spec) && spec[p+1] == ':' {
				val := a[k+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, fmt.Errorf("Option -%c requires an argument.", c)
					}
					i++
					val = args[i]
				}
				out = append(out, opt{string(c), val})
				break
			}
			out = append(out, opt{string(c), ""})
		}
	}
	return out, nil
}
