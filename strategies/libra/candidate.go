package libra

import (
	"math"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// cand is one capable server judged for the offered job: the B.4 prediction
// of the new job and the B.5/B.6 measures over the server's predicted
// timeline (running jobs, waiting jobs, then the new job).
type cand struct {
	m      *strategies.Machine
	idx    int // position in GETS order, the final tie-break (B.7)
	tier   int // 0: booting, idle or active; 1: inactive (B.7); 0 for all without preferPowered
	st, tf int // new job's predicted start and finish; -1 when it could never start

	resMax, committed, resFree float64 // core-seconds in [now, TD] (B.5)

	// LibraSLA (B.6(c)): the existing jobs' return and the new job's delay
	// and utility.
	ret, newRet, uNew float64
	dyNew             int
	// LibraRiskD (B.6(d)): σ of the DDYs of every job, the new one included.
	sigma float64
}

// feasible is Fig. 3.2 line 10: the deadline is predicted met and the
// window holds more than the job's work.
func (c *cand) feasible(q QoS, cores int) bool {
	return c.tf >= 0 && c.tf <= q.TD && c.resMax > float64(cores*q.RE)
}

// measure fills the B.5 and B.6 measures from a predicted timeline whose
// last entry is the new job. jobAt gives the cores and QoS of the i-th job
// of the timeline (the jobs already there, in Predict's order).
func (c *cand) measure(now int, job protocol.Job, q QoS, tl []strategies.Predicted, src timelineJobs) {
	newP := tl[len(tl)-1]
	c.st, c.tf = newP.Start, newP.End
	avail := now
	if c.m.State == protocol.Inactive {
		avail = now + c.m.Type.BootupTime
	} else if c.m.State == protocol.Booting {
		avail = c.m.BootEnd
	}
	c.resMax = float64(c.m.Type.Cores) * float64(max(0, q.TD-max(now, avail)))
	var ddy ddyStats
	c.committed, c.ret = 0, 0
	for i, p := range tl[:len(tl)-1] {
		if p.Start < 0 {
			continue
		}
		cores, qk := src.jobAt(i)
		c.committed += float64(cores * max(0, min(p.End, q.TD)-max(p.Start, now)))
		dy := max(0, p.End-qk.TD)
		c.ret += utility(qk, dy) / float64(qk.RE) / float64(qk.D)
		ddy.add(now, qk.TD, dy)
	}
	c.resFree = c.resMax - c.committed - float64(job.Cores*q.RE)
	c.dyNew = 0
	if c.tf >= 0 {
		c.dyNew = max(0, c.tf-q.TD)
	} else {
		c.dyNew = math.MaxInt32
	}
	c.uNew = utility(q, c.dyNew)
	c.newRet = c.ret + c.uNew/float64(q.RE)/float64(q.D)
	ddy.add(now, q.TD, c.dyNew)
	c.sigma = ddy.sigma()
}

// timelineJobs gives the cores and QoS of the i-th job of a timeline.
type timelineJobs interface{ jobAt(i int) (int, QoS) }

// utility is Eq. 4.1: U = B − PR·DY.
func utility(q QoS, dy int) float64 { return q.B - q.PR*float64(dy) }

// ddyStats accumulates Eq. 5.2's DDYs for Eq. 5.3–5.4.
type ddyStats struct{ n, sum, sq float64 }

// add takes one job: r = max(TD − now, 1) guards already-late jobs (B.6(d)).
func (d *ddyStats) add(now, td, dy int) {
	r := float64(max(td-now, 1))
	x := (float64(dy) + r) / r
	d.n++
	d.sum += x
	d.sq += x * x
}

// sigma is σ_j with the variance clamped at 0 (Part F: σ rounding).
func (d *ddyStats) sigma() float64 {
	if d.n == 0 {
		return 0
	}
	mu := d.sum / d.n
	return math.Sqrt(max(0, d.sq/d.n-mu*mu))
}

// price is B.6(b): P_ij/PBase_j = α + β·RESMax/RESFree, and the charge
// c·RE·P_ij in dollars (decision 12: × cores). ok is false when the price is
// undefined (RESFree ≤ 0, Part F: price blow-up).
func (c *cand) price(alpha, beta float64, cores, re int) (ratio, cost float64, ok bool) {
	if c.resFree <= 0 {
		return 0, 0, false
	}
	ratio = alpha + beta*(c.resMax/c.resFree)
	pbase := c.m.Type.HourlyRate / (3600 * float64(c.m.Type.Cores))
	return ratio, float64(cores*re) * (ratio * pbase), true
}
