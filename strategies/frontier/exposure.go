package frontier

import "math"

// exposed tells whether the settled bets' net at now falls short of the
// worst case of those still open (see warmth): net, less the idle time of
// each kept server being powered off (its TERM returned, not yet done:
// the bet lost), against the exposure, the full hold of each open one at
// its rate, added in the order kept.
//
// The exposure is the same term for every server of a type, so it is
// counted per type (the types, not the thousands kept on). That sum is
// rounded otherwise than the one added server by server in the order
// kept, which the decision was made on, by less than margin: outside it
// the two agree, and within it (a bet on the edge) the sum is added in
// the order kept, as before.
func (f *frontier) exposed(now int) bool {
	s := &f.warm.kept
	net := f.warm.net
	for _, k := range s.offs { // its TERM, returned with this decision's, settles its bet as lost (see poweredOff)
		net -= k.idleUntil(now)
	}
	sum, abs, n := 0.0, 0.0, 0
	for _, t := range s.types {
		if open := len(t.list) - t.off; open > 0 {
			x := float64(open) * holdCost(f, t.list[0])
			sum, abs, n = sum+x, abs+math.Abs(x), n+open
		}
	}
	// n terms added in any order are within (n−1)·2⁻⁵³ times the sum of
	// their magnitudes of their exact sum (and the per-type products and
	// their sum here within (types+1)·2⁻⁵³): margin is over twice both,
	// with room for underflow. A NaN or an infinity leaves both
	// comparisons false, for the walk.
	margin := float64(n+len(s.types)+2) * (abs*0x1p-50 + 0x1p-1070)
	switch {
	case net < sum-margin:
		return true
	case net > sum+margin:
		return false
	}
	exposure := 0.0
	for _, k := range s.inOrder() {
		if !k.off {
			exposure += holdCost(f, k)
		}
	}
	return net < exposure
}

// holdCost is what keeping k's server on for a full hold bills, in
// dollars.
func holdCost(f *frontier, k *kept) float64 {
	return float64(f.hold(k.m)) * k.m.Type.HourlyRate / 3600
}
