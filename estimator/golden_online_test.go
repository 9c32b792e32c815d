package estimator

import "testing"

// The golden vectors of estimation.md D.2 (online variant, B.2): the E'
// sequences, outcomes delivered one at a time unless stated, exactly.

type onlineRow struct {
	act   float64
	alloc float64
}

func online(t testing.TB, alpha, beta float64, r Rounder) *Online {
	t.Helper()
	o, err := NewOnline(Config{Alpha: alpha, Beta: beta, Key: K1, Round: r, Retry: RetryFull})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// runOnline offers one new job per row to the group of (1 core, R) and
// delivers its outcome (success when act ≤ E') before the next.
func runOnline(t *testing.T, o *Online, r int, first int, rows []onlineRow) int {
	t.Helper()
	id := first
	for i, w := range rows {
		alloc := o.Dispatch(Request{ID: id, Cores: 1, Memory: r}, false)
		if alloc != w.alloc {
			t.Fatalf("row %d: E' = %v, want %v (sequence %v)", i+1, alloc, w.alloc, rows)
		}
		if w.act <= alloc {
			_, _, ok := o.OnSuccess(id)
			if !ok {
				t.Fatalf("row %d: no record", i+1)
			}
		} else if _, ok := o.OnMemFailure(id); !ok {
			t.Fatalf("row %d: no record", i+1)
		}
		id++
	}
	return id
}

func acts(act float64, allocs ...float64) []onlineRow {
	rows := make([]onlineRow, len(allocs))
	for i, a := range allocs {
		rows[i] = onlineRow{act, a}
	}
	return rows
}

func TestD2Clamped(t *testing.T) {
	pow2 := func() Rounder { return levels(t, false, 1, 2, 4, 8, 16, 32) }
	cases := []struct {
		name  string
		alpha float64
		beta  float64
		round Rounder
		r     int
		rows  []onlineRow
	}{
		{"32/24/4 α=2", 2, 0, levels(t, false, 32, 24, 4), 32, acts(4, 32, 24, 24, 24, 24)},
		{"act4 α=10", 10, 0, levels(t, false, 32, 24, 4), 32, acts(4, 32, 4, 4)},
		{"act5 α=10", 10, 0, levels(t, false, 32, 24, 4), 32, acts(5, 32, 4, 32, 32)},
		{"Fig.7", 2, 0, pow2(), 32, acts(5.2, 32, 16, 8, 4, 8, 8, 8)},
		{"Fig.7 β=0.5", 2, 0.5, levels(t, false, seq(1, 32)...), 32, acts(5.2, 32, 16, 8, 4, 6, 5, 6, 6, 6, 6)},
		{"§3.2 α=1.2", 1.2, 0, levels(t, false, 30, 15), 20, acts(10, 20, 20, 20, 20)},
		{"J1/J2", 2, 0, levels(t, false, 64, 32, 16, 8), 64, []onlineRow{{12, 64}, {12, 32}, {12, 16}, {18, 8}, {18, 16}, {18, 64}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runOnline(t, online(t, c.alpha, c.beta, c.round), c.r, 0, c.rows)
		})
	}
}

func TestD2Paper(t *testing.T) {
	runOnline(t, online(t, 1.2, 0, levels(t, true, 30, 15)), 20, 0, acts(10, 30, 30, 30, 30))
	runOnline(t, online(t, 10, 0, levels(t, true, 32, 24, 4)), 32, 0, acts(5, 32, 4, 32, 32))
	runOnline(t, online(t, 2, 0, levels(t, true, 1, 2, 4, 8, 16, 32)), 32, 0, acts(5.2, 32, 16, 8, 4, 8, 8, 8))
}

// The J1/J2 trace D.2 prints for checking: the state after each step.
func TestD2J1J2Trace(t *testing.T) {
	o := online(t, 2, 0, levels(t, false, 64, 32, 16, 8))
	next := runOnline(t, o, 64, 0, acts(12, 64, 32, 16))
	g, _ := o.Group(Request{Cores: 1, Memory: 64})
	if g.S != 16 || g.E != 8 || g.Alpha != 2 {
		t.Fatalf("after three successes %+v, want S 16, E 8, α 2", g)
	}
	next = runOnline(t, o, 64, next, []onlineRow{{18, 8}})
	g, _ = o.Group(Request{Cores: 1, Memory: 64})
	if g.F != 8 || g.Alpha != 1 || g.E != 16 {
		t.Fatalf("after the failure at 8 %+v, want F 8, α 1, E 16", g)
	}
	runOnline(t, o, 64, next, []onlineRow{{18, 16}})
	g, _ = o.Group(Request{Cores: 1, Memory: 64})
	if g.E != 64 || g.Alpha != 1 || g.S < 1e300 || g.F > -1e300 {
		t.Fatalf("after the failure at 16 %+v, want the escalation E 64, α 1, S +∞, F −∞", g)
	}
	if s := o.Stats(); s.Escalations != 1 || s.MemFailures != 2 {
		t.Fatalf("stats %v", s)
	}
}

// Concurrency: after successes at 32, 16, 8, two jobs dispatched at 4 both
// fail; the next E' is 8, not 4 (the bracket keeps F = 4).
func TestD2Concurrency(t *testing.T) {
	o := online(t, 2, 0, levels(t, false, 1, 2, 4, 8, 16, 32))
	next := runOnline(t, o, 32, 0, acts(5.2, 32, 16, 8))
	a := o.Dispatch(Request{ID: next, Cores: 1, Memory: 32}, false)
	b := o.Dispatch(Request{ID: next + 1, Cores: 1, Memory: 32}, false)
	if a != 4 || b != 4 {
		t.Fatalf("in flight at %v and %v, want 4 and 4", a, b)
	}
	o.OnMemFailure(next)
	o.OnMemFailure(next + 1)
	if c := o.Dispatch(Request{ID: next + 2, Cores: 1, Memory: 32}, false); c != 8 {
		t.Fatalf("next E' = %v, want 8", c)
	}
}

// Stale success: job 0 at 32 succeeds; jobs 1 and 2 at 16; job 1
// succeeds; job 3 at 8; then job 2 (16) succeeds: the next E' stays 8.
func TestD2StaleSuccess(t *testing.T) {
	o := online(t, 2, 0, levels(t, false, 1, 2, 4, 8, 16, 32))
	req := func(id int) Request { return Request{ID: id, Cores: 1, Memory: 32} }
	var got []float64
	got = append(got, o.Dispatch(req(0), false))
	o.OnSuccess(0)
	got = append(got, o.Dispatch(req(1), false), o.Dispatch(req(2), false))
	o.OnSuccess(1)
	got = append(got, o.Dispatch(req(3), false))
	o.OnSuccess(2)
	want := []float64{32, 16, 16, 8}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("dispatched %v, want %v", got, want)
		}
	}
	if n := o.Dispatch(req(4), false); n != 8 {
		t.Fatalf("next E' = %v, want 8 (a stale success must not raise it)", n)
	}
}

// B.2 "a stale success cannot raise E", where it bites: two jobs in flight
// at 32; the first succeeds, the group goes down to 8; the second's success
// at 32 arrives last and must not lift E back to 16.
func TestOnlineStaleHighSuccess(t *testing.T) {
	o := online(t, 2, 0, levels(t, false, 1, 2, 4, 8, 16, 32))
	req := func(id int) Request { return Request{ID: id, Cores: 1, Memory: 32} }
	o.Dispatch(req(0), false)
	o.Dispatch(req(1), false)
	o.OnSuccess(0)
	if e := o.Dispatch(req(2), false); e != 16 {
		t.Fatalf("E' %v, want 16", e)
	}
	o.OnSuccess(2)
	o.OnSuccess(1) // the stale success at 32
	if e := o.Dispatch(req(3), false); e != 8 {
		t.Fatalf("next E' = %v, want 8", e)
	}
}

// B.2 "F = highest E' that failed": a later failure at a lower level does
// not lower F, so a level known to fail is never tried again. With a ratio
// key (K3) jobs of one group are in flight at different fractions of their
// requests, which is how a lower failure can arrive after a higher one.
func TestOnlineLowerFailureKeepsF(t *testing.T) {
	o, err := NewOnline(Config{Alpha: 2, Beta: 0.9, Key: K3, Round: Granularity{G: 100, Floor: 100}, Floor: 100})
	if err != nil {
		t.Fatal(err)
	}
	req := func(id, r int) Request { return Request{ID: id, Cores: 1, Memory: r, EstRunTime: 100} }
	want := func(id, r int, e float64) {
		t.Helper()
		if got := o.Dispatch(req(id, r), false); got != e {
			t.Fatalf("job %d (R %d): E' = %v, want %v", id, r, got, e)
		}
	}
	want(0, 1100, 1100)
	o.OnSuccess(0)      // S = 1, E = 0.5 of R
	want(1, 1900, 1000) // ratio 0.526
	want(2, 1200, 600)  // ratio 0.5
	o.OnMemFailure(1)   // F = 0.526, α = 2^0.9
	o.OnMemFailure(2)   // lower: F stays 0.526
	want(3, 1900, 1100) // ratio 0.579
	o.OnSuccess(3)      // S = 0.579, E = 0.310
	// 0.310 × 1900 rounds to 600; 600 … 1000 are ratios ≤ F: skipped.
	want(4, 1900, 1100)
}

// B.2 "shrink α once per failure event": two failures of jobs dispatched
// under the same α shrink it once, even when the second failed at a
// higher level (so it raises F).
func TestOnlineAlphaShrinksOncePerEvent(t *testing.T) {
	o, err := NewOnline(Config{Alpha: 2, Beta: 0.5, Key: K3, Round: Granularity{G: 100, Floor: 100}, Floor: 100})
	if err != nil {
		t.Fatal(err)
	}
	req := func(id, r int) Request { return Request{ID: id, Cores: 1, Memory: r, EstRunTime: 100} }
	o.Dispatch(req(0, 1100), false)
	o.OnSuccess(0)
	o.Dispatch(req(1, 1200), false) // 600: ratio 0.5
	o.Dispatch(req(2, 1900), false) // 1000: ratio 0.526
	o.OnMemFailure(1)
	o.OnMemFailure(2)
	g, _ := o.Group(req(3, 1100))
	if round3(g.Alpha) != 1.414 || round3(g.F) != 0.526 {
		t.Fatalf("α %v, F %v; want 1.414 (2^0.5, once) and 0.526", g.Alpha, g.F)
	}
}

// B.2 "stay on the known-good level": when S/α rounds to a level known to
// fail, the group goes back to S itself, not to some untried level between
// F and S.
func TestOnlineStaysOnKnownGood(t *testing.T) {
	runOnline(t, online(t, 2, 0.9, levels(t, false, seq(1, 32)...)), 32, 0,
		// 4 fails: α = 2^0.9, E = 8/1.866 = 4.29 → 5; 5 fails: α = 1.866^0.9,
		// E = 8/1.753 = 4.56 rounds to 5 ≤ F = 5: back to S = 8. After 8
		// succeeds E = 4.56 again and the dispatch skips to 6, the first
		// untried level above F; 6 fails: back to 8.
		acts(7.5, 32, 16, 8, 4, 5, 8, 6, 8))
}
