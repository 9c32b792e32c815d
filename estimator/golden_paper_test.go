package estimator

import (
	"math"
	"testing"
)

// The golden vectors of estimation.md D.1 (corrected Algorithm 1, paper
// mode, sequential): every row's E', outcome, and the group's E and α
// after it, compared to the printed precision (E' exactly; E and α to the
// three decimals the document prints).

type paperRow struct {
	act      float64 // actual use of the job
	alloc    float64 // E' dispatched
	ok       bool
	e, alpha float64 // state after the outcome
}

func levels(t testing.TB, paper bool, ls ...float64) *Levels {
	t.Helper()
	l, err := NewLevels(ls, paper)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func seq(from, to float64) []float64 {
	var out []float64
	for v := from; v <= to; v++ {
		out = append(out, v)
	}
	return out
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// runPaper dispatches one job per row, sequentially, and checks each row.
func runPaper(t *testing.T, p *Paper, r float64, rows []paperRow) {
	t.Helper()
	k := Key{Kind: K1, A: 1, B: int(r)}
	for i, w := range rows {
		tk := p.Dispatch(k, r)
		if tk.Alloc != w.alloc {
			t.Fatalf("row %d: E' = %v, want %v", i+1, tk.Alloc, w.alloc)
		}
		ok := w.act <= tk.Alloc
		if ok != w.ok {
			t.Fatalf("row %d: act %v at E' %v: outcome %v, table says %v", i+1, w.act, tk.Alloc, ok, w.ok)
		}
		p.Outcome(tk, ok)
		e, a, _ := p.State(k)
		if round3(e) != w.e || round3(a) != w.alpha {
			t.Fatalf("row %d: after the outcome E = %v, α = %v; want %v, %v", i+1, e, a, w.e, w.alpha)
		}
	}
}

func TestD1Section23Alpha2(t *testing.T) {
	p := &Paper{Alpha: 2, Beta: 0, Round: levels(t, true, 32, 24, 4)}
	runPaper(t, p, 32, []paperRow{
		{4, 32, true, 16, 2}, {4, 24, true, 12, 2}, {4, 24, true, 12, 2}, {4, 24, true, 12, 2}, {4, 24, true, 12, 2},
	})
}

// The rejected reading of line 9 (E1): dividing E instead of the rounded
// E' reaches the 4 MB machines, which the paper says never happens.
func TestD1Section23RejectedReadingE1(t *testing.T) {
	p := &Paper{Alpha: 2, Beta: 0, Round: levels(t, true, 32, 24, 4), DivideEstimate: true}
	runPaper(t, p, 32, []paperRow{
		{4, 32, true, 16, 2}, {4, 24, true, 8, 2}, {4, 24, true, 4, 2}, {4, 4, true, 2, 2}, {4, 4, true, 1, 2},
	})
}

func TestD1Section23Alpha10(t *testing.T) {
	l := levels(t, true, 32, 24, 4)
	t.Run("act4", func(t *testing.T) {
		runPaper(t, &Paper{Alpha: 10, Round: l}, 32, []paperRow{
			{4, 32, true, 3.2, 10}, {4, 4, true, 0.4, 10}, {4, 4, true, 0.4, 10},
		})
	})
	t.Run("act5", func(t *testing.T) {
		// 4 fails: E' · α = 40 is clamped to R = 32 (E3), α → 1.
		runPaper(t, &Paper{Alpha: 10, Round: l}, 32, []paperRow{
			{5, 32, true, 3.2, 10}, {5, 4, false, 32, 1}, {5, 32, true, 32, 1}, {5, 32, true, 32, 1},
		})
	})
}

func fig7Rows() []paperRow {
	return []paperRow{
		{5.2, 32, true, 16, 2}, {5.2, 16, true, 8, 2}, {5.2, 8, true, 4, 2}, {5.2, 4, false, 8, 1},
		{5.2, 8, true, 8, 1}, {5.2, 8, true, 8, 1}, {5.2, 8, true, 8, 1},
	}
}

func TestD1Fig7(t *testing.T) {
	runPaper(t, &Paper{Alpha: 2, Round: levels(t, true, 1, 2, 4, 8, 16, 32)}, 32, fig7Rows())
}

// Literal line 13 (E2) sets E to the E' that just failed: with β = 0 the
// group fails at 4 for ever.
func TestD1Fig7Literal13FailsForEver(t *testing.T) {
	rows := fig7Rows()[:3]
	for range 6 {
		rows = append(rows, paperRow{5.2, 4, false, 4, 1})
	}
	runPaper(t, &Paper{Alpha: 2, Round: levels(t, true, 1, 2, 4, 8, 16, 32), Literal13: true}, 32, rows)
}

func TestD1Fig7Beta05(t *testing.T) {
	rows := []paperRow{
		{5.2, 32, true, 16, 2}, {5.2, 16, true, 8, 2}, {5.2, 8, true, 4, 2}, {5.2, 4, false, 5.657, 1.414},
		{5.2, 6, true, 4.243, 1.414}, {5.2, 5, false, 5.946, 1.189}, {5.2, 6, true, 5.045, 1.189},
	}
	for range 5 { // "and every later job"
		rows = append(rows, paperRow{5.2, 6, true, 5.045, 1.189})
	}
	runPaper(t, &Paper{Alpha: 2, Beta: 0.5, Round: levels(t, true, seq(1, 32)...)}, 32, rows)
}

func TestD1Section32(t *testing.T) {
	l := levels(t, true, 30, 15)
	t.Run("alpha1.2", func(t *testing.T) {
		runPaper(t, &Paper{Alpha: 1.2, Round: l}, 20, []paperRow{
			{10, 30, true, 25, 1.2}, {10, 30, true, 25, 1.2}, {10, 30, true, 25, 1.2}, {10, 30, true, 25, 1.2},
		})
	})
	t.Run("alpha2", func(t *testing.T) {
		runPaper(t, &Paper{Alpha: 2, Round: l}, 20, []paperRow{
			{10, 30, true, 15, 2}, {10, 15, true, 7.5, 2}, {10, 15, true, 7.5, 2}, {10, 15, true, 7.5, 2},
		})
	})
}

func TestD1J1J2(t *testing.T) {
	runPaper(t, &Paper{Alpha: 2, Round: levels(t, true, 64, 32, 16, 8)}, 64, []paperRow{
		{12, 64, true, 32, 2}, {12, 32, true, 16, 2}, {18, 16, false, 32, 1}, {18, 32, true, 32, 1}, {18, 32, true, 32, 1},
	})
}

// E6: J1, J1, J1, then J2 for ever: the sequential algorithm livelocks.
func TestD1Livelock(t *testing.T) {
	rows := []paperRow{{12, 64, true, 32, 2}, {12, 32, true, 16, 2}, {12, 16, true, 8, 2}, {18, 8, false, 16, 1}}
	for range 6 {
		rows = append(rows, paperRow{18, 16, false, 16, 1})
	}
	runPaper(t, &Paper{Alpha: 2, Round: levels(t, true, 64, 32, 16, 8)}, 64, rows)
}

// D.1 "Concurrency": two jobs dispatched at 4 before any feedback both
// fail; the second failure resets E to 4 and every later job fails.
func TestD1Concurrency(t *testing.T) {
	p := &Paper{Alpha: 2, Round: levels(t, true, 1, 2, 4, 8, 16, 32)}
	runPaper(t, p, 32, fig7Rows()[:3])
	k := Key{Kind: K1, A: 1, B: 32}
	a, b := p.Dispatch(k, 32), p.Dispatch(k, 32)
	if a.Alloc != 4 || b.Alloc != 4 {
		t.Fatalf("both in flight at 4, got %v and %v", a.Alloc, b.Alloc)
	}
	p.Outcome(a, false)
	if e, al, _ := p.State(k); e != 8 || al != 1 {
		t.Fatalf("after the first failure E = %v, α = %v; want 8, 1", e, al)
	}
	p.Outcome(b, false)
	if e, al, _ := p.State(k); e != 4 || al != 1 {
		t.Fatalf("after the second failure E = %v, α = %v; want 4, 1", e, al)
	}
	for i := range 3 {
		if c := p.Dispatch(k, 32); c.Alloc != 4 {
			t.Fatalf("later job %d: E' = %v, want 4 (below the 5.2 used: fails)", i, c.Alloc)
		} else {
			p.Outcome(c, false)
		}
	}
}
