package strategies

import (
	"strconv"
	"strings"
)

// Identity is the text two specs share exactly when the registry reads
// them as the same strategy with the same parameters: settings are bound
// (Info.Bind) with the defaults filled in, and each value is written in
// one canonical form per kind, so "weight=10" and "weight=10.0" (one
// float), "k=010" and "k=10", "on=1" and "on=true", or a parameter given
// at its default and one not given at all have one Identity. The elements
// of a List value are strategies made by New, so they are compared by the
// same rule, in order. A String value is compared as written, and nothing
// of a strategy's own reading is known here: frontier's weight=10 and its
// preset=balanced stay two identities even when the preset's weight is 10.
//
// dsbench runs and shows one column per Identity. The text is a key, not
// a spec to parse back (every parameter is in it, strings quoted).
// A spec that does not bind is Bind's error (New's, for an unknown name).
func Identity(name string, settings map[string]string) (string, error) {
	var b strings.Builder
	if err := writeIdentity(&b, name, settings, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeIdentity(b *strings.Builder, name string, settings map[string]string, depth int) error {
	info, ok := Lookup(name)
	if !ok {
		return UnknownStrategy(name)
	}
	if depth > maxSpecDepth {
		return errListDepth
	}
	p, err := info.bind(settings, depth)
	if err != nil {
		return err
	}
	// Every declared parameter, in declaration order, so that an omitted
	// one and its default read the same; names and strings quoted, so
	// that no value can pass for a separator.
	b.WriteString(strconv.Quote(name))
	b.WriteByte('{')
	for i, d := range info.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(d.Name))
		b.WriteByte('=')
		if err := writeValue(b, d.Kind, p.values[d.Name], depth); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// writeValue writes one bound value in its kind's canonical form.
func writeValue(b *strings.Builder, kind Kind, v any, depth int) error {
	switch kind {
	case Float:
		f := v.(float64)
		if f == 0 {
			f = 0 // -0 == 0: one value, as the strategy's comparisons see it
		}
		b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	case Int:
		b.WriteString(strconv.Itoa(v.(int)))
	case Bool:
		b.WriteString(strconv.FormatBool(v.(bool)))
	case List:
		b.WriteByte('[')
		for i, e := range v.([]Spec) {
			if i > 0 {
				b.WriteByte(';')
			}
			if err := writeIdentity(b, e.Name, e.Settings, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		b.WriteString(strconv.Quote(v.(string)))
	}
	return nil
}
