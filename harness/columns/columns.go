// Package columns reads the strategy columns of a bench: dsbench's -a and
// -b specs ("ff,bf,cost-reduce:multiplier=1,2,4"), a sweep expanded into
// one Variant per combination of values, every name and value checked
// against the strategy registry before any run, and two writings of one
// column merged (Duplicate).
package columns

import (
	"fmt"

	"github.com/dssim-go/dssim-go/strategies"
)

// Variant is one strategy with fixed parameter values: a column of the
// tables.
type Variant struct {
	Strategy string
	Settings map[string]string // as the user wrote them (defaults not filled in)
}

// Label is the column name: the strategy name, then "k=v" settings sorted
// by key, e.g. "cost-reduce:multiplier=2" (the spec's canonical text).
func (v Variant) Label() string {
	return strategies.Spec{Name: v.Strategy, Settings: v.Settings}.String()
}

// New makes a fresh strategy for one run.
func (v Variant) New() (strategies.Strategy, error) {
	return strategies.New(v.Strategy, v.Settings)
}

// ParseVariants reads -a values. Each value is a comma-separated list of
// specs; a spec is "name" or "name:key=v1,v2,…[,key2=w1,…]". Values listed
// for a key are a sweep: the spec expands to the cartesian product of its
// keys' values, in the order written. So
//
//	-a ff,bf,cost-reduce:multiplier=1,2,4,8
//
// gives ff, bf and four cost-reduce variants. A bare token after a key's
// values continues the sweep unless it is a registered strategy name, which
// starts a new spec, or a name the key also takes as a value, which is
// refused as ambiguous (thr:queue=gq,fcfs); a "key=value" token adds a key
// to the current spec.
// A bracketed value (a List parameter, see strategies.Spec) is one value:
// commas, colons and "=" inside brackets neither sweep nor start a spec,
// so members=[ff; cost-reduce:multiplier=2],[bf; wf] is two values.
// Every name and key is checked against the registry, and every element of
// a list value too. Variants that are one column (see Duplicate) are
// merged; ParseColumns also says which.
func ParseVariants(values []string) ([]Variant, error) {
	vs, _, err := ParseColumns(values)
	return vs, err
}

// ParseColumns is ParseVariants with the duplicates it merged, for
// dsbench to name on stderr.
func ParseColumns(values []string) ([]Variant, []Duplicate, error) {
	specs, err := strategies.ParseSweeps("-a", values)
	if err != nil {
		return nil, nil, err
	}
	return FromSweeps("-a", specs)
}

// Duplicate is a column written twice: Dropped names the same strategy
// with the same parameters as Kept, the first writing, once the registry
// has parsed them and filled in the defaults (strategies.Identity:
// frontier:weight=10 and frontier:weight=10.0 are one column; cost-reduce
// and cost-reduce:multiplier=4, its default, are one). What a strategy
// makes of its values is not looked into: frontier:weight=10 and
// frontier:preset=balanced stay two columns even where they schedule alike.
//
// Such a column is run and shown once, under the first writing, and the
// merge is said on stderr, rather than refused: the two would run the
// same strategy built from the same values, so their results could only
// be equal, and a sweep that meets a default or another sweep (-a
// cost-reduce -a cost-reduce:multiplier=1,2,4,8) should not have to be
// rewritten around it. -b names a merged column by either writing.
type Duplicate struct {
	Flag          string // "-a", or "-b" (its columns, run with --client alone)
	Kept, Dropped string // labels: the column's, and the other writing's
}

func (d Duplicate) String() string {
	if d.Kept == d.Dropped {
		return fmt.Sprintf("%s %s is given twice: one column", d.Flag, d.Kept)
	}
	return fmt.Sprintf("%s %s is %s (the same strategy with the same parameter values, defaults filled in): one column",
		d.Flag, d.Dropped, d.Kept)
}

// Identity is the variant's strategies.Identity: variants with the same
// one are one column.
func (v Variant) Identity() (string, error) {
	return strategies.Identity(v.Strategy, v.Settings)
}

// FromSweeps makes the variants of parsed specs, each checked by
// strategies.New, merging those that are one column (see Duplicate).
func FromSweeps(flag string, specs []*strategies.Sweep) ([]Variant, []Duplicate, error) {
	var out []Variant
	var dups []Duplicate
	kept := map[string]string{} // identity → label of its column
	for _, s := range specs {
		// product gives at least one settings map, so New names an
		// unknown strategy too.
		for _, settings := range product(s.Keys, s.Vals) {
			// strategies.New, as dsclient does: beside the kinds Bind
			// checks, a strategy refuses values out of its range (a
			// negative multiplier) when made, so before any run.
			if _, err := strategies.New(s.Name, settings); err != nil {
				return nil, nil, err
			}
			v := Variant{Strategy: s.Name, Settings: settings}
			id, err := v.Identity()
			if err != nil {
				return nil, nil, err
			}
			if label, dup := kept[id]; dup {
				dups = append(dups, Duplicate{Flag: flag, Kept: label, Dropped: v.Label()})
				continue
			}
			kept[id] = v.Label()
			out = append(out, v)
		}
	}
	return out, dups, nil
}

// product expands keys' value lists into every combination, first key
// varying slowest.
func product(keys []string, vals map[string][]string) []map[string]string {
	out := []map[string]string{{}}
	for _, k := range keys {
		var next []map[string]string
		for _, base := range out {
			for _, v := range vals[k] {
				m := make(map[string]string, len(base)+1)
				for bk, bv := range base {
					m[bk] = bv
				}
				m[k] = v
				next = append(next, m)
			}
		}
		out = next
	}
	for i, m := range out {
		if len(m) == 0 {
			out[i] = nil
		}
	}
	return out
}

// AllVariants returns every registered strategy with its defaults.
func AllVariants() []Variant {
	var out []Variant
	for _, n := range strategies.Names() {
		out = append(out, Variant{Strategy: n})
	}
	return out
}
