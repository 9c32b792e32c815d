package strategies

import (
	"fmt"
	"strings"
)

// Sweep is one spec of dsbench's -a before expansion: a strategy name, its
// keys in the order written and each key's values (several are a sweep).
type Sweep struct {
	Name string
	Keys []string
	Vals map[string][]string
	flag string // "-a" or "-b", for the messages
}

// ParseSweeps splits the values of flag (dsbench's -a or one -b column,
// dsclient's -a) into specs. Each value is a comma-separated list; a token
// with a colon ("name:key=v") or a registered name starts a spec, a
// "key=value" token adds a key to the current spec, and any other token is
// one more value of the last key (harness.ParseVariants documents the
// grammar for users). Empty tokens, such as a trailing comma's, are
// ignored. Names and keys are not checked against the registry here.
// dsbench and dsclient share it, so that a spec copied from one command
// line reads the same in the other.
func ParseSweeps(flag string, values []string) ([]*Sweep, error) {
	var specs []*Sweep
	var cur *Sweep
	lastKey := ""
	for _, value := range values {
		toks, err := SplitTop(value, ',')
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		for _, tok := range toks {
			tok = strings.TrimSpace(tok)
			if tok == "" {
				continue
			}
			name, kv, hasColon := CutTop(tok, ':')
			if hasColon && strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("%s %q: no strategy name before ':' in %q", flag, value, tok)
			}
			_, isName := Lookup(tok)
			_, _, hasEq := CutTop(tok, '=')
			switch {
			case hasColon || isName || (cur == nil && !hasEq):
				cur = &Sweep{flag: flag, Name: name, Vals: map[string][]string{}}
				specs = append(specs, cur)
				lastKey = ""
				if !hasColon {
					continue
				}
				tok = kv
				fallthrough
			case hasEq:
				if lastKey, err = cur.addKey(flag, value, tok); err != nil {
					return nil, err
				}
			default:
				if lastKey == "" {
					return nil, fmt.Errorf("%s %q: %q is neither a strategy nor a parameter value", flag, value, tok)
				}
				if err := cur.addValue(lastKey, tok); err != nil {
					return nil, err
				}
			}
		}
	}
	return specs, nil
}

// addKey adds a "key=value" token to the spec and returns the key.
func (s *Sweep) addKey(flag, value, tok string) (string, error) {
	if s == nil {
		return "", fmt.Errorf("%s %q: parameter %q comes before any strategy name", flag, value, tok)
	}
	k, v, _ := CutTop(tok, '=')
	k = strings.TrimSpace(k)
	if k == "" {
		return "", fmt.Errorf("%s %q: empty parameter name in %q", flag, value, tok)
	}
	if _, dup := s.Vals[k]; dup {
		return "", fmt.Errorf("%s %q: parameter %s given twice for %s", flag, value, k, s.Name)
	}
	s.Keys = append(s.Keys, k)
	return k, s.addValue(k, v)
}

// addValue adds one value of a key's sweep; a list value is kept in its
// canonical form, so that equal lists make one column.
func (s *Sweep) addValue(k, v string) error {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") {
		l, err := ParseList(v)
		if err != nil {
			return fmt.Errorf("%s: %s: parameter %s: %w", s.flag, s.Name, k, err)
		}
		v = FormatList(l)
	}
	s.Vals[k] = append(s.Vals[k], v)
	return nil
}
