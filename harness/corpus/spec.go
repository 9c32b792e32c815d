package corpus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Setting is one key=value of a spec, its value in canonical form.
type Setting struct{ Key, Value string }

// Part is one class of a spec: how many configs, and the settings that
// change its dimensions. Class "all" stands for every class not named
// in a part of its own.
type Part struct {
	Class    string
	Count    int
	Settings []Setting
}

// Spec is a parsed spec: the seed, the settings for every class, and the
// classes asked for.
type Spec struct {
	Seed     uint64
	Settings []Setting
	Parts    []Part
}

// MaxCount is the most configs of one class a spec may ask for.
const MaxCount = 1000

// Parse reads a spec: comma-separated items, each
//
//	seed=N               the seed (default 1), 0 … 2^64−1
//	KEY=VALUE            a setting for every class
//	CLASS[*N]{:KEY=VALUE} N configs of CLASS (default 1), with settings
//	                     of its own; CLASS "all" is every class not
//	                     named on its own
//
// VALUE is a whole number or a range LO-HI for types, limit, boot, jobs
// and load, and one word or several separated by | for price, runs,
// estimate and failure. Settings apply in order: the class's defaults,
// the spec's settings, then the part's ("all"'s, then the class's own).
// Blanks around items are ignored. Anything else is refused, naming the
// item and what it wants.
func Parse(spec string) (Spec, error) {
	s := Spec{Seed: 1}
	seenSeed := false
	for i, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		where := func(err error) error {
			return fmt.Errorf("corpus spec item %d %q: %w", i+1, item, err)
		}
		name, _, _ := strings.Cut(item, ":")
		name, _, _ = strings.Cut(name, "*")
		switch k, v, isKV := strings.Cut(item, "="); {
		case item == "":
			return Spec{}, fmt.Errorf("corpus spec item %d is empty (items are separated by single commas)", i+1)
		case isKV && k == "seed":
			if seenSeed {
				return Spec{}, where(fmt.Errorf("the seed is given twice"))
			}
			seed, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return Spec{}, where(fmt.Errorf("seed %q: want a whole number 0 … 18446744073709551615", v))
			}
			s.Seed, seenSeed = seed, true
		case isKV && !strings.ContainsAny(k, ":*"):
			set, err := parseSetting(item)
			if err != nil {
				return Spec{}, where(err)
			}
			s.Settings = append(s.Settings, set)
		default:
			p, err := parsePart(item)
			if err != nil {
				return Spec{}, where(err)
			}
			if slices.ContainsFunc(s.Parts, func(q Part) bool { return q.Class == p.Class }) {
				return Spec{}, where(fmt.Errorf("class %s is given twice", name))
			}
			s.Parts = append(s.Parts, p)
		}
	}
	return s, s.check()
}

// check refuses a spec that asks for no config.
func (s Spec) check() error {
	if len(s.Parts) == 0 {
		return fmt.Errorf("corpus spec names no class: want at least one of all, %s (e.g. seed=1,all*10)", strings.Join(classNames(), ", "))
	}
	return nil
}

// size is how many configs the spec makes.
func (s Spec) size() int {
	n := 0
	for _, c := range s.plan() {
		n += c.Count
	}
	return n
}

func parseSetting(item string) (Setting, error) {
	k, v, _ := strings.Cut(item, "=")
	ky, ok := keyNamed(k)
	if !ok {
		return Setting{}, fmt.Errorf("unknown key %q: want seed, %s, or a class (%s, all)", k, keyNames(), strings.Join(classNames(), ", "))
	}
	canon, err := ky.parseValue(v)
	return Setting{k, canon}, err
}

func parsePart(item string) (Part, error) {
	fields := strings.Split(item, ":")
	name, count, hasCount := strings.Cut(fields[0], "*")
	p := Part{Class: name, Count: 1}
	if _, ok := classNamed(name); !ok && name != "all" {
		return Part{}, fmt.Errorf("unknown class %q: want one of %s, all (or a setting KEY=VALUE with KEY one of seed, %s)", name, strings.Join(classNames(), ", "), keyNames())
	}
	if hasCount {
		n, err := strconv.Atoi(count)
		if err != nil || n < 1 || n > MaxCount {
			return Part{}, fmt.Errorf("count %q of class %s: want a whole number 1 … %d", count, name, MaxCount)
		}
		p.Count = n
	}
	for _, f := range fields[1:] {
		if !strings.Contains(f, "=") {
			return Part{}, fmt.Errorf("%q after class %s: want KEY=VALUE (KEY one of %s)", f, name, keyNames())
		}
		set, err := parseSetting(f)
		if err != nil {
			return Part{}, err
		}
		p.Settings = append(p.Settings, set)
	}
	return p, nil
}

// String is the spec in canonical form: Parse of it gives the same Spec.
func (s Spec) String() string {
	items := []string{"seed=" + strconv.FormatUint(s.Seed, 10)}
	for _, set := range s.Settings {
		items = append(items, set.Key+"="+set.Value)
	}
	for _, p := range s.Parts {
		item := p.Class
		if p.Count != 1 {
			item += "*" + strconv.Itoa(p.Count)
		}
		for _, set := range p.Settings {
			item += ":" + set.Key + "=" + set.Value
		}
		items = append(items, item)
	}
	return strings.Join(items, ",")
}

// planned is one class of the spec with its count and dimensions
// resolved.
type planned struct {
	Class Class
	Count int
}

// plan resolves the parts into classes in canonical order: a class named
// on its own takes its own part, every other class takes "all"'s, if any.
func (s Spec) plan() []planned {
	var all *Part
	for i := range s.Parts {
		if s.Parts[i].Class == "all" {
			all = &s.Parts[i]
		}
	}
	var out []planned
	for _, c := range classes {
		i := slices.IndexFunc(s.Parts, func(p Part) bool { return p.Class == c.Name })
		var part *Part
		switch {
		case i >= 0:
			part = &s.Parts[i]
		case all != nil:
			part = all
		default:
			continue
		}
		c.Dims = c.Dims.clone()
		apply(&c.Dims, s.Settings)
		if all != nil && part != all {
			apply(&c.Dims, all.Settings)
		}
		apply(&c.Dims, part.Settings)
		out = append(out, planned{c, part.Count})
	}
	return out
}

func apply(d *Dims, sets []Setting) {
	for _, set := range sets {
		k, _ := keyNamed(set.Key)
		k.set(d, set.Value)
	}
}
