package corpus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Range is an inclusive range of whole numbers.
type Range struct{ Lo, Hi int }

func (r Range) String() string {
	if r.Lo == r.Hi {
		return strconv.Itoa(r.Lo)
	}
	return strconv.Itoa(r.Lo) + "-" + strconv.Itoa(r.Hi)
}

// Dims are the ranges and choices a class draws each of its configs from:
// one value of each list, and the numbers within each range (Types, Jobs
// and the load once per config; Limit and Boot once per server type).
type Dims struct {
	Types Range // server types, 2–12
	Limit Range // servers per type, 1–1000
	Boot  Range // boot seconds per type, 0–600
	Jobs  Range // job count, 1–1,000,000 (drawn log-uniformly)
	Load  Range // ds-sim's minLoad and maxLoad, 1–100, both drawn within

	Price    []string // price structures (see Prices)
	Runs     []string // runtime mixes (see RunMixes)
	Estimate []string // estimate models (see Estimates)
	Failure  []string // ds-server failure models, or none (see Failures)
}

// Prices are the price structures: how a type's rate per core relates to
// its size.
var Prices = []string{"uniform", "scale", "premium", "discount"}

// RunMixes are the runtime mixes: the population rates of the five job
// types of the shared configs (instant 1–30 s, short 31–300, medium
// 301–1200, long 1201–3600, xlong 3601–7200), or rates drawn at random.
var RunMixes = []string{"short", "medium", "long", "mixed"}

// Estimates are the estimate models: ds-sim's own (dssim, est uniform on
// [1, 2·act − 1] given act, from ds-server's generator), exact (est =
// act), over (est = act × U[1, 4], users asking for more than they use,
// as in real traces) and noisy (est = act × 4^U[−1, 1]).
var Estimates = []string{"dssim", "exact", "over", "noisy"}

// Failures are ds-server's failure models (the failureModel attribute of
// <servers>), and none.
var Failures = []string{"none", "teragrid", "nd07cpu", "websites02", "ldns04", "pl05", "g5k06"}

// key is one dimension a spec may set.
type key struct {
	name  string
	lo    int // numeric keys: the bounds a range must lie in
	hi    int
	num   func(*Dims) *Range
	words []string // word keys: the values allowed
	list  func(*Dims) *[]string
	help  string
}

var keys = []key{
	{name: "types", lo: 2, hi: 12, num: func(d *Dims) *Range { return &d.Types }, help: "server types per config"},
	{name: "limit", lo: 1, hi: 1000, num: func(d *Dims) *Range { return &d.Limit }, help: "servers per type (drawn per type)"},
	{name: "boot", lo: 0, hi: 600, num: func(d *Dims) *Range { return &d.Boot }, help: "boot time in seconds (drawn per type)"},
	{name: "jobs", lo: 1, hi: 1000000, num: func(d *Dims) *Range { return &d.Jobs }, help: "job count (drawn log-uniformly)"},
	{name: "load", lo: 1, hi: 100, num: func(d *Dims) *Range { return &d.Load }, help: "ds-sim's minLoad and maxLoad, percent"},
	{name: "price", words: Prices, list: func(d *Dims) *[]string { return &d.Price }, help: "price structure"},
	{name: "runs", words: RunMixes, list: func(d *Dims) *[]string { return &d.Runs }, help: "runtime mix"},
	{name: "estimate", words: Estimates, list: func(d *Dims) *[]string { return &d.Estimate }, help: "estimate model"},
	{name: "failure", words: Failures, list: func(d *Dims) *[]string { return &d.Failure }, help: "failure model"},
}

func keyNamed(name string) (key, bool) {
	for _, k := range keys {
		if k.name == name {
			return k, true
		}
	}
	return key{}, false
}

func keyNames() string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}

// parseValue reads v for k and returns it in its canonical form
// ("90-100", "7", "scale|premium"), or an error saying what k wants.
func (k key) parseValue(v string) (string, error) {
	if k.num != nil {
		r, err := k.parseRange(v)
		if err != nil {
			return "", err
		}
		return r.String(), nil
	}
	ws, err := k.parseWords(v)
	return strings.Join(ws, "|"), err
}

func (k key) parseRange(v string) (Range, error) {
	bad := func() (Range, error) {
		return Range{}, fmt.Errorf("%s=%s: want a whole number or a range LO-HI within %d … %d (%s)", k.name, v, k.lo, k.hi, k.help)
	}
	a, b, isRange := strings.Cut(v, "-")
	lo, err := strconv.Atoi(a)
	if err != nil {
		return bad()
	}
	hi := lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil {
			return bad()
		}
	}
	if lo < k.lo || hi > k.hi || lo > hi {
		return bad()
	}
	return Range{lo, hi}, nil
}

func (k key) parseWords(v string) ([]string, error) {
	var out []string
	for _, w := range strings.Split(v, "|") {
		if !slices.Contains(k.words, w) {
			return nil, fmt.Errorf("%s=%s: %q is not one of %s (%s; several are separated by |)", k.name, v, w, strings.Join(k.words, ", "), k.help)
		}
		if slices.Contains(out, w) {
			return nil, fmt.Errorf("%s=%s: %q given twice", k.name, v, w)
		}
		out = append(out, w)
	}
	return out, nil
}

// set applies a canonical value (see parseValue) to d.
func (k key) set(d *Dims, v string) {
	if k.num != nil {
		r, _ := k.parseRange(v)
		*k.num(d) = r
		return
	}
	*k.list(d) = strings.Split(v, "|")
}
