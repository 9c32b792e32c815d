package estimator

import (
	"math"
	"testing"
)

// One test per pitfall of estimation.md Part F that lives in the
// estimator (the others — real mode, disk kept at its request, the workload
// parameters printed with results — are sgme's and the study's tests).

// β = 0 freezes a group after its first failure; when the application's
// memory grows past the frozen level, escalation to the request (B.2) is
// the only way back up, and the group then stays at its request.
func TestPitfallBetaZeroFreezes(t *testing.T) {
	o := online(t, 2, 0, levels(t, false, 1, 2, 4, 8, 16, 32))
	next := runOnline(t, o, 32, 0, acts(5.2, 32, 16, 8, 4, 8, 8))
	g, _ := o.Group(Request{Cores: 1, Memory: 32})
	if g.Alpha != 1 {
		t.Fatalf("α after the first failure = %v, want 1 (frozen)", g.Alpha)
	}
	// Usage grows to 10: fails at 8, a level that succeeded: escalate.
	next = runOnline(t, o, 32, next, []onlineRow{{10, 8}})
	runOnline(t, o, 32, next, acts(10, 32, 32, 32, 32, 32))
}

// Rounding to levels creates fixed points (E1): with levels 32/24/4 and
// α = 2 the group never leaves 24 although it uses 4; the reachable-level
// statistic counts it as reduced (24 < 32) but it never reaches 4.
func TestPitfallLevelsFixedPoint(t *testing.T) {
	o := online(t, 2, 0, levels(t, false, 32, 24, 4))
	rows := acts(4, 32)
	for range 20 {
		rows = append(rows, onlineRow{4, 24})
	}
	runOnline(t, o, 32, 0, rows)
	if s := o.Stats(); s.GroupsReduced != 1 || s.Groups != 1 || s.MemFailures != 0 {
		t.Fatalf("stats %v", s)
	}
}

// Literal Algorithm 1 livelocks with two jobs of a group in flight (E6);
// the online variant does not: same history, the paper mode keeps failing
// at 4, the online variant goes back to 8 and succeeds from then on.
func TestPitfallConcurrentLivelockFixed(t *testing.T) {
	p := &Paper{Alpha: 2, Round: levels(t, true, 1, 2, 4, 8, 16, 32)}
	k := Key{Kind: K1, A: 1, B: 32}
	for _, e := range []float64{32, 16, 8} {
		tk := p.Dispatch(k, 32)
		if tk.Alloc != e {
			t.Fatalf("paper: E' %v, want %v", tk.Alloc, e)
		}
		p.Outcome(tk, true)
	}
	a, b := p.Dispatch(k, 32), p.Dispatch(k, 32)
	p.Outcome(a, false)
	p.Outcome(b, false)
	paperFails := 0
	for range 10 {
		tk := p.Dispatch(k, 32)
		ok := 5.2 <= tk.Alloc
		if !ok {
			paperFails++
		}
		p.Outcome(tk, ok)
	}
	o := online(t, 2, 0, levels(t, false, 1, 2, 4, 8, 16, 32))
	next := runOnline(t, o, 32, 0, acts(5.2, 32, 16, 8))
	o.Dispatch(Request{ID: next, Cores: 1, Memory: 32}, false)
	o.Dispatch(Request{ID: next + 1, Cores: 1, Memory: 32}, false)
	o.OnMemFailure(next)
	o.OnMemFailure(next + 1)
	runOnline(t, o, 32, next+2, acts(5.2, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8))
	if paperFails != 10 {
		t.Fatalf("paper mode failed %d of 10 later jobs, want all 10 (the livelock)", paperFails)
	}
}

// JOBP is not a failure signal by itself (B.3, B.5): only a JOBP of a job
// placed and not lost otherwise is a memory failure.
func TestPitfallJOBPClassified(t *testing.T) {
	var c Classifier[string]
	if v := c.Offer(1); v != Fresh {
		t.Fatalf("JOBP of a job never placed (after DEQJ of a queued job): %v, want fresh", v)
	}
	c.Placed(1, "a")
	c.Placed(2, "a")
	c.Placed(3, "b")
	c.Placed(4, "b")
	c.Placed(5, "b")
	c.ServerLost("a") // RESF or TERM
	c.JobLost(3)      // KILJ or DEQJ
	c.Moved(4, "a")   // MIGJ
	want := map[int]Verdict{1: Invalidated, 2: Invalidated, 3: Invalidated, 4: Invalidated, 5: MemFailure}
	for id, w := range want {
		if v := c.Offer(id); v != w {
			t.Errorf("job %d: %v, want %v", id, v, w)
		}
	}
	if v := c.Offer(5); v != Fresh {
		t.Errorf("a second offer of job 5 without a new placement: %v, want fresh", v)
	}
	c.Placed(6, "b")
	if !c.Completed(6) || c.Completed(6) {
		t.Error("Completed reports a placed job once")
	}
}

// GETS refuses memory below 100 (ds-server.md §5.3): E' never goes below
// the floor, whatever the levels or the estimate, and never above R
// because of it.
func TestPitfallFloor(t *testing.T) {
	o, err := NewOnline(Config{Alpha: 10, Key: K1, Round: levels(t, false, 20, 50, 4000), Floor: 100})
	if err != nil {
		t.Fatal(err)
	}
	for id := range 6 {
		e := o.Dispatch(Request{ID: id, Cores: 1, Memory: 4000}, false)
		if e < 100 {
			t.Fatalf("job %d: E' = %v below the floor", id, e)
		}
		o.OnSuccess(id)
	}
	g := Granularity{G: 100, Floor: 100}
	for _, c := range [][3]float64{{1, 2000, 100}, {0, 2000, 100}, {101, 2000, 200}, {1999, 2000, 2000}, {5000, 2000, 2000}, {150, 100, 100}} {
		if got := g.RoundUp(c[0], c[1]); got != c[2] {
			t.Errorf("roundUp_g(%v, R=%v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
	if math.IsNaN(g.RoundUp(0, 0)) {
		t.Error("NaN")
	}
}
