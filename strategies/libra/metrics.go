package libra

import (
	"github.com/dssim-go/dssim-go/strategies"
)

// metricSums accumulates Part C over the book.
type metricSums struct {
	n, nAcc, nMet, nQoS, nRej, nRejOnTime int
	budget, revenue, utility              float64
	wait, slow                            float64
	nSlow                                 int
	byReason                              map[string]int
	approx                                bool
}

// metrics is Part C. bid selects the revenue of the bid-based model (the
// utility B − PR·DY of every accepted job: LibraSLA, LibraRiskD) instead of
// the commodity model's charges of QoS-met jobs (Libra, Libra+$ and the
// comparison policies). truth gives true start times and runtimes
// in-process; without it TST ≈ TF − RE and runtime ≈ RE, and the metrics
// that use them are marked Approx (Part C). TF itself is exact either way:
// JCPL carries the true end.
func (b *book) metrics(truth *strategies.Truth, bid bool, reasons []string) []strategies.Metric {
	s := metricSums{byReason: map[string]int{}, approx: truth == nil}
	for _, id := range b.order {
		s.add(id, b.jobs[id], truth, bid)
	}
	pct := func(a, d float64) float64 {
		if d == 0 {
			return 0
		}
		return 100 * a / d
	}
	mean := func(a float64, n int) float64 {
		if n == 0 {
			return 0
		}
		return a / float64(n)
	}
	ms := []strategies.Metric{
		{Name: "deadlineMetPct", Value: pct(float64(s.nMet), float64(s.n)), Unit: "%", Help: "jobs finished by their deadline TD (all jobs)"},
		{Name: "qosSatisfaction", Value: pct(float64(s.nQoS), float64(s.n)), Unit: "%", Help: "accepted jobs that met their deadline (and budget), over all jobs (Eq. 3.7)"},
		{Name: "clusterProfitability", Value: pct(s.revenueMet(bid), s.budget), Unit: "%", Help: "charges of QoS-met jobs over all budgets (Eq. 3.8)"},
		{Name: "profitability", Value: pct(s.utility, s.budget), Unit: "%", Help: "utility B − PR·DY of accepted jobs over all budgets (Eq. 6.4); can be negative"},
		{Name: "reliability", Value: pct(float64(s.nQoS), float64(s.nAcc)), Unit: "%", Help: "accepted jobs that met their SLA, over accepted jobs (Eq. 6.3)"},
		{Name: "slaPct", Value: pct(float64(s.nQoS), float64(s.n)), Unit: "%", Help: "jobs that met their SLA, over all jobs (Eq. 6.2)"},
		{Name: "waitSLA", Value: mean(s.wait, s.nQoS), Unit: "s", Approx: s.approx, Help: "mean wait TST − TSU of SLA-met jobs (Eq. 6.1)"},
		{Name: "avgSlowdown", Value: mean(s.slow, s.nSlow), Approx: s.approx, Help: "mean (TF − TSU)/runtime over deadline-met jobs"},
		{Name: "accepted", Value: float64(s.nAcc), Unit: "jobs", Help: "jobs admitted by the policy"},
		{Name: "rejected", Value: float64(s.nRej), Unit: "jobs", Help: "jobs rejected by admission and dispatched best-effort"},
	}
	for _, r := range reasons {
		ms = append(ms, strategies.Metric{Name: "rejected." + r, Value: float64(s.byReason[r]), Unit: "jobs", Help: "rejections for " + r})
	}
	ms = append(ms,
		strategies.Metric{Name: "rejectedOnTime", Value: float64(s.nRejOnTime), Unit: "jobs", Help: "rejected jobs that finished by their deadline anyway"},
		strategies.Metric{Name: "revenue", Value: s.revenueMet(bid), Unit: "$", Help: revenueHelp(bid)},
	)
	return ms
}

func revenueHelp(bid bool) string {
	if bid {
		return "Σ utility B − PR·DY of accepted jobs (bid-based model)"
	}
	return "Σ charges of accepted jobs that met their deadline (commodity model)"
}

func (s *metricSums) revenueMet(bid bool) float64 {
	if bid {
		return s.utility
	}
	return s.revenue
}

// add accounts one job.
func (s *metricSums) add(id int, r *record, truth *strategies.Truth, bid bool) {
	s.n++
	s.budget += r.q.B
	tf, tst, run := r.end, r.end-r.q.RE, r.q.RE
	if truth != nil {
		if jt, ok := truth.Jobs[id]; ok {
			tf, tst, run = jt.End, jt.Start, max(jt.End-jt.Start, 1)
		}
	}
	tst = max(tst, r.q.TSU)
	met := tf >= 0 && tf <= r.q.TD
	if met {
		s.nMet++
		s.slow += float64(tf-r.q.TSU) / float64(max(run, 1))
		s.nSlow++
	}
	if !r.accepted {
		s.nRej++
		s.byReason[r.reason]++
		if met {
			s.nRejOnTime++
		}
		return
	}
	s.nAcc++
	dy := 0
	if tf >= 0 {
		dy = max(0, tf-r.q.TD)
	}
	s.utility += utility(r.q, dy)
	if met {
		s.nQoS++
		s.wait += float64(tst - r.q.TSU)
		if !bid {
			s.revenue += r.charge
		}
	}
}
