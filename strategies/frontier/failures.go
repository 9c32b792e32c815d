package frontier

import (
	"math"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// reliability learns how often each server fails, from the RESF and RESR
// events of the run, so that a job is not sent where it is likely to be
// killed (a failure sends every job on the server back to the global
// queue, to start again from nothing: ds-server.md C.3). ds-server's
// failure models are far from uniform across servers (failure-models.md):
// in ds-sample-config02 under g5k06 one server fails 714 times and
// another 112, and the servers that fail most do so all run long.
// Off servers of a type are alike only while nothing fails: without this,
// the first inactive one was always chosen, and a recovered server is
// inactive again, so the worst servers were chosen most.
//
// A server's failure rate is the posterior mean of a Poisson rate under a
// gamma prior fitted to the whole cluster (empirical Bayes): the prior's
// mean is the pooled rate, and its weight k (in failures) comes from how
// much more the servers' failure counts vary than Poisson counts at one
// rate would (method of moments: Var f_i = E_i + E_i²/k). Where they vary
// no more than that, as in a trace that fails each server once, history
// says nothing about a server and every server gets the pooled rate (k
// infinite); the more they vary, the more a server's own count weighs.
// Until the first failure of the run every rate is 0, so a run without
// failures is decided exactly as before.
type reliability struct {
	failures int // RESF events seen
	// downSince and down are keyed by the ledger's servers, which never
	// move: a ServerRef key hashed its type name at every lookup, and a
	// job waiting out a long failure is placed again at every one of
	// millions of offers, each weighing the servers that have failed.
	downSince map[*strategies.Machine]int // servers failed now, since when
	down      map[*strategies.Machine]int // seconds each spent failed, closed spells only
	cluster   int                         // servers in the cluster
	downAll   int                         // Σ down
	open      int                         // servers failed now
	openSince int                         // Σ of their downSince

	off    bool    // every rate 0 whatever fails: only for tests that measure the rule against its absence
	fitted bool    // invK is up to date (refit at the next hazard after a RESF or RESR)
	invK   float64 // 1/k, the gamma prior's inverse weight (0: every server at the pooled rate)
}

func (r *reliability) failed(l *strategies.Ledger, e *protocol.ServerFailed) {
	if r.downSince == nil {
		r.downSince, r.down = map[*strategies.Machine]int{}, map[*strategies.Machine]int{}
		r.cluster = len(l.Machines())
	}
	m, ok := l.Machine(e.Server)
	if !ok {
		return // not a server of ds-system.xml: nothing to weigh
	}
	r.failures++
	r.fitted = false
	if _, open := r.downSince[m]; !open {
		r.downSince[m] = e.Time
		r.open++
		r.openSince += e.Time
	}
}

func (r *reliability) recovered(l *strategies.Ledger, e *protocol.ServerRecovered) {
	m, ok := l.Machine(e.Server)
	if !ok {
		return
	}
	since, open := r.downSince[m]
	if !open {
		return
	}
	delete(r.downSince, m)
	r.open--
	r.openSince -= since
	r.down[m] += max(0, e.Time-since)
	r.downAll += max(0, e.Time-since)
	r.fitted = false
}

// up is how long m has been up by now: not failed. A server that has
// never failed has been up all along (no map to look in).
func (r *reliability) up(m *strategies.Machine, now int) float64 {
	if m.Failures == 0 {
		return float64(now)
	}
	u := now - r.down[m]
	if since, open := r.downSince[m]; open {
		u -= max(0, now-since)
	}
	return float64(max(0, u))
}

// pooled is the cluster's failures per second of a server being up, as of
// now (kept from running sums, so it follows the clock between events).
func (r *reliability) pooled(now int) float64 {
	exposure := r.cluster*now - r.downAll - (r.open*now - r.openSince)
	if exposure <= 0 {
		return 0
	}
	return float64(r.failures) / float64(exposure)
}

// fit refits the prior's weight over every server of the cluster: once
// per failure or recovery (the spread of the counts changes with them),
// not per decision.
func (r *reliability) fit(l *strategies.Ledger) {
	r.fitted, r.invK = true, 0
	ms := l.Machines()
	pooled := r.pooled(l.Now())
	if pooled == 0 || r.failures < len(ms) {
		return
	}
	over, norm := 0.0, 0.0 // Σ (f_i − E_i)² − f_i, Σ E_i²
	for i := range ms {
		f, e := float64(ms[i].Failures), pooled*r.up(&ms[i], l.Now())
		over += (f-e)*(f-e) - f
		norm += e * e
	}
	if over > 0 && norm > 0 {
		r.invK = over / norm
	}
}

// hazard is m's failures per second of being up, at now (0 until a
// failure has been seen): (f + k) / (up + k/pooled).
func (r *reliability) hazard(l *strategies.Ledger, m *strategies.Machine) float64 {
	if r.failures == 0 || r.off {
		return 0
	}
	if !r.fitted {
		r.fit(l)
	}
	pooled := r.pooled(l.Now())
	if r.invK == 0 || pooled == 0 {
		return pooled
	}
	k := 1 / r.invK
	return (float64(m.Failures) + k) / (r.up(m, l.Now()) + k/pooled)
}

// leastLikelyToFail visits, per server type that can hold req, the
// inactive server with the lowest hazard (the lowest id among equals).
// Where every server is at the pooled rate (no failure seen, or counts
// that tell servers nothing apart) that is the first inactive one.
// Otherwise a server that has never failed has the lowest hazard of all
// (k/(now + k/pooled), with the most time up and no failure), so the walk
// stops at the first such inactive server and weighs the failed ones only
// when every inactive server of the type has failed. Servers for which
// pass holds are walked past (see firstInactive).
func (r *reliability) leastLikelyToFail(l *strategies.Ledger, req protocol.Requirement, visit func(*strategies.Machine), pass func(*strategies.Machine) bool) {
	var rank func(*strategies.Machine) float64 // nil: every server at one rate
	if r.failures > 0 && !r.off {
		if !r.fitted {
			r.fit(l)
		}
		if r.invK > 0 {
			rank = func(m *strategies.Machine) float64 { return r.hazard(l, m) }
		}
	}
	firstInactive(l, req, visit, rank, pass)
}

// failureLoss is what failures of m are expected to add to a job placed
// there that runs d seconds (a failure sends it back to start again from
// nothing), if every attempt ran at m's rate h. With failures a Poisson
// process, the expected time to get d seconds without one is
// (e^(hd) − 1)/h, with e^(hd) − 1 failures on the way: the delay is the
// time beyond d, plus a boot (m's own, as a measure) per failure; the cost
// is the share of the billed cost the attempt adds (extra) spent again on
// that time. Its wait is not counted as at risk: a job failed before it
// starts loses no work, only its place, and is placed again (the boot per
// failure stands for that); counting the wait too made the embedded
// flaky-servers runs worse. The time lost before a failure alone
// (E[T; T < d]) was the first measure: where failure is near-certain it
// is larger on the more reliable server (it fails later), and it sent jobs
// to the flakiest.
func failureLoss(h float64, d int, boot int, extra float64) (cost, delay float64) {
	if h <= 0 || d <= 0 {
		return 0, 0
	}
	x := h * float64(d)
	fails := math.Expm1(min(x, maxRisk))
	if x > maxRisk { // e^x to first order beyond the cap: finite, still rising with h
		fails = (fails+1)*(1+x-maxRisk) - 1
	}
	beyond := float64(d) * (fails/x - 1)
	return extra * beyond / float64(d), beyond + fails*float64(boot)
}

// maxRisk is where failureLoss stops following e^(hd) (which would
// overflow) and goes on in a straight line: a job that far past a
// server's mean time between failures is as good as lost there, and the
// line keeps the more reliable of two such servers the better.
const maxRisk = 30.0
