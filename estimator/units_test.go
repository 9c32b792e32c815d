package estimator

import (
	"strings"
	"testing"
)

func TestKeys(t *testing.T) {
	a := Request{Cores: 2, Memory: 1500, Disk: 3000, EstRunTime: 100}
	b := Request{Cores: 2, Memory: 1500, Disk: 9000, EstRunTime: 5000}
	c := Request{Cores: 2, Memory: 1100, Disk: 3000, EstRunTime: 120}
	d := Request{Cores: 4, Memory: 1500, Disk: 3000, EstRunTime: 100}
	same := func(k KeyKind, x, y Request) bool { return k.Of(x) == k.Of(y) }
	cases := []struct {
		k          KeyKind
		ab, ac, ad bool
	}{
		{K1, true, false, false}, // cores and memory
		{K2, false, false, false},
		{K3, false, true, false}, // 1100 and 1500 share the log2 bucket 1024–2047; 100 and 120 the bucket 64–127
		{K4, true, false, true},
	}
	for _, tc := range cases {
		if same(tc.k, a, b) != tc.ab || same(tc.k, a, c) != tc.ac || same(tc.k, a, d) != tc.ad {
			t.Errorf("%v: a~b %v a~c %v a~d %v, want %v %v %v", tc.k, same(tc.k, a, b), same(tc.k, a, c), same(tc.k, a, d), tc.ab, tc.ac, tc.ad)
		}
	}
	for i, n := range KeyNames {
		k, err := ParseKeyKind(strings.ToUpper(n))
		if err != nil || k != KeyKind(i+1) || k.String() != n {
			t.Errorf("%s: %v %v", n, k, err)
		}
	}
	if _, err := ParseKeyKind("k5"); err == nil || !strings.Contains(err.Error(), `"k5"`) {
		t.Errorf("k5: %v", err)
	}
}

// K3 keeps the estimate as a ratio of R: a group of requests of different
// sizes halves each job's own request.
func TestRatioKey(t *testing.T) {
	o, err := NewOnline(Config{Alpha: 2, Key: K3, Round: Granularity{G: 100, Floor: 100}, Floor: 100})
	if err != nil {
		t.Fatal(err)
	}
	if e := o.Dispatch(Request{ID: 0, Cores: 1, Memory: 1600, EstRunTime: 100}, false); e != 1600 {
		t.Fatalf("first: %v", e)
	}
	o.OnSuccess(0)
	if e := o.Dispatch(Request{ID: 1, Cores: 1, Memory: 2000, EstRunTime: 100}, false); e != 1000 {
		t.Fatalf("second (R 2000, ρ 0.5): %v, want 1000", e)
	}
	o.OnMemFailure(1) // fails at ρ 0.5: F = 0.5, α → 1, back to S = 1
	if e := o.Dispatch(Request{ID: 2, Cores: 1, Memory: 1200, EstRunTime: 100}, false); e != 1200 {
		t.Fatalf("third (R 1200): %v, want 1200", e)
	}
}

func TestLevelsRounding(t *testing.T) {
	paper := levels(t, true, 30, 15)
	clamped := levels(t, false, 30, 15)
	cases := []struct {
		x, r, paper, clamped float64
	}{
		{20, 20, 30, 20}, // no level in [20, 20]: clamped gives R
		{16.67, 20, 30, 20},
		{15, 20, 15, 15},
		{15 + 1e-12, 20, 15, 15}, // tolerance
		{7.5, 20, 15, 15},
		{40, 35, 35, 35}, // no level ≥ 35: both give R (no machine holds the job; the server refuses it)
	}
	for _, c := range cases {
		if got := paper.RoundUp(c.x, c.r); got != c.paper {
			t.Errorf("paper(%v, %v) = %v, want %v", c.x, c.r, got, c.paper)
		}
		if got := clamped.RoundUp(c.x, c.r); got != c.clamped {
			t.Errorf("clamped(%v, %v) = %v, want %v", c.x, c.r, got, c.clamped)
		}
	}
	if _, err := NewLevels(nil, false); err == nil {
		t.Error("no levels accepted")
	}
	if _, err := NewLevels([]float64{0, 10}, false); err == nil {
		t.Error("a zero level accepted")
	}
}

func TestConfigValidate(t *testing.T) {
	ok := Default()
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		mut  func(*Config)
		want string
	}{
		{func(c *Config) { c.Alpha = 1 }, "alpha=1"},
		{func(c *Config) { c.Beta = 1 }, "beta=1"},
		{func(c *Config) { c.Key = 9 }, "key="},
		{func(c *Config) { c.Round = nil }, "rounding"},
		{func(c *Config) { c.Floor = -1 }, "floor=-1"},
		{func(c *Config) { c.Retry = 7 }, "retry="},
		{func(c *Config) { c.Round = Granularity{G: 0} }, "granularity=0"},
	}
	for _, b := range bad {
		c := Default()
		b.mut(&c)
		err := c.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), b.want) {
			t.Errorf("want an error starting %q, got %v", b.want, err)
		}
		if _, err := NewOnline(c); err == nil {
			t.Errorf("NewOnline accepted %+v", c)
		}
	}
	if _, err := ParseRetry("GROUP"); err != nil {
		t.Error(err)
	}
}

// Peek is Dispatch without the record; Cancel undoes a dispatch's counts.
func TestPeekCancel(t *testing.T) {
	o, _ := NewOnline(Default())
	j := Request{ID: 0, Cores: 1, Memory: 2000}
	if p := o.Peek(j, false); p != 2000 {
		t.Fatalf("peek of a new group %v", p)
	}
	o.Dispatch(j, false)
	o.OnSuccess(0)
	j.ID = 1
	if p, d := o.Peek(j, false), o.Dispatch(j, false); p != 1000 || d != 1000 {
		t.Fatalf("peek %v dispatch %v, want 1000", p, d)
	}
	if p := o.Peek(j, true); p != 2000 {
		t.Fatalf("a full retry peeks %v", p)
	}
	o.Cancel(1)
	if _, ok := o.Pending(1); ok {
		t.Fatal("cancelled dispatch still pending")
	}
	if s := o.Stats(); s.Dispatches != 1 || s.Reduced != 0 || s.Jobs != 1 {
		t.Fatalf("stats after cancel %v", s)
	}
}
