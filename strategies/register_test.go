package strategies

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func newLeaf(Params) (Strategy, error) { return &leafStrategy{}, nil }

// registerPanic registers info and returns the panic's message ("" when
// Register did not panic) and the line of its Register call: the line
// after the one runtime.Caller reports, on either way out.
func registerPanic(info Info) (msg string, line int) {
	defer func() {
		if p := recover(); p != nil {
			msg, line = fmt.Sprint(p), line+1
		}
	}()
	_, _, line, _ = runtime.Caller(0)
	Register(info)
	return "", line + 1
}

// TestRegisterDuplicateNamesBoth: a second registration of a name panics
// naming both places, module-relative, the first one first: init order may
// make the second the legitimate package.
func TestRegisterDuplicateNamesBoth(t *testing.T) {
	info := Info{Name: "reg-dup", New: newLeaf}
	t.Cleanup(func() { unregister("reg-dup") })
	_, _, first, _ := runtime.Caller(0)
	Register(info) // first+1
	msg, again := registerPanic(info)
	want := fmt.Sprintf("strategies: duplicate registration of reg-dup: first at strategies/register_test.go:%d, again at strategies/register_test.go:%d",
		first+1, again)
	if msg != want {
		t.Errorf("panic %q,\nwant  %q", msg, want)
	}
}

// TestRegisterRefuses: Register refuses, naming the strategy, the
// parameter, the problem and its own caller's line, what would otherwise
// fail only when a user selects the strategy (or could never be selected).
func TestRegisterRefuses(t *testing.T) {
	p := func(params ...Param) Info { return Info{Name: "reg-bad", New: newLeaf, Params: params} }
	const chars = "(a name may not hold blanks, control characters or any of , ; : = [ ])"
	cases := []struct {
		info Info
		want string
	}{
		{Info{New: newLeaf}, `strategy "": name is empty`},
		{Info{Name: "wa:ry", New: newLeaf}, `strategy "wa:ry": name holds ':' at byte 2: -a name:k=v,… and --param k=v cannot write it ` + chars},
		{Info{Name: "wary=1", New: newLeaf}, `strategy "wary=1": name holds '='`},
		{Info{Name: "a,b", New: newLeaf}, `strategy "a,b": name holds ','`},
		{Info{Name: "[a]", New: newLeaf}, `strategy "[a]": name holds '[' at byte 0`},
		{Info{Name: "a]", New: newLeaf}, `strategy "a]": name holds ']'`},
		{Info{Name: "a;b", New: newLeaf}, `strategy "a;b": name holds ';'`},
		{Info{Name: "wa ry", New: newLeaf}, `strategy "wa ry": name holds ' '`},
		{Info{Name: "wary\t", New: newLeaf}, `strategy "wary\t": name holds '\t' at byte 4`},
		{Info{Name: "wa\u00a0ry", New: newLeaf}, `strategy "wa\u00a0ry": name holds '\u00a0'`},
		{Info{Name: "wa\x01ry", New: newLeaf}, `strategy "wa\x01ry": name holds '\x01'`},
		{Info{Name: "reg-bad"}, "strategy reg-bad: New is nil"},
		{p(Param{Name: "k", Kind: Int, Default: "1"}, Param{Name: "k", Kind: Float, Default: "1"}), "strategy reg-bad: parameter k declared twice"},
		{p(Param{Kind: Int, Default: "1"}), `strategy reg-bad: parameter "": name is empty`},
		{p(Param{Name: "k=v", Kind: Int, Default: "1"}), `strategy reg-bad: parameter "k=v": name holds '=' at byte 1`},
		{p(Param{Name: "a b", Kind: Int, Default: "1"}), `strategy reg-bad: parameter "a b": name holds ' '`},
		{p(Param{Name: "k", Kind: Int}), `strategy reg-bad: parameter k: default "" is not a valid int: want an integer`},
		{p(Param{Name: "k", Kind: Float, Default: "x"}), `strategy reg-bad: parameter k: default "x" is not a valid float: want a number`},
		{p(Param{Name: "k", Kind: Bool, Default: "yes"}), `strategy reg-bad: parameter k: default "yes" is not a valid bool: want true or false`},
		{p(Param{Name: "k", Kind: List, Default: "ff"}), `strategy reg-bad: parameter k: default "ff" is not a valid list: want [spec; spec; …]`},
		{p(Param{Name: "k", Kind: Kind(9), Default: "1"}), "strategy reg-bad: parameter k: unknown Kind 9"},
	}
	for _, c := range cases {
		msg, line := registerPanic(c.info)
		prefix := fmt.Sprintf("strategies: Register at strategies/register_test.go:%d: ", line)
		if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, c.want) {
			t.Errorf("Register(%q): panic %q,\nwant %q…%q", c.info.Name, msg, prefix, c.want)
		}
		if _, ok := Lookup(c.info.Name); ok {
			t.Errorf("Register(%q) panicked but registered it", c.info.Name)
			unregister(c.info.Name)
		}
	}
	// What the spec grammar accepts stays accepted.
	ok := Info{Name: "reg-Ok_1.x", New: newLeaf, Params: []Param{{Name: "k-2", Kind: String}, {Name: "m", Kind: List, Default: "[]"}}}
	t.Cleanup(func() { unregister(ok.Name) })
	if msg, _ := registerPanic(ok); msg != "" {
		t.Errorf("Register(%+v): %s", ok, msg)
	}
}

// TestUnknownStrategySuggests: an unknown name, alone or as a list
// element, gets the nearest registered name when one is a likely typo
// (swapped letters and case included), and always the reminder that a new
// package must be imported by strategies/all.
func TestUnknownStrategySuggests(t *testing.T) {
	const note = "; a new strategy package must be imported by the command's main, strategies/all/all.go in this module, and the command built again)"
	Register(Info{Name: "rg", New: newLeaf})
	t.Cleanup(func() { unregister("rg") })
	cases := []struct {
		name string
		want string
	}{
		{"spec-lef", `unknown strategy "spec-lef": did you mean spec-leaf? (known: `},
		{"spec-lsit", `unknown strategy "spec-lsit": did you mean spec-list? (known: `},
		{"SPEC-LEAF", `unknown strategy "SPEC-LEAF": did you mean spec-leaf? (known: `},
		{"spec-lx", `unknown strategy "spec-lx" (known: `}, // three edits from either
		// The limit: one edit under six characters, two from six on.
		{"rgxy", `unknown strategy "rgxy" (known: `},                                    // two from "rg", four characters
		{"rgx", `unknown strategy "rgx": did you mean rg? (known: `},                    // one from "rg"
		{"spec-lexf", `unknown strategy "spec-lexf": did you mean spec-leaf? (known: `}, // two, nine characters
		{"nosuch", `unknown strategy "nosuch" (known: `},
	}
	for _, c := range cases {
		_, err := New(c.name, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !strings.HasSuffix(err.Error(), note) ||
			!strings.Contains(err.Error(), "spec-leaf, ") {
			t.Errorf("New(%q): %v\nwant %q…%q", c.name, err, c.want, note)
		}
	}
	_, err := New("spec-list", map[string]string{"members": "[spec-leaf; spec-laef]"})
	want := `"[spec-leaf; spec-laef]", column 13: element 2: unknown strategy "spec-laef": did you mean spec-leaf? (known: `
	if err == nil || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), note) {
		t.Errorf("a misspelt list element: %v\nwant …%q…%q", err, want, note)
	}
}

// TestChoices: a String parameter with Choices refuses any other value,
// naming them and the nearest; an unknown parameter names the nearest one;
// Choices on another Kind, or a Default outside them, is refused at
// Register.
func TestChoices(t *testing.T) {
	Register(Info{Name: "ch", New: newLeaf, Params: []Param{
		{Name: "mode", Kind: String, Default: "rules", Choices: []string{"rules", "portfolio"}},
		{Name: "weight", Kind: Float, Default: "1"}}})
	t.Cleanup(func() { unregister("ch") })
	for settings, want := range map[string]string{
		"mode=portfolio": "",
		"mode=portfolo":  `strategy ch: parameter mode="portfolo": want rules or portfolio; did you mean portfolio?`,
		"mode=xyz":       `strategy ch: parameter mode="xyz": want rules or portfolio`,
		"wieght=2":       `strategy ch has no parameter "wieght" (it takes: mode, weight); did you mean weight?`,
		"colour=2":       `strategy ch has no parameter "colour" (it takes: mode, weight)`,
	} {
		k, v, _ := strings.Cut(settings, "=")
		_, err := New("ch", map[string]string{k: v})
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", settings, err)
			}
			continue
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", settings, err, want)
		}
	}
	for _, bad := range []Param{
		{Name: "x", Kind: Int, Default: "1", Choices: []string{"1", "2"}},
		{Name: "x", Kind: String, Default: "c", Choices: []string{"a", "b"}},
	} {
		if msg, _ := registerPanic(Info{Name: "ch-bad", New: newLeaf, Params: []Param{bad}}); msg == "" {
			t.Errorf("%+v registered", bad)
			unregister("ch-bad")
		}
	}
}
