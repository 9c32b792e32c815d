package provisioning

import "math"

// dpScratch is costdp's working memory, reused from epoch to epoch.
type dpScratch struct {
	key    plan // the last plan solved (p0 zeroed) and whether d.c still holds its stage 0
	valid  bool
	grid   []int
	pois   []float64 // Poisson(arr) pmf from poisLo
	poisLo int
	binom  [][]float64 // binom[s]: Binomial(s, pc) pmf from binomLo[s]
	binLo  []int
	kLo    []int // kernel row (gi, n): first m
	kOff   []int // row i is kBuf[kOff[i]:kEnd[i]]
	kEnd   []int
	kBuf   []float64
	next   []float64 // L_{k+1}(gi, m)
	cur    []float64 // L_k(gi, n)
	tmp    []float64 // one kernel row
	amax   int       // largest arrival count kept
	kw     int       // kernel rows per q: n = 0 … reach(K−1)
	unsat  []int     // per n: the row shared by every q ≥ n + amax
	c      []float64 // C_k(gi, n) = q·c_q + ω·n·Δt + Σ_m k(q,n,m)·L_{k+1}(q,m)
}

// pmfTol drops Poisson and Binomial terms too small to matter.
const pmfTol = 1e-12

// poisson fills the Poisson(a) pmf over the range holding all but pmfTol.
func poisson(a float64, out []float64) (lo int, pmf []float64) {
	out = out[:0]
	if a <= 0 {
		return 0, append(out, 1)
	}
	lo = max(0, int(a-12*math.Sqrt(a)-12))
	hi := int(a + 12*math.Sqrt(a) + 12)
	for x := lo; x <= hi; x++ {
		lg, _ := math.Lgamma(float64(x) + 1)
		v := math.Exp(-a + float64(x)*math.Log(a) - lg)
		if len(out) == 0 && v < pmfTol && x < hi {
			lo++
			continue
		}
		out = append(out, v)
	}
	for len(out) > 1 && out[len(out)-1] < pmfTol {
		out = out[:len(out)-1]
	}
	return lo, out
}

// binomial fills the Binomial(s, pc) pmf, trimmed of negligible tails.
func binomial(s int, pc float64, out []float64) (lo int, pmf []float64) {
	out = out[:0]
	if pc >= 1 {
		return s, append(out, 1)
	}
	ls, _ := math.Lgamma(float64(s) + 1)
	lp, lq := math.Log(pc), math.Log1p(-pc)
	lo = -1
	for b := 0; b <= s; b++ {
		lb, _ := math.Lgamma(float64(b) + 1)
		lr, _ := math.Lgamma(float64(s-b) + 1)
		v := math.Exp(ls - lb - lr + float64(b)*lp + float64(s-b)*lq)
		if lo < 0 && v < pmfTol {
			continue
		}
		if lo < 0 {
			lo = b
		}
		out = append(out, v)
	}
	for len(out) > 1 && out[len(out)-1] < pmfTol {
		out = out[:len(out)-1]
	}
	return max(lo, 0), out
}

// reach is the largest backlog reachable j stages from now: n0 + j·amax,
// capped at N. Only these rows are computed, which keeps an epoch cheap
// while the backlog is small (the usual case).
func (d *dpScratch) reach(pr *plan, j int) int {
	return min(pr.cap, int(pr.n0)+j*d.amax)
}

// kernelRow is k(q, n, ·) of B.5: arrivals A ~ Poisson(arr), completions
// B ~ Binomial(min(n + A, q), pc), m = n + A − B; the pmf of m from lo,
// not yet capped at N (stageCost folds the tail into N).
func (d *dpScratch) kernelRow(q, n int, out []float64) (lo int, row []float64) {
	lo = max(0, n-q)
	hi := n + d.poisLo + len(d.pois) - 1
	out = out[:0]
	for m := lo; m <= hi; m++ {
		out = append(out, 0)
	}
	for ai, pa := range d.pois {
		a := d.poisLo + ai
		s := min(n+a, q)
		bl := d.binLo[s]
		for bi, pb := range d.binom[s] {
			out[n+a-(bl+bi)-lo] += pa * pb
		}
	}
	return lo, out
}

// prepare computes the Poisson and Binomial tables and every kernel row.
// For n ≥ q every arrival finds q busy servers, so the row is one vector
// shifted by n: it is computed once per q and shared; for q ≥ n + amax no
// arrival count fills the q servers, so the row is the same for every such
// q and is computed once per n.
func (d *dpScratch) prepare(pr *plan) {
	d.grid = pr.grid(d.grid)
	d.poisLo, d.pois = poisson(pr.arr, d.pois)
	smax := min(pr.cap+d.poisLo+len(d.pois), d.grid[len(d.grid)-1])
	for len(d.binom) <= smax {
		d.binom = append(d.binom, nil)
		d.binLo = append(d.binLo, 0)
	}
	for s := 0; s <= smax; s++ {
		d.binLo[s], d.binom[s] = binomial(s, pr.pc, d.binom[s])
	}
	d.amax = d.poisLo + len(d.pois) - 1
	d.kw = d.reach(pr, pr.k-1) + 1
	d.kLo, d.kOff, d.kEnd, d.kBuf = d.kLo[:0], d.kOff[:0], d.kEnd[:0], d.kBuf[:0]
	d.unsat = d.unsat[:0]
	for n := 0; n < d.kw; n++ {
		d.unsat = append(d.unsat, -1)
	}
	for _, q := range d.grid {
		shared := -1
		for n := 0; n < d.kw; n++ {
			switch {
			case n >= q && shared >= 0: // saturated: one vector shifted by n
				d.share(shared, n-q)
				continue
			case q >= n+d.amax && d.unsat[n] >= 0: // never saturated: the same for every such q
				d.share(d.unsat[n], 0)
				continue
			}
			lo, row := d.kernelRow(q, n, d.tmp)
			d.tmp = row
			if n >= q {
				shared = len(d.kLo)
			}
			if q >= n+d.amax {
				d.unsat[n] = len(d.kLo)
			}
			d.kLo = append(d.kLo, lo)
			d.kOff = append(d.kOff, len(d.kBuf))
			d.kBuf = append(d.kBuf, row...)
			d.kEnd = append(d.kEnd, len(d.kBuf))
		}
	}
}

// share appends a kernel row that reuses row i's values from a new first m.
func (d *dpScratch) share(i, lo int) {
	d.kLo = append(d.kLo, lo)
	d.kOff = append(d.kOff, d.kOff[i])
	d.kEnd = append(d.kEnd, d.kEnd[i])
}

// solve is costdp (B.5): backward recursion (4.12)–(4.15) over K stages
// with terminal cost m·P, returning the capacity argmin_q M(p0, q, n0)
// (ties: the smaller q; forced to Q when n ≥ g(Q)).
func (d *dpScratch) solve(pr *plan) int {
	key := *pr
	key.p0 = 0 // p0 enters only the final row
	if d.valid && key == d.key {
		return d.grid[d.row(pr, pr.p0, int(pr.n0), nil)] // same tables as the last epoch
	}
	d.key, d.valid = key, true
	d.prepare(pr)
	g, width := len(d.grid), pr.cap+1
	d.next = resize(d.next, g*width)
	d.cur = resize(d.cur, g*width)
	d.c = resize(d.c, g*width)
	for gi := 0; gi < g; gi++ {
		for m := 0; m < width; m++ {
			d.next[gi*width+m] = float64(m) * pr.term
		}
	}
	for stage := pr.k - 1; stage >= 0; stage-- {
		hi := d.reach(pr, stage)
		d.stageCost(pr, hi)
		if stage == 0 {
			break
		}
		for pi := 0; pi < g; pi++ {
			d.row(pr, float64(d.grid[pi]), hi, d.cur[pi*width:(pi+1)*width])
		}
		d.next, d.cur = d.cur, d.next
	}
	n0 := int(pr.n0)
	return d.grid[d.row(pr, pr.p0, n0, nil)]
}

func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// stageCost fills C(q, n), n ≤ hi, from L_{k+1} in d.next.
func (d *dpScratch) stageCost(pr *plan, hi int) {
	width := pr.cap + 1
	for gi, q := range d.grid {
		for n := 0; n <= hi; n++ {
			i := gi*d.kw + n
			row := d.kBuf[d.kOff[i]:d.kEnd[i]]
			lo, next := d.kLo[i], d.next[gi*width:(gi+1)*width]
			e := 0.0
			if fit := min(len(row), pr.cap+1-lo); fit > 0 {
				base := next[lo : lo+fit]
				for j, pm := range row[:fit] {
					e += pm * base[j]
				}
				tail := 0.0
				for _, pm := range row[fit:] {
					tail += pm
				}
				e += tail * next[pr.cap]
			} else {
				for _, pm := range row {
					e += pm * next[pr.cap]
				}
			}
			d.c[gi*width+n] = float64(q)*pr.cq + pr.wait*float64(n) + e
		}
	}
}

// row computes L(p, n) = min_q C(q, n) + churn·max(p − q, 0) for n = 0 …
// nmax into out (if not nil) and returns the argmin grid index at nmax.
// costdp-mono restricts q(n) ≥ q(n−1); n ≥ g(Q) forces Q.
func (d *dpScratch) row(pr *plan, p float64, nmax int, out []float64) int {
	width, g := pr.cap+1, len(d.grid)
	beta, arg := 0, 0
	for n := 0; n <= nmax; n++ {
		lo := 0
		if pr.mono {
			lo = beta
		}
		best, bestV := g-1, math.Inf(1)
		if float64(n) < pr.gQ {
			for gi := lo; gi < g; gi++ {
				v := d.c[gi*width+n] + pr.churn*math.Max(p-float64(d.grid[gi]), 0)
				if v < bestV {
					best, bestV = gi, v
				}
			}
		} else {
			bestV = d.c[best*width+n] + pr.churn*math.Max(p-float64(d.grid[best]), 0)
		}
		if out != nil {
			out[n] = bestV
		}
		beta, arg = best, best
	}
	return arg
}
