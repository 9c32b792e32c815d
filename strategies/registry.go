package strategies

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// Kind is the type of a strategy parameter.
type Kind int

// Parameter kinds.
const (
	Float Kind = iota
	Int
	Bool
	String
	// List is a list of strategy specs, written "[spec; spec; …]" (see
	// Spec for the grammar), e.g. the members of a composite strategy.
	// Params.List returns the parsed elements; Info.Bind checks each one
	// against the registry.
	List
)

func (k Kind) String() string {
	return [...]string{"float", "int", "bool", "string", "list"}[k]
}

// Param declares one parameter of a strategy.
type Param struct {
	Name    string
	Kind    Kind
	Default string // parsed like a user value (a List default's elements are checked at Bind)
	Help    string
	// Choices, for a String parameter, are the values it accepts: any
	// other is refused at Bind, naming them (and the nearest, for a typo).
	// nil accepts any string.
	Choices []string
}

// Info describes a registered strategy.
type Info struct {
	Name    string
	Summary string  // one line, for -h and tables
	Params  []Param // accepted parameters, with defaults
	// Reference marks the reference client's baselines (atl … wfq): their
	// message sequences must equal the reference client's.
	Reference bool
	// Order places the strategy in All and Names: lower first, ties by
	// name. The reference baselines take 1 … 10 in the reference client's
	// usage order; 0, the value of a strategy that sets nothing, sorts after
	// every strategy with an Order, so a new strategy needs no number.
	Order int
	New   func(p Params) (Strategy, error)
}

var (
	regMu    sync.RWMutex
	registry = map[string]Info{}
	// sites holds where each name was registered ("file.go:line"), so that a
	// duplicate names both places: the second registration's stack alone
	// may be the legitimate package's, depending on init order.
	sites = map[string]string{}
)

// Register adds a strategy. It panics on a registration that would fail
// only later, when a user selects the strategy: a duplicate or unusable
// name, a nil New, a parameter declared twice, a parameter name that -a or
// --param cannot set, an unknown Kind or a Default that does not parse.
// These are programming errors, caught by any test that imports the
// package; each message names the strategy, the parameter, the problem and
// the file and line of the Register call.
func Register(info Info) {
	site := callerSite(2)
	if err := info.check(); err != nil {
		panic(fmt.Sprintf("strategies: Register at %s: %v", site, err))
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[info.Name]; dup {
		panic(fmt.Sprintf("strategies: duplicate registration of %s: first at %s, again at %s", info.Name, sites[info.Name], site))
	}
	registry[info.Name] = info
	sites[info.Name] = site
}

// Lookup returns a registered strategy's description.
func Lookup(name string) (Info, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	i, ok := registry[name]
	return i, ok
}

// All returns every registered strategy by Order (unset last), then name:
// the reference baselines first, in the reference client's order, then the
// others by name.
func All() []Info {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Info, 0, len(registry))
	for _, i := range registry {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool {
		if oa, ob := out[a].sortKey(), out[b].sortKey(); oa != ob {
			return oa < ob
		}
		return out[a].Name < out[b].Name
	})
	return out
}

// sortKey is Order with the zero value moved after every set Order.
func (info Info) sortKey() int {
	if info.Order == 0 {
		return math.MaxInt
	}
	return info.Order
}

// ReferenceNames lists the registered reference baselines (Info.Reference)
// in All's order: with the baselines package registered, the reference
// client's atl lrr ff bf wf fc fafc ffq bfq wfq. It is computed from the
// registry on every call, so no caller can change it for another.
func ReferenceNames() []string {
	var n []string
	for _, i := range All() {
		if i.Reference {
			n = append(n, i.Name)
		}
	}
	return n
}

// New makes a fresh strategy from a name and "key=value" settings.
func New(name string, settings map[string]string) (Strategy, error) {
	info, ok := Lookup(name)
	if !ok {
		return nil, UnknownStrategy(name)
	}
	p, err := info.Bind(settings)
	if err != nil {
		return nil, err
	}
	return newRecovered(info, p)
}

// newRecovered is info.New with a panic (reading a parameter the strategy
// did not declare, say) turned into an error naming the strategy and the
// line, so that dsclient and dsbench refuse it like a bad parameter.
func newRecovered(info Info, p Params) (s Strategy, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("strategy %s: %w", info.Name, PanicError(r))
		}
	}()
	return info.New(p)
}

// Names lists the registered strategy names in All's order.
func Names() []string {
	var n []string
	for _, i := range All() {
		n = append(n, i.Name)
	}
	return n
}

// Bind checks settings against the declared parameters and returns the
// typed values, defaults filled in. Unknown keys and unparsable values are
// errors naming the strategy, the key and the expected kind. Every element
// of a List value (the default included) must name a registered strategy
// and bind its own settings, recursively.
func (info Info) Bind(settings map[string]string) (Params, error) {
	return info.bind(settings, 0)
}

// bind is Bind inside depth List values.
func (info Info) bind(settings map[string]string, depth int) (Params, error) {
	p := Params{strategy: info.Name, values: map[string]any{}}
	for _, d := range info.Params {
		v, _ := convert(d, d.Default)
		p.values[d.Name] = v
	}
	for k, s := range settings {
		d, ok := info.param(k)
		if !ok {
			return Params{}, fmt.Errorf("strategy %s has no parameter %q%s%s", info.Name, k, info.paramList(), didyoumean.Hint(k, info.paramNames()))
		}
		v, err := convert(d, s)
		if err != nil {
			return Params{}, fmt.Errorf("strategy %s: parameter %s=%q: %v", info.Name, k, s, err)
		}
		p.values[k] = v
	}
	for _, d := range info.Params {
		if d.Kind != List {
			continue
		}
		text, ok := settings[d.Name]
		if !ok {
			text = d.Default
		}
		if err := bindList(text, depth+1); err != nil {
			if depth > 0 && errors.Is(err, errListDepth) {
				return Params{}, err // named once, by the outermost strategy
			}
			return Params{}, fmt.Errorf("strategy %s: parameter %s: %w", info.Name, d.Name, err)
		}
	}
	return p, nil
}

// errListDepth stops a List default that names its own strategy, directly
// or through others, which would otherwise be bound without end.
var errListDepth = fmt.Errorf("lists nested deeper than %d (does a List default name its own strategy?)", maxSpecDepth)

// bindList checks every element of a List value against the registry. The
// error names the element's column in the value.
func bindList(text string, depth int) error {
	if depth > maxSpecDepth {
		return errListDepth
	}
	specs, offs, err := parseListAt(text)
	if err != nil {
		return err
	}
	for i, s := range specs {
		info, ok := Lookup(s.Name)
		if !ok {
			return &SpecError{Text: text, Col: offs[i] + 1,
				Msg: fmt.Sprintf("element %d: %v", i+1, UnknownStrategy(s.Name))}
		}
		_, err := info.bind(s.Settings, depth)
		switch {
		case errors.Is(err, errListDepth):
			return err
		case err != nil:
			return &SpecError{Text: text, Col: offs[i] + 1, Msg: fmt.Sprintf("element %d: %v", i+1, err)}
		}
	}
	return nil
}

func (info Info) param(name string) (Param, bool) {
	for _, d := range info.Params {
		if d.Name == name {
			return d, true
		}
	}
	return Param{}, false
}

func (info Info) paramList() string {
	if len(info.Params) == 0 {
		return " (it takes none)"
	}
	return " (it takes: " + strings.Join(info.paramNames(), ", ") + ")"
}

func (info Info) paramNames() []string {
	var names []string
	for _, d := range info.Params {
		names = append(names, d.Name)
	}
	return names
}

func convert(d Param, s string) (any, error) {
	switch d.Kind {
	case Float:
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, fmt.Errorf("want a number")
		}
		return v, nil
	case Int:
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("want an integer")
		}
		return v, nil
	case Bool:
		v, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("want true or false")
		}
		return v, nil
	case List:
		v, err := ParseList(s)
		if err != nil {
			return nil, fmt.Errorf("want [spec; spec; …]: %v", err)
		}
		return v, nil
	}
	if d.Choices != nil && !slices.Contains(d.Choices, s) {
		return nil, fmt.Errorf("want %s%s", orList(d.Choices), didyoumean.Hint(s, d.Choices))
	}
	return s, nil
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Params are a strategy's bound parameter values.
type Params struct {
	strategy string
	values   map[string]any
}

func (p Params) get(name string) any {
	v, ok := p.values[name]
	if !ok {
		panic(fmt.Sprintf("strategies: %s reads undeclared parameter %q", p.strategy, name))
	}
	return v
}

// Float returns a Float parameter.
func (p Params) Float(name string) float64 { return p.get(name).(float64) }

// Int returns an Int parameter.
func (p Params) Int(name string) int { return p.get(name).(int) }

// Bool returns a Bool parameter.
func (p Params) Bool(name string) bool { return p.get(name).(bool) }

// String returns a String parameter.
func (p Params) String(name string) string { return p.get(name).(string) }

// List returns a List parameter: its elements, in order, each checked
// against the registry by Bind; strategies.New(e.Name, e.Settings) makes
// one.
func (p Params) List(name string) []Spec { return slices.Clone(p.get(name).([]Spec)) }

// ParseSettings turns dsclient's --param "k=v" strings into a map, each
// read by CutSetting as -a's settings are. The value is everything after
// the first "=" outside brackets: a List parameter's "[…]" is parsed when
// the settings are bound. A key given twice is refused, as in -a: one of
// the values would go unused.
func ParseSettings(kvs []string) (map[string]string, error) {
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := CutSetting(kv)
		if !ok || k == "" {
			return nil, fmt.Errorf("parameter %q: want key=value", kv)
		}
		if prev, dup := m[k]; dup {
			return nil, fmt.Errorf("parameter %s given twice (%s=%s, then %s=%s): give it once", k, k, prev, k, v)
		}
		m[k] = v
	}
	return m, nil
}

// CutSetting splits a "key=value" setting at its first "=" outside
// brackets and trims the blanks around the key and the value: dsbench's
// and dsclient's -a (ParseSweeps) and dsclient's --param read a setting
// through it, so " preset = cost " is preset=cost in each.
func CutSetting(s string) (key, value string, ok bool) {
	k, v, ok := CutTop(s, '=')
	return strings.TrimSpace(k), strings.TrimSpace(v), ok
}

// WriteList writes every registered strategy for a command's --list: the
// name (and "[reference baseline]"), its summary, then one line per
// parameter "key=default (kind) help". dsclient and dsbench both print it,
// each after one line saying how that command sets a parameter.
func WriteList(w io.Writer) error {
	var b strings.Builder
	for _, info := range All() {
		b.WriteString(info.Name)
		if info.Reference {
			b.WriteString(" [reference baseline]")
		}
		fmt.Fprintf(&b, "\n    %s\n", info.Summary)
		for _, p := range info.Params {
			fmt.Fprintf(&b, "    %s=%s (%s) %s\n", p.Name, p.Default, p.Kind, p.Help)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
