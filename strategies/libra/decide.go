package libra

import (
	"cmp"
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
)

// The selection rules of B.6, each over the measured candidates (cands are
// in GETS order; idx is the final tie-break of B.7).

// listNode is Fig. 3.2's ListNode in best-fit order: deadline-feasible
// servers with room in the window, by (tier, RESFree ascending, GETS order).
func listNode(cands []cand, job protocol.Job, q QoS) []*cand {
	var out []*cand
	for i := range cands {
		if cands[i].feasible(q, job.Cores) {
			out = append(out, &cands[i])
		}
	}
	slices.SortFunc(out, func(a, b *cand) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.resFree, b.resFree), cmp.Compare(a.idx, b.idx))
	})
	return out
}

// bestFit is Libra (B.6(a)): the first of ListNode.
func bestFit(cands []cand, job protocol.Job, q QoS) *cand {
	if l := listNode(cands, job, q); len(l) > 0 {
		return l[0]
	}
	return nil
}

// decidePlus is Libra+$ (B.6(b)): the first server of ListNode whose price
// is defined and whose charge is within the budget.
func (s *libra) decidePlus(cands []cand, job protocol.Job, q QoS) (*cand, string, float64) {
	nodes := listNode(cands, job, q)
	if len(nodes) == 0 {
		return nil, reasonDeadline, 0
	}
	for _, c := range nodes {
		if _, cost, ok := c.price(s.alpha, s.beta, job.Cores, q.RE); ok && cost <= q.B {
			return c, "", cost
		}
	}
	return nil, reasonBudget, 0
}

// autoBeta is Libra+$Auto's update (Fig. 7.1, B.6(b)) after one decision,
// clamped to [betaMin, betaMax].
func (s *libra) autoBeta(withinBudget bool, free, total int) {
	if total == 0 {
		return
	}
	if withinBudget {
		s.beta *= float64(total) / float64(max(free, 1))
	} else {
		s.beta *= float64(max(total-free, 1)) / float64(total)
	}
	s.beta = min(max(s.beta, s.betaMin), s.betaMax)
}

// decideSLA is LibraSLA (B.6(c)): eligible servers keep the new job's
// utility non-negative (new_return ≥ return) and, for a HARD job, its
// deadline; the highest total return wins (slaSelect=total) or the least
// delay (marginal). The charge is the utility the job is predicted to earn.
func (s *libra) decideSLA(cands []cand, q QoS) (*cand, string, float64) {
	var best *cand
	for i := range cands {
		c := &cands[i]
		if c.tf < 0 || c.uNew < 0 || (q.Hard() && c.dyNew != 0) {
			continue
		}
		if best == nil || s.slaBetter(c, best) {
			best = c
		}
	}
	if best == nil {
		if q.Hard() {
			return nil, reasonHard, 0
		}
		return nil, reasonNegative, 0
	}
	return best, "", best.uNew
}

// slaBetter orders by (tier, [U_new descending,] new_return descending, GETS order).
func (s *libra) slaBetter(a, b *cand) bool {
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	if s.marginal && a.uNew != b.uNew {
		return a.uNew > b.uNew
	}
	if a.newRet != b.newRet {
		return a.newRet > b.newRet
	}
	return a.idx < b.idx
}

// decideRiskD is LibraRiskD (B.6(d)): the first zero-risk server (σ ≤ ε) in
// (tier, GETS order), or by best fit with riskSelect=bestfit; riskStrict
// also wants the new job on time. The charge is its bid-based utility.
func (s *libra) decideRiskD(cands []cand, job protocol.Job, q QoS) (*cand, string, float64) {
	var best *cand
	for i := range cands {
		c := &cands[i]
		if c.tf < 0 || c.sigma > s.riskEps || (s.riskStrict && c.dyNew != 0) {
			continue
		}
		if best == nil || c.tier < best.tier || c.tier == best.tier && s.riskBF && c.resFree < best.resFree {
			best = c
		}
	}
	if best == nil {
		return nil, reasonRisk, 0
	}
	return best, "", best.uNew
}

// Fallback values (B.8).
const (
	fallbackEarliest = "earliest"
	fallbackCheapest = "cheapest"
	fallbackDefer    = "defer"
)

// pickFallback is B.8's best-effort dispatch: earliest predicted finish
// (then powered first, lower hourly rate, GETS order), or with cheapest the
// lowest hourly rate first. defer, once it must dispatch, is earliest.
func pickFallback(cands []cand, how string) *cand {
	finish := func(c *cand) int {
		if c.tf < 0 {
			return int(^uint(0) >> 1)
		}
		return c.tf
	}
	powered := func(c *cand) int {
		if c.m.Powered() {
			return 0
		}
		return 1
	}
	best := &cands[0]
	for i := 1; i < len(cands); i++ {
		a := &cands[i]
		var k int
		if how == fallbackCheapest {
			k = cmp.Or(cmp.Compare(a.m.Type.HourlyRate, best.m.Type.HourlyRate), cmp.Compare(finish(a), finish(best)))
		} else {
			k = cmp.Or(cmp.Compare(finish(a), finish(best)), cmp.Compare(powered(a), powered(best)),
				cmp.Compare(a.m.Type.HourlyRate, best.m.Type.HourlyRate))
		}
		if k < 0 {
			best = a
		}
	}
	return best
}
