package strategies

import (
	"fmt"
	"slices"
	"strings"
)

// Spec names a strategy and its settings, as users write it. The grammar,
// shared by dsbench's -a, dsclient's --param values of kind List and the
// elements of every List parameter:
//
//	spec    = name [ ":" setting { "," setting } ]
//	setting = key "=" value
//	value   = list | text
//	list    = "[" [ spec { ";" spec } ] "]"
//
// A name or key is any non-empty text without blanks or any of , ; : = [ ].
// A text value is any text without ; [ ] and, outside dsclient's --param,
// without a comma (a comma ends the setting). Blanks around names, keys,
// values and elements are ignored.
//
// Brackets make list values unambiguous: inside "[" … "]" commas and colons
// belong to the elements, which are separated by ";", so
//
//	composite:members=[ff; cost-reduce:multiplier=2; bf],k=1
//
// is composite with two settings, members (three specs: ff, cost-reduce
// with multiplier 2, and bf) and k. Lists nest: an element may itself have
// a list value. In dsbench, a bracketed value is one value of a sweep
// (members=[ff; bf],[wf] is two variants); commas inside brackets never
// sweep. In dsclient, --param members=[ff; bf] gives the whole list.
//
// Parsing checks the syntax only. The registry checks the elements of a
// List parameter when the strategy is made (Info.Bind): every element must
// name a registered strategy and its settings must bind, recursively.
// Errors name the column of the problem in the text parsed.
type Spec struct {
	Name     string
	Settings map[string]string // nil when none; a list value in its canonical form
}

// String is the canonical text of the spec: its settings sorted by key,
// list values as "[a; b]". ParseSpec(s.String()) gives s back.
func (s Spec) String() string {
	if len(s.Settings) == 0 {
		return s.Name
	}
	keys := make([]string, 0, len(s.Settings))
	for k := range s.Settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + s.Settings[k]
	}
	return s.Name + ":" + strings.Join(parts, ",")
}

// FormatList is the canonical text of a list value: "[a; b]".
func FormatList(specs []Spec) string {
	parts := make([]string, len(specs))
	for i, s := range specs {
		parts[i] = s.String()
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// SpecError is a spec that does not parse or bind: Msg at column Col
// (1-based, in bytes) of Text.
type SpecError struct {
	Text string
	Col  int
	Msg  string
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("%q, column %d: %s", e.Text, e.Col, e.Msg)
}

// maxSpecDepth bounds the nesting of list values, in the text and in the
// defaults of List parameters (a default may name its own strategy).
const maxSpecDepth = 16

// ParseSpec parses one spec (see Spec for the grammar).
func ParseSpec(text string) (Spec, error) {
	p := specParser{text}
	return p.spec(0, len(text), 0)
}

// ParseList parses a list value "[spec; spec; …]" (see Spec).
func ParseList(text string) ([]Spec, error) {
	specs, _, err := parseListAt(text)
	return specs, err
}

// parseListAt is ParseList that also gives each element's byte offset in
// text, for the errors of Info.Bind.
func parseListAt(text string) ([]Spec, []int, error) {
	p := specParser{text}
	lo, hi := p.trim(0, len(text))
	return p.list(lo, hi, 0)
}

// SplitTop splits s at every sep outside brackets. Unbalanced brackets are
// a *SpecError naming the column.
func SplitTop(s string, sep byte) ([]string, error) {
	p := specParser{s}
	spans, err := p.split(0, len(s), sep)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(spans))
	for i, sp := range spans {
		out[i] = s[sp[0]:sp[1]]
	}
	return out, nil
}

// CutTop cuts s around the first sep outside brackets.
func CutTop(s string, sep byte) (before, after string, found bool) {
	if i := indexTop(s, 0, len(s), sep); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

// indexTop is the offset of the first sep in s[lo:hi] outside brackets, or
// -1.
func indexTop(s string, lo, hi int, sep byte) int {
	depth := 0
	for i := lo; i < hi; i++ {
		switch c := s[i]; {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == sep && depth == 0:
			return i
		}
	}
	return -1
}

// specParser parses spans [lo, hi) of one text, so that every error can
// name its column in the whole text.
type specParser struct{ text string }

func (p specParser) errAt(i int, format string, a ...any) error {
	return &SpecError{Text: p.text, Col: i + 1, Msg: fmt.Sprintf(format, a...)}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// trim narrows [lo, hi) to exclude blanks at either end.
func (p specParser) trim(lo, hi int) (int, int) {
	for lo < hi && isBlank(p.text[lo]) {
		lo++
	}
	for hi > lo && isBlank(p.text[hi-1]) {
		hi--
	}
	return lo, hi
}

// split cuts [lo, hi) at every sep outside brackets, checking that the
// brackets balance.
func (p specParser) split(lo, hi int, sep byte) ([][2]int, error) {
	var out [][2]int
	var open []int // offsets of the unclosed "["
	start := lo
	for i := lo; i < hi; i++ {
		switch c := p.text[i]; {
		case c == '[':
			open = append(open, i)
		case c == ']':
			if len(open) == 0 {
				return nil, p.errAt(i, `"]" without "["`)
			}
			open = open[:len(open)-1]
		case c == sep && len(open) == 0:
			out = append(out, [2]int{start, i})
			start = i + 1
		}
	}
	if len(open) > 0 {
		return nil, p.errAt(open[len(open)-1], `"[" is not closed`)
	}
	return append(out, [2]int{start, hi}), nil
}

// word checks a name or key.
func (p specParser) word(lo, hi int, what string) (string, error) {
	lo, hi = p.trim(lo, hi)
	if lo == hi {
		return "", p.errAt(lo, "empty %s", what)
	}
	if i := strings.IndexAny(p.text[lo:hi], " \t\r\n,;:=[]"); i >= 0 {
		return "", p.errAt(lo+i, "%q in %s %q", p.text[lo+i], what, p.text[lo:hi])
	}
	return p.text[lo:hi], nil
}

// spec parses name[:settings] in [lo, hi).
func (p specParser) spec(lo, hi, depth int) (Spec, error) {
	// Unbalanced brackets first: they would make every cut below wrong.
	if _, err := p.split(lo, hi, ','); err != nil {
		return Spec{}, err
	}
	colon := indexTop(p.text, lo, hi, ':')
	nameEnd := hi
	if colon >= 0 {
		nameEnd = colon
	}
	name, err := p.word(lo, nameEnd, "strategy name")
	if err != nil || colon < 0 {
		return Spec{Name: name}, err
	}
	settings, err := p.settings(colon+1, hi, depth)
	return Spec{Name: name, Settings: settings}, err
}

// settings parses "k=v,k2=v2" in [lo, hi).
func (p specParser) settings(lo, hi, depth int) (map[string]string, error) {
	spans, err := p.split(lo, hi, ',')
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(spans))
	for _, sp := range spans {
		eq := indexTop(p.text, sp[0], sp[1], '=')
		if eq < 0 {
			l, _ := p.trim(sp[0], sp[1])
			return nil, p.errAt(l, "want key=value")
		}
		key, err := p.word(sp[0], eq, "parameter name")
		if err != nil {
			return nil, err
		}
		if _, dup := out[key]; dup {
			return nil, p.errAt(sp[0], "parameter %s given twice", key)
		}
		if out[key], err = p.value(eq+1, sp[1], depth); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// value parses a text or list value in [lo, hi); a list is returned in its
// canonical form.
func (p specParser) value(lo, hi, depth int) (string, error) {
	lo, hi = p.trim(lo, hi)
	if lo < hi && p.text[lo] == '[' {
		specs, _, err := p.list(lo, hi, depth+1)
		if err != nil {
			return "", err
		}
		return FormatList(specs), nil
	}
	if i := strings.IndexAny(p.text[lo:hi], ";[]"); i >= 0 {
		return "", p.errAt(lo+i, "%q in a value that is not a [list]", p.text[lo+i])
	}
	return p.text[lo:hi], nil
}

// list parses "[spec; …]" filling [lo, hi) exactly, and returns the
// elements with their offsets.
func (p specParser) list(lo, hi, depth int) ([]Spec, []int, error) {
	if lo == hi || p.text[lo] != '[' {
		return nil, nil, p.errAt(lo, `a list starts with "["`)
	}
	if depth > maxSpecDepth {
		return nil, nil, p.errAt(lo, "lists nested deeper than %d", maxSpecDepth)
	}
	end, d := lo+1, 1 // end: just past the "]" that closes the "[" at lo
	for ; end < hi && d > 0; end++ {
		switch p.text[end] {
		case '[':
			d++
		case ']':
			d--
		}
	}
	if d > 0 {
		return nil, nil, p.errAt(lo, `"[" is not closed`)
	}
	if end < hi {
		return nil, nil, p.errAt(end, "text after the list's closing \"]\"")
	}
	if in, _ := p.trim(lo+1, end-1); in == end-1 {
		return []Spec{}, []int{}, nil // "[]": no element
	}
	spans, err := p.split(lo+1, end-1, ';')
	if err != nil {
		return nil, nil, err
	}
	specs := make([]Spec, len(spans))
	offs := make([]int, len(spans))
	for i, sp := range spans {
		l, h := p.trim(sp[0], sp[1])
		if l == h {
			return nil, nil, p.errAt(l, "empty list element")
		}
		if specs[i], err = p.spec(l, h, depth); err != nil {
			return nil, nil, err
		}
		offs[i] = l
	}
	return specs, offs, nil
}
