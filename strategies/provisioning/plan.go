package provisioning

import "math"

// plan is one epoch's capacity problem of B.5 in reference units: a
// reference job needs c̄ cores for x̄ seconds, a reference server is c̄
// cores of the cheapest-per-core type.
type plan struct {
	n0, p0  float64 // backlog (reference jobs, capped at N) and powered capacity (reference servers)
	arr, pc float64 // mean arrivals per stage (λ̂_jobs·Δt); completion probability 1 − e^{−Δt/x̄}
	qmin    int     // ⌈p_min/c̄⌉
	qmax    int     // Q = ⌊total cores/c̄⌋
	cq      float64 // one reference server for one stage ($)
	wait    float64 // ω·Δt: waiting cost of one reference job for one stage ($)
	churn   float64 // M*'s anti-churn charge per reference server removed ($); 0 for costdp-nom
	term    float64 // P = x̄·c_max/3600: terminal cost per reference job left ($)
	gQ      float64 // fluid g(Q) in reference jobs: at or above it the plan is forced to Q
	k, cap  int     // stages K, backlog cap N
	ntarget float64 // fluidplan: n_K ≤ ntarget when ≥ 0
	mono    bool    // costdp-mono: q(n) ≥ q(n−1)
}

// maxGrid is B.5's "if Q > 50, search q on a grid of step ⌈Q/50⌉".
const maxGrid = 50

// grid is the capacities searched: q_min … Q, every one when Q ≤ 50,
// else on a grid of step ⌈Q/50⌉ that always ends at Q.
func (pr *plan) grid(out []int) []int {
	out = out[:0]
	step := 1
	if pr.qmax > maxGrid {
		step = (pr.qmax + maxGrid - 1) / maxGrid
	}
	for q := pr.qmin; q < pr.qmax; q += step {
		out = append(out, q)
	}
	return append(out, pr.qmax)
}

// fluid is fluidplan (B.5, the §6.3 LP): the constant q minimising
// Σ_{j<K} (q·c_q + ω·n_j·Δt) under n_{j+1} = max(n_j + a − min(n_j + a, q)·pc, 0),
// ties to the smaller q; with a terminal target, only plans meeting it,
// and Q if none does.
func (pr *plan) fluid() int {
	best, bestCost := -1, math.Inf(1)
	for _, q := range pr.grid(nil) {
		n, cost := pr.n0, 0.0
		for j := 0; j < pr.k; j++ {
			cost += float64(q)*pr.cq + pr.wait*n
			m := n + pr.arr
			n = math.Max(m-math.Min(m, float64(q))*pr.pc, 0)
		}
		if pr.ntarget >= 0 && n > pr.ntarget {
			continue
		}
		if cost < bestCost {
			best, bestCost = q, cost
		}
	}
	if best < 0 {
		return pr.qmax
	}
	return best
}
