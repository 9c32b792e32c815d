package strategies

import (
	"strings"
	"testing"
)

// registerIdentityTestStrategies registers one strategy with a parameter
// of every kind and one whose list default names the first, for the
// duration of the test.
func registerIdentityTestStrategies(t testing.TB) {
	Register(Info{Name: "id-all", New: newLeaf, Params: []Param{
		{Name: "f", Kind: Float, Default: "10"},
		{Name: "i", Kind: Int, Default: "3"},
		{Name: "b", Kind: Bool, Default: "false"},
		{Name: "s", Kind: String, Default: "balanced"},
		{Name: "l", Kind: List, Default: "[]"},
	}})
	Register(Info{Name: "id-other", New: newLeaf, Params: []Param{{Name: "f", Kind: Float, Default: "10"}}})
	Register(Info{Name: "id-list", New: newLeaf, Params: []Param{{Name: "m", Kind: List, Default: "[id-all]"}}})
	t.Cleanup(func() {
		for _, n := range []string{"id-all", "id-other", "id-list"} {
			unregister(n)
		}
	})
}

// TestIdentity: two specs have one Identity exactly when the registry
// reads them as the same strategy with the same parameters, defaults
// filled in and values in their kind's canonical form.
func TestIdentity(t *testing.T) {
	registerIdentityTestStrategies(t)
	cases := []struct {
		a, b string
		same bool
	}{
		{"id-all", "id-all", true},
		{"id-all:f=10", "id-all:f=10.0", true},
		{"id-all:f=10", "id-all:f=1e1", true},
		{"id-all:f=0", "id-all:f=-0", true},
		{"id-all:f=10", "id-all", true}, // the default, given
		{"id-all:f=10,i=3,b=false,s=balanced,l=[]", "id-all", true},
		{"id-all:i=010", "id-all:i=10", true},
		{"id-all:i=+3", "id-all", true},
		{"id-all:b=1", "id-all:b=true", true},
		{"id-all:b=F", "id-all", true},
		{"id-all:f=10.5", "id-all:f=10", false},
		{"id-all:i=4", "id-all", false},
		{"id-all:s=Balanced", "id-all", false}, // a string is as written
		{"id-all:s=cost", "id-all:f=3", false}, // no strategy's own meaning
		{"id-all:b=true", "id-all", false},
		{"id-other", "id-all", false}, // same parameters, another strategy
		{"id-other:f=10", "id-all:f=10", false},
		// List elements are strategies: the same rule, in order.
		{"id-all:l=[id-other:f=10.0]", "id-all:l=[id-other]", true},
		{"id-all:l=[id-other; id-all]", "id-all:l=[id-all; id-other]", false},
		{"id-all:l=[id-other]", "id-all", false},
		{"id-list", "id-list:m=[id-all:f=10]", true}, // a list default's elements too
		{"id-list:m=[id-list:m=[id-all]]", "id-list:m=[id-list]", true},
		{"id-list:m=[id-all; id-all]", "id-list", false},
	}
	for _, c := range cases {
		ia, ib := identityOf(t, c.a), identityOf(t, c.b)
		if (ia == ib) != c.same {
			t.Errorf("Identity(%s) = %s\nIdentity(%s) = %s\nsame: %v, want %v", c.a, ia, c.b, ib, ia == ib, c.same)
		}
	}
}

func identityOf(t *testing.T, text string) string {
	t.Helper()
	s, err := ParseSpec(text)
	if err != nil {
		t.Fatalf("ParseSpec(%q): %v", text, err)
	}
	id, err := Identity(s.Name, s.Settings)
	if err != nil {
		t.Fatalf("Identity(%q): %v", text, err)
	}
	return id
}

// TestIdentityErrors: a spec that does not bind has no Identity, and the
// error is the one New gives.
func TestIdentityErrors(t *testing.T) {
	registerIdentityTestStrategies(t)
	cases := []struct {
		name     string
		settings map[string]string
		want     string
	}{
		{"id-nope", nil, `unknown strategy "id-nope"`},
		{"id-all", map[string]string{"x": "1"}, `strategy id-all has no parameter "x"`},
		{"id-all", map[string]string{"f": "ten"}, `strategy id-all: parameter f="ten": want a number`},
		{"id-all", map[string]string{"l": "[id-nope]"}, `strategy id-all: parameter l: "[id-nope]", column 2: element 1: unknown strategy "id-nope"`},
	}
	for _, c := range cases {
		_, err := Identity(c.name, c.settings)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Identity(%s, %v): error %v, want %q", c.name, c.settings, err, c.want)
		}
	}
}

// FuzzIdentity: for any spec text, Identity never panics, agrees with
// New on what binds, and does not change when the spec is written back in
// its canonical text or when every omitted parameter is given at its
// default.
func FuzzIdentity(f *testing.F) {
	registerIdentityTestStrategies(f)
	for _, s := range []string{"id-all", "id-all:f=1e1,i=010,b=1", "id-all:l=[id-other:f=-0; id-list]",
		"id-list:m=[id-list:m=[id-all:s=x]]", "id-all:f=NaN", "id-all:i=9999999999999999999", "id-nope", "id-all:x=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSpec(in)
		if err != nil {
			return
		}
		id, err := Identity(s.Name, s.Settings)
		if _, nerr := New(s.Name, s.Settings); (err == nil) != (nerr == nil) {
			t.Fatalf("%q: Identity's error %v, New's %v", in, err, nerr)
		}
		if err != nil {
			return
		}
		if back := identityOf(t, s.String()); back != id {
			t.Fatalf("%q: Identity %s, of its canonical text %q %s", in, id, s.String(), back)
		}
		info, _ := Lookup(s.Name)
		full := map[string]string{}
		for _, d := range info.Params {
			full[d.Name] = d.Default
		}
		for k, v := range s.Settings {
			full[k] = v
		}
		if all, err := Identity(s.Name, full); err != nil || all != id {
			t.Fatalf("%q: Identity %s, with every default given %s (%v)", in, id, all, err)
		}
	})
}
