package libra

import "math"

// The deterministic QoS synthesis of libra.md B.3: ds-sim jobs carry no
// deadline, budget or penalty, so each is derived from a hash of the job's
// fields that LSTJ also reports (id, estimate, cores, memory, disk; never
// the submit time, which a JOBP re-offer changes). The same job therefore
// gets the same QoS in every run and on every server listing, and the
// numbers are bit-exact against D.1 and D.2: every product is wrapped in an
// explicit float64 conversion so that no compiler may fuse a multiply and
// an add (an FMA changes the last bit and can flip a ceil).

// DefaultSeed is "LIBRA" in ASCII, B.3's hash seed.
const DefaultSeed uint64 = 0x4C49425241

// splitmix64 is B.3's mixing function (wrapping unsigned arithmetic).
func splitmix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	z := (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// jobKey chains the job's fields into its key: id first, then estimate,
// cores, memory, disk in that order (D.1's columns).
func jobKey(seed uint64, id, est, cores, mem, disk int) uint64 {
	k := splitmix64(seed ^ uint64(int64(id)))
	for _, v := range [...]int{est, cores, mem, disk} {
		k = splitmix64(k ^ uint64(int64(v)))
	}
	return k
}

// uniform is u_k: the top 53 bits of splitmix64(key+k), in [0, 1).
func uniform(key uint64, k int) float64 {
	return float64(splitmix64(key+uint64(k))>>11) / (1 << 53)
}

// normal is Z(b), Irwin–Hall: u_b + … + u_{b+11} summed in order, minus 6.
func normal(key uint64, b int) float64 {
	s := 0.0
	for k := b; k < b+12; k++ {
		s += uniform(key, k)
	}
	return s - 6.0
}

// QoS is one job's synthesised quality of service (B.3).
type QoS struct {
	High     bool    // high urgency; LibraSLA: a HARD deadline
	RE       int     // max(estRunTime, 1)
	DF       float64 // deadline factor D/RE before the ceil
	D        int     // relative deadline, seconds
	TSU, TD  int     // first-seen submit time and absolute deadline TSU + D
	BF, B    float64 // budget factor and budget ($)
	PF, PR   float64 // penalty factor and penalty rate ($ per second late)
	PBaseRef float64 // the reference base price ($ per core-second) B and PR were scaled by
}

// Hard reports whether the deadline is HARD (LibraSLA, Ch. 4: high urgency).
func (q QoS) Hard() bool { return q.High }

// qosParams are B.9's synthesis parameters, resolved from the preset.
type qosParams struct {
	seed                                     uint64
	pctHigh                                  float64
	dRatio, dLow, bRatio, bLow, pRatio, pLow float64
	dBias, bBias, pBias, avgRuntimeRef       float64
	cv, dMin                                 float64
}

// jobFields is what B.3 hashes plus the first-seen submit time.
type jobFields struct {
	id, tsu, cores, mem, disk, est int
}

// synthesize computes B.3 for one job; pbase is PBase_ref, the cheapest
// per-core-second base price among the types that can run the job.
func (p *qosParams) synthesize(j jobFields, pbase float64) QoS {
	key := jobKey(p.seed, j.id, j.est, j.cores, j.mem, j.disk)
	q := QoS{High: uniform(key, 0) < p.pctHigh/100, RE: max(j.est, 1), TSU: j.tsu, PBaseRef: pbase}
	re := float64(q.RE)
	meanD, meanB, meanP := float64(p.dLow*p.dRatio), p.bLow, p.pLow
	if q.High {
		meanD, meanB, meanP = p.dLow, float64(p.bLow*p.bRatio), float64(p.pLow*p.pRatio)
	}
	q.DF = max(p.dMin, factor(meanD, p.cv, normal(key, 1)))
	q.DF = p.biased(q.DF, p.dBias, re)
	q.D = int(math.Ceil(float64(q.DF * re)))
	q.TD = q.TSU + q.D
	q.BF = p.biased(max(0, factor(meanB, p.cv, normal(key, 13))), p.bBias, re)
	q.B = float64(float64(float64(q.BF*float64(j.cores))*re) * pbase)
	q.PF = p.biased(max(0, factor(meanP, p.cv, normal(key, 25))), p.pBias, re)
	q.PR = float64(float64(q.PF*float64(j.cores)) * pbase)
	return q
}

// factor is mean·(1 + cv·z), each product rounded on its own.
func factor(mean, cv, z float64) float64 {
	return float64(mean * float64(1+float64(cv*z)))
}

// biased applies the optional Ch. 6 bias (A.5.3, B.3): a job longer than
// the reference average runtime gets its factor divided by the bias, a
// shorter one multiplied. The thesis says budget and penalty are biased
// "likewise"; we read that as the same rule. Bias 1 (the default) skips it.
func (p *qosParams) biased(f, bias, re float64) float64 {
	if bias == 1 {
		return f
	}
	if re > p.avgRuntimeRef {
		return float64(f / bias)
	}
	return float64(f * bias)
}
