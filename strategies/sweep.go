package strategies

import (
	"fmt"
	"github.com/dssim-go/dssim-go/protocol/didyoumean"
	"slices"
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
// one more value of the last key (harness/columns.ParseVariants documents
// the grammar for users), except a registered name the last key, written in
// the same value, would also take as a value, which is refused as
// ambiguous (see accepts); in a value of its own a name starts a spec
// (-a sgme:base=ff -a ff is sgme beside ff). Empty tokens, such as a
// trailing comma's, are ignored. Names and keys are not checked against
// the registry here.
// dsbench and dsclient share it, so that a spec copied from one command
// line reads the same in the other.
func ParseSweeps(flag string, values []string) ([]*Sweep, error) {
	var specs []*Sweep
	var cur *Sweep
	lastKey := ""
	for _, value := range values {
		keyHere := false // lastKey was written in this value
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
			if isName && !hasColon && !hasEq && keyHere && cur.accepts(lastKey, tok) {
				return nil, cur.ambiguous(flag, value, lastKey, tok)
			}
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
				keyHere = true
			default:
				if lastKey == "" {
					return nil, fmt.Errorf("%s %q: %q is neither a strategy nor a parameter value%s", flag, value, tok, didyoumean.Hint(tok, Names()))
				}
				// A bare word after a key is one of its values, unless it
				// is a misspelt strategy the key refuses: "ff,cost-reduce:
				// multiplier=2,frontir" would say "want a number".
				if near := didyoumean.Nearest(tok, Names()); near != "" && cur.refuses(lastKey, tok) {
					return nil, fmt.Errorf("%s %q: %q is neither a value of %s nor a strategy; did you mean %s?", flag, value, tok, lastKey, near)
				}
				if err := cur.addValue(lastKey, tok); err != nil {
					return nil, err
				}
			}
		}
	}
	return specs, nil
}

// refuses tells whether val is no value of key, whatever its kind: the
// strategy refuses to be built with it (builds).
func (s *Sweep) refuses(key, val string) bool {
	if _, ok := Lookup(s.Name); !ok {
		return false // the unknown strategy is the error to report
	}
	return !s.builds(key, val)
}

// accepts tells whether val, a bare token that is also a registered
// strategy's name, would be a valid value of the spec's open key: then
// reading it either way is a guess (thr:queue=gq,fcfs could be two queue
// policies or thr beside the strategy fcfs), and a silent guess makes a
// column the user did not ask for. Only String parameters can take a bare
// name; whether this one takes val is for the strategy to say (builds).
func (s *Sweep) accepts(key, val string) bool {
	if s == nil || key == "" {
		return false
	}
	info, ok := Lookup(s.Name)
	if !ok {
		return false
	}
	if p, ok := info.param(key); !ok || p.Kind != String {
		return false
	}
	return s.builds(key, val)
}

// builds tells whether the strategy is made with val for key and the
// first value of every other key written.
func (s *Sweep) builds(key, val string) bool {
	settings := map[string]string{key: val}
	for _, k := range s.Keys {
		if k != key && len(s.Vals[k]) > 0 {
			settings[k] = s.Vals[k][0]
		}
	}
	_, err := New(s.Name, settings)
	return err == nil
}

// ambiguous is accepts' refusal, with both ways of writing what was meant.
func (s *Sweep) ambiguous(flag, value, key, tok string) error {
	var each []string
	for _, v := range append(slices.Clone(s.Vals[key]), tok) {
		each = append(each, fmt.Sprintf("%s %s:%s=%s", flag, s.Name, key, v))
	}
	return fmt.Errorf("%s %q: %q is both a strategy and a value %s's %s takes: for a sweep of %s give each value its own spec (%s); for the strategy %s, put it before %s or in a %s of its own",
		flag, value, tok, s.Name, key, key, strings.Join(each, " "), tok, s.Name, flag)
}

// addKey adds a "key=value" token to the spec and returns the key.
func (s *Sweep) addKey(flag, value, tok string) (string, error) {
	if s == nil {
		return "", fmt.Errorf("%s %q: parameter %q comes before any strategy name", flag, value, tok)
	}
	k, v, _ := CutSetting(tok)
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
