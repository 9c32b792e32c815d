package strategies

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
)

// TestParseSpec: accepted specs and their canonical text (settings sorted,
// lists as "[a; b]", blanks dropped).
func TestParseSpec(t *testing.T) {
	cases := []struct{ in, want string }{
		{"ff", "ff"},
		{"  ff\t", "ff"},
		{"cost-reduce:multiplier=2", "cost-reduce:multiplier=2"},
		{"x: b = 2 , a=1", "x:a=1,b=2"},
		{"x:k=", "x:k="},
		{"x:k=a=b", "x:k=a=b"}, // the first "=" ends the key, as --param
		{"x:k=1e-3", "x:k=1e-3"},
		{"c:members=[ff; cost-reduce:multiplier=2; bf]", "c:members=[ff; cost-reduce:multiplier=2; bf]"},
		{"c:members=[ff;bf],k=1", "c:k=1,members=[ff; bf]"},
		{"c:members=[ ff ; cost-reduce : multiplier = 2 , x=1 ]", "c:members=[ff; cost-reduce:multiplier=2,x=1]"},
		{"c:members=[c:members=[ff;bf]; wf]", "c:members=[c:members=[ff; bf]; wf]"},
		{"c:m=[a:x=[b:z=2,y=1]],n=[]", "c:m=[a:x=[b:y=1,z=2]],n=[]"},
		{"c:members=[]", "c:members=[]"},
		{"c:members=[  ]", "c:members=[]"},
		{"c:members=[ff]", "c:members=[ff]"},
	}
	for _, c := range cases {
		s, err := ParseSpec(c.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", c.in, err)
			continue
		}
		if s.String() != c.want {
			t.Errorf("ParseSpec(%q) = %q, want %q", c.in, s.String(), c.want)
		}
		back, err := ParseSpec(s.String())
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Errorf("%q does not round-trip: %+v → %q → %+v, %v", c.in, s, s.String(), back, err)
		}
	}
	s, _ := ParseSpec("c:members=[ff; cost-reduce:multiplier=2; bf],k=x")
	want := Spec{Name: "c", Settings: map[string]string{"members": "[ff; cost-reduce:multiplier=2; bf]", "k": "x"}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("settings: %+v, want %+v", s, want)
	}
	l, err := ParseList(s.Settings["members"])
	wantL := []Spec{{Name: "ff"}, {Name: "cost-reduce", Settings: map[string]string{"multiplier": "2"}}, {Name: "bf"}}
	if err != nil || !reflect.DeepEqual(l, wantL) {
		t.Errorf("ParseList: %+v %v, want %+v", l, err, wantL)
	}
}

// TestParseSpecErrors: each error names the column of the problem.
func TestParseSpecErrors(t *testing.T) {
	cases := []struct {
		in  string
		col int
		msg string
	}{
		{"", 1, "empty strategy name"},
		{"   ", 4, "empty strategy name"},
		{"c d", 2, `' ' in strategy name "c d"`},
		{"ff,bf", 3, `',' in strategy name`},
		{"[ff]", 1, `'[' in strategy name`},
		{"c:", 3, "want key=value"},
		{"c:k", 3, "want key=value"},
		{"c:=1", 3, "empty parameter name"},
		{"c:k=1,k=2", 7, "parameter k given twice"},
		{"c:k=1,", 7, "want key=value"},
		{"c:k=a;b", 6, `';' in a value that is not a [list]`},
		{"c:k=a[b]", 6, `'[' in a value that is not a [list]`},
		{"c:members=[ff; bf", 11, `"[" is not closed`},
		{"c:members=[ff; c:m=[bf]", 11, `"[" is not closed`},
		{"c:members=[ff; c:m=[bf; wf]", 11, `"[" is not closed`}, // the "]" closes the inner one
		{"c:members=[ff; c:m=[bf; wf", 20, `"[" is not closed`},  // the innermost open one
		{"c:members=ff]", 13, `"]" without "["`},
		{"c:members=[ff]]", 15, `"]" without "["`},
		{"c:members=[ff;;bf]", 15, "empty list element"},
		{"c:members=[ff; ]", 16, "empty list element"},
		{"c:members=[;]", 12, "empty list element"},
		{"c:members=[ff; bf]x", 19, `text after the list's closing "]"`},
		{"c:members=[ff]; bf", 15, `text after the list's closing "]"`},
		{"c:members=[a b]", 13, `' ' in strategy name "a b"`},
		{"c:members=[ff; nosuch:=2]", 23, "empty parameter name"},
		{"c:members=[ff; x:k=[a;;b]]", 23, "empty list element"},
		{strings.Repeat("c:m=[", maxSpecDepth+1) + "ff" + strings.Repeat("]", maxSpecDepth+1), 5 * (maxSpecDepth + 1), "nested deeper"},
	}
	for _, c := range cases {
		_, err := ParseSpec(c.in)
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("ParseSpec(%q) = %v, want a *SpecError", c.in, err)
			continue
		}
		if se.Col != c.col || !strings.Contains(se.Msg, c.msg) || se.Text != c.in {
			t.Errorf("ParseSpec(%q): %v; want column %d: %s", c.in, err, c.col, c.msg)
		}
	}
	// Nesting up to the limit is fine.
	deep := strings.Repeat("c:m=[", maxSpecDepth) + "ff" + strings.Repeat("]", maxSpecDepth)
	if _, err := ParseSpec(deep); err != nil {
		t.Errorf("depth %d: %v", maxSpecDepth, err)
	}
}

// TestSplitCutTop: commas, colons and "=" inside brackets do not split.
func TestSplitCutTop(t *testing.T) {
	got, err := SplitTop("ff,c:members=[ff, bf; x:a=1,b=2],k=1,[a,[b,c]]", ',')
	want := []string{"ff", "c:members=[ff, bf; x:a=1,b=2]", "k=1", "[a,[b,c]]"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SplitTop = %q %v, want %q", got, err, want)
	}
	if got, err := SplitTop("", ','); err != nil || !reflect.DeepEqual(got, []string{""}) {
		t.Errorf("SplitTop(\"\") = %q %v", got, err)
	}
	var se *SpecError
	if _, err := SplitTop("a,[b,c", ','); !errors.As(err, &se) || se.Col != 3 {
		t.Errorf("SplitTop unclosed: %v", err)
	}
	if _, err := SplitTop("a],b", ','); !errors.As(err, &se) || se.Col != 2 {
		t.Errorf("SplitTop stray ]: %v", err)
	}
	for _, c := range []struct{ in, before, after string }{
		{"c:members=[x:a=1]", "c", "members=[x:a=1]"},
		{"members=[x:a=1]", "members", "[x:a=1]"},
		{"[x:a=1]", "[x:a=1]", ""},
	} {
		sep := byte(':')
		if !strings.HasPrefix(c.in, "c:") {
			sep = '='
		}
		b, a, _ := CutTop(c.in, sep)
		if b != c.before || a != c.after {
			t.Errorf("CutTop(%q, %q) = %q, %q", c.in, sep, b, a)
		}
	}
}

// listStrategy is a test-only strategy with a List parameter, standing in
// for a composite: it makes each member as the registry says and keeps
// them, so a test can check that every element was bound with its own
// settings.
type listStrategy struct {
	IgnoreEvents
	members []Spec
	made    []Strategy
}

func (*listStrategy) Job(View, protocol.Job) ([]protocol.Action, error) { return nil, ErrNoServer }

type leafStrategy struct {
	IgnoreEvents
	m float64
}

func (*leafStrategy) Job(View, protocol.Job) ([]protocol.Action, error) { return nil, ErrNoServer }

func init() {
	Register(Info{Name: "spec-leaf", Summary: "test only: a Float parameter",
		Params: []Param{{Name: "m", Kind: Float, Default: "4"}},
		New:    func(p Params) (Strategy, error) { return &leafStrategy{m: p.Float("m")}, nil }})
	Register(Info{Name: "spec-list", Summary: "test only: a List parameter",
		Params: []Param{{Name: "members", Kind: List, Default: "[spec-leaf]"}, {Name: "k", Kind: Int, Default: "0"}},
		New: func(p Params) (Strategy, error) {
			s := &listStrategy{members: p.List("members")}
			for _, m := range s.members {
				st, err := New(m.Name, m.Settings)
				if err != nil {
					return nil, err
				}
				s.made = append(s.made, st)
			}
			return s, nil
		}})
}

// TestListParam: a List value binds to its parsed elements, each made with
// its own settings, nested lists included; the default applies when unset.
func TestListParam(t *testing.T) {
	s, err := New("spec-list", map[string]string{"members": "[spec-leaf; spec-leaf:m=2; spec-list:members=[spec-leaf:m=7]]"})
	if err != nil {
		t.Fatal(err)
	}
	ls := s.(*listStrategy)
	wantM := []Spec{{Name: "spec-leaf"}, {Name: "spec-leaf", Settings: map[string]string{"m": "2"}},
		{Name: "spec-list", Settings: map[string]string{"members": "[spec-leaf:m=7]"}}}
	if !reflect.DeepEqual(ls.members, wantM) {
		t.Errorf("members %+v, want %+v", ls.members, wantM)
	}
	if len(ls.made) != 3 || ls.made[0].(*leafStrategy).m != 4 || ls.made[1].(*leafStrategy).m != 2 ||
		ls.made[2].(*listStrategy).made[0].(*leafStrategy).m != 7 {
		t.Errorf("members made %+v", ls.made)
	}
	s, err = New("spec-list", nil)
	if err != nil || !reflect.DeepEqual(s.(*listStrategy).members, []Spec{{Name: "spec-leaf"}}) {
		t.Errorf("default: %v %+v", err, s)
	}
	s, err = New("spec-list", map[string]string{"members": "[]"})
	if err != nil || len(s.(*listStrategy).members) != 0 {
		t.Errorf("empty list: %v %+v", err, s)
	}
	p, _ := Lookup("spec-list")
	b, _ := p.Bind(map[string]string{"members": "[spec-leaf:m=1]"})
	l := b.List("members")
	l[0].Name = "changed"
	if b.List("members")[0].Name != "spec-leaf" {
		t.Error("Params.List shares its slice with the caller")
	}
	if List.String() != "list" {
		t.Errorf("List.String() = %q", List.String())
	}
}

// TestListParamErrors: a bad element is reported with the strategy, the
// parameter, the element's number and its column in the value.
func TestListParamErrors(t *testing.T) {
	cases := []struct {
		members string
		want    []string
	}{
		{"[spec-leaf; nosuch]", []string{"strategy spec-list: parameter members:", `"[spec-leaf; nosuch]", column 13: element 2: unknown strategy "nosuch"`}},
		{"[spec-leaf:m=x]", []string{`column 2: element 1: strategy spec-leaf: parameter m="x": want a number`}},
		{"[spec-leaf:q=1]", []string{`column 2: element 1: strategy spec-leaf has no parameter "q"`}},
		{"[spec-list:members=[spec-leaf; zz]]", []string{`"[spec-list:members=[spec-leaf; zz]]", column 2: element 1: strategy spec-list: parameter members: "[spec-leaf; zz]", column 13: element 2: unknown strategy "zz"`}},
		{"[spec-leaf", []string{`parameter members="[spec-leaf": want [spec; spec; …]:`, `column 1: "[" is not closed`}},
		{"spec-leaf", []string{`want [spec; spec; …]:`, `column 1: a list starts with "["`}},
		{"", []string{`want [spec; spec; …]:`, `a list starts with "["`}},
	}
	for _, c := range cases {
		_, err := New("spec-list", map[string]string{"members": c.members})
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("members=%s: %v; want %s", c.members, err, w)
			}
		}
	}
}

// TestListDefaultCheckedAtBind: a List default may name strategies
// registered later (Register checks its syntax only), and is checked
// against the registry when the strategy is made.
func TestListDefaultCheckedAtBind(t *testing.T) {
	info := Info{Name: "spec-late", Params: []Param{{Name: "members", Kind: List, Default: "[spec-later]"}}}
	if _, err := info.Bind(nil); err == nil || !strings.Contains(err.Error(), `unknown strategy "spec-later"`) {
		t.Errorf("Bind with an unregistered default member: %v", err)
	}
	// A default that names its own strategy is an error, not a stack
	// overflow.
	self := Info{Name: "spec-self", Params: []Param{{Name: "members", Kind: List, Default: "[spec-self]"}},
		New: func(Params) (Strategy, error) { return &leafStrategy{}, nil }}
	Register(self)
	defer unregister("spec-self") // New fails on it by design; other tests make every strategy
	if _, err := New("spec-self", nil); err == nil ||
		err.Error() != "strategy spec-self: parameter members: "+errListDepth.Error() {
		t.Errorf("a default naming its own strategy: %v", err)
	}
	if _, err := New("spec-self", map[string]string{"members": "[]"}); err != nil {
		t.Errorf("spec-self with members=[]: %v", err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), `parameter members: default "[x" is not a valid list`) {
			t.Errorf("Register of a List default that does not parse: panic %v", p)
		}
	}()
	Register(Info{Name: "spec-bad-default", Params: []Param{{Name: "members", Kind: List, Default: "[x"}},
		New: func(Params) (Strategy, error) { return &leafStrategy{}, nil }})
}

// unregister removes a test's strategy from the registry.
func unregister(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	delete(registry, name)
	delete(sites, name)
}

// FuzzParseSpec: the parser never panics, errors are *SpecError with a
// column inside the text (or just past it), and an accepted spec
// round-trips through its canonical text.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"ff", "cost-reduce:multiplier=2", "c:members=[ff; cost-reduce:multiplier=2; bf],k=1",
		"c:m=[a:x=[b:z=2,y=1]],n=[]", "c:members=[ff; bf", "c:members=ff]", "c:k=a=b", "c:members=[;]", " x : a = [ ] "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSpec(in)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) || se.Col < 1 || se.Col > len(in)+1 || se.Text != in {
				t.Fatalf("ParseSpec(%q): %v (%#v)", in, err, err)
			}
			return
		}
		text := s.String()
		back, err := ParseSpec(text)
		if err != nil || !reflect.DeepEqual(back, s) || back.String() != text {
			t.Fatalf("%q → %+v → %q → %+v, %v", in, s, text, back, err)
		}
		for _, v := range s.Settings {
			if strings.HasPrefix(v, "[") {
				l, err := ParseList(v)
				if err != nil || FormatList(l) != v {
					t.Fatalf("list value %q of %q: %v %q", v, in, err, FormatList(l))
				}
			}
		}
	})
}
