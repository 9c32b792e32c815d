package strategies_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// referenceOrder is the reference client's usage order of its algorithms.
var referenceOrder = []string{"atl", "lrr", "ff", "bf", "wf", "fc", "fafc", "ffq", "bfq", "wfq"}

// TestReferenceRegistered: the ten reference algorithms are registered
// (by package all), marked Reference, with a one-line summary and no
// parameters, and ReferenceNames lists exactly them in the reference
// client's order; cost-reduce is registered with its Float multiplier
// defaulting to 4.
func TestReferenceRegistered(t *testing.T) {
	if got := strategies.ReferenceNames(); !slices.Equal(got, referenceOrder) {
		t.Errorf("ReferenceNames() = %q, want %q", got, referenceOrder)
	}
	for _, n := range referenceOrder {
		info, ok := strategies.Lookup(n)
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
	if got := strategies.Names(); len(got) < len(referenceOrder) || !slices.Equal(got[:len(referenceOrder)], referenceOrder) {
		t.Errorf("Names() starts %q, want the reference order %q", got, referenceOrder)
	}
	info, ok := strategies.Lookup("cost-reduce")
	if !ok {
		t.Fatal("cost-reduce is not registered")
	}
	if info.Reference || len(info.Params) != 1 || !reflect.DeepEqual(info.Params[0], strategies.Param{Name: "multiplier", Kind: strategies.Float, Default: "4", Help: info.Params[0].Help}) {
		t.Errorf("cost-reduce: reference %v, params %+v", info.Reference, info.Params)
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
		_, err := strategies.New(c.name, c.settings)
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("New(%s, %v) = %v; want an error naming %s and %s", c.name, c.settings, err, c.name, c.key)
		}
	}
}

func init() {
	first := func(strategies.Params) (strategies.Strategy, error) { return strattest.FirstCapable{}, nil }
	strategies.Register(strategies.Info{Name: "order-zz", Summary: "test only: Order 11", Order: 11, New: first})
	strategies.Register(strategies.Info{Name: "order-aa", Summary: "test only: no Order", New: first})
}

// TestOrder: All and Names sort by Order, lower first, with every
// strategy that sets none (0) after the ordered ones, by name; the
// reference baselines take 1 … 10.
func TestOrder(t *testing.T) {
	names := strategies.Names()
	want := append(slices.Clone(referenceOrder), "order-zz")
	if len(names) < len(want) || !slices.Equal(names[:len(want)], want) {
		t.Fatalf("Names() = %q, want it to start %q", names, want)
	}
	rest := names[len(want):]
	if !slices.IsSorted(rest) || !slices.Contains(rest, "order-aa") || !slices.Contains(rest, "cost-reduce") {
		t.Errorf("the strategies without an Order: %q, want them by name, order-aa and cost-reduce among them", rest)
	}
	for i, info := range strategies.All() {
		if info.Name != names[i] {
			t.Errorf("All()[%d] = %s, Names()[%d] = %s", i, info.Name, i, names[i])
		}
		if i < len(referenceOrder) && info.Order != i+1 {
			t.Errorf("%s has Order %d, want %d", info.Name, info.Order, i+1)
		}
	}
}
