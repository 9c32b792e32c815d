package strategies

import (
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
)

// TestReferenceRegistered: the ten reference algorithms are registered,
// marked Reference, with a one-line summary and no parameters; cost-reduce
// is registered with its Float multiplier defaulting to 4.
func TestReferenceRegistered(t *testing.T) {
	for _, n := range ReferenceNames {
		info, ok := Lookup(n)
		switch {
		case !ok:
			t.Errorf("%s is not registered", n)
		case !info.Reference:
			t.Errorf("%s is not marked Reference", n)
		case info.Summary == "" || strings.ContainsAny(info.Summary, "\n\r"):
			t.Errorf("%s: summary %q is not one line", n, info.Summary)
		case len(info.Params) != 0:
			t.Errorf("%s takes parameters %v; the reference's do not", n, info.Params)
		}
	}
	if got := Names(); !slices.Equal(got[:len(ReferenceNames)], ReferenceNames) {
		t.Errorf("Names() starts %q, want the reference order %q", got, ReferenceNames)
	}
	info, ok := Lookup("cost-reduce")
	if !ok {
		t.Fatal("cost-reduce is not registered")
	}
	if info.Reference || len(info.Params) != 1 || info.Params[0] != (Param{Name: "multiplier", Kind: Float, Default: "4", Help: info.Params[0].Help}) {
		t.Errorf("cost-reduce: reference %v, params %+v", info.Reference, info.Params)
	}
	s, err := New("cost-reduce", nil)
	if err != nil || s.(*costReduce).mult != 4 {
		t.Errorf("cost-reduce default: %v %+v", err, s)
	}
	s, err = New("cost-reduce", map[string]string{"multiplier": " 2.5 "})
	if err != nil || s.(*costReduce).mult != 2.5 {
		t.Errorf("cost-reduce multiplier=2.5: %v %+v", err, s)
	}
}

// TestNewBadParams: a bad setting fails with a message naming the key.
func TestNewBadParams(t *testing.T) {
	cases := []struct {
		name     string
		settings map[string]string
		key      string
	}{
		{"cost-reduce", map[string]string{"multipler": "2"}, `"multipler"`},
		{"cost-reduce", map[string]string{"multiplier": "lots"}, "multiplier"},
		{"cost-reduce", map[string]string{"multiplier": "-1"}, "multiplier"},
		{"cost-reduce", map[string]string{"multiplier": "NaN"}, "multiplier"},
		{"cost-reduce", map[string]string{"multiplier": "+Inf"}, "multiplier"},
		{"ff", map[string]string{"queue": "true"}, `"queue"`},
		{"lrr", map[string]string{"start": "1"}, `"start"`},
	}
	for _, c := range cases {
		_, err := New(c.name, c.settings)
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("New(%s, %v) = %v; want an error naming %s and %s", c.name, c.settings, err, c.name, c.key)
		}
	}
}

// TestNewIsFresh: every New gives independent state (lrr's counter).
func TestNewIsFresh(t *testing.T) {
	job := offer(t, "JOBN 0 1 1 100 100 5")
	a := mustNew(t, "lrr")
	decide(a, &fakeView{sys: sysTW(t), capable: []protocol.Server{}}, job)
	got := decide(mustNew(t, "lrr"), &fakeView{sys: sysTW(t), capable: []protocol.Server{}}, job)
	if got[len(got)-1] != "SCHD 0 big16a 0" {
		t.Errorf("a new lrr continued another's counter: %q", got)
	}
}
