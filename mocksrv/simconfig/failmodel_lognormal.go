package simconfig

import "math"

// lognormal is the private generator of failure-models.md §4: a Park–Miller
// "minimal standard" state feeding Wichura's AS 241 inverse normal. Each
// time series and the node shares have their own, seeded with one draw of
// the glibc stream, so they never touch that stream.
type lognormal struct {
	u         int64
	mu, sigma float64
}

// next is one sample (§4.2): advance, uniform, Φ⁻¹, exp(μ + σz).
func (l *lognormal) next() float64 {
	l.u = 16807 * l.u % 2147483647
	p := float64(l.u) * 4.656612875e-10 // not 1/(2^31-1): the reference's constant
	return math.Exp(l.mu + l.sigma*ppnd16(p))
}

// The coefficients of AS 241 (§4.2), constant term first.
var (
	as241A = [8]float64{3.3871328727963666080, 1.3314166789178437745e+2, 1.9715909503065514427e+3, 1.3731693765509461125e+4,
		4.5921953931549871457e+4, 6.7265770927008700853e+4, 3.3430575583588128105e+4, 2.5090809287301226727e+3}
	as241B = [8]float64{1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2, 5.3941960214247511077e+3,
		2.1213794301586595867e+4, 3.9307895800092710610e+4, 2.8729085735721942674e+4, 5.2264952788528545610e+3}
	as241C = [8]float64{1.42343711074968357734, 4.63033784615654529590, 5.76949722146069140550, 3.64784832476320460504,
		1.27045825245236838258, 2.41780725177450611770e-1, 2.27238449892691845833e-2, 7.74545014278341407640e-4}
	as241D = [8]float64{1.0, 2.05319162663775882187, 1.67638483018380384940, 6.89767334985100004550e-1,
		1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4, 1.05075007164441684324e-9}
	as241E = [8]float64{6.65790464350110377720, 5.46378491116411436990, 1.78482653991729133580, 2.96560571828504891230e-1,
		2.65321895265761230930e-2, 1.24266094738807843860e-3, 2.71155556874348757815e-5, 2.01033439929228813265e-7}
	as241F = [8]float64{1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
		7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7, 2.04426310338993978564e-15}
)

// horner evaluates a degree-7 polynomial from the highest coefficient,
// each product and sum rounded on its own: float64() forbids the fused
// multiply-add Go may otherwise use, which the reference does not.
func horner(c *[8]float64, r float64) float64 {
	v := c[7]
	for i := 6; i >= 0; i-- {
		v = float64(v*r) + c[i]
	}
	return v
}

// ppnd16 is Φ⁻¹(p), AS 241 exactly as §4.2 gives it.
func ppnd16(p float64) float64 {
	if p <= 0 {
		return -1.79769313486231571e308 // only for a state of 0 (§9)
	}
	q := p - 0.5
	if math.Abs(q) <= 0.425 {
		r := 0.180625 - float64(q*q)
		return float64(q*horner(&as241A, r)) / horner(&as241B, r)
	}
	r := p
	if q >= 0 {
		r = 1 - p
	}
	r = math.Sqrt(-math.Log(r))
	var z float64
	if r <= 5 {
		r -= 1.6
		z = horner(&as241C, r) / horner(&as241D, r)
	} else {
		r -= 5
		z = horner(&as241E, r) / horner(&as241F, r)
	}
	if q < 0 {
		z = -z
	}
	return z
}

// tolerantSort orders slots 0..len(v)-1 by the reference's qsort (§5.3):
// glibc's top-down merge sort with a comparison that truncates the
// difference of the two values to an int, so values closer than 1.0 are
// "equal" and keep the earlier half first. The relation is not transitive:
// only this exact algorithm gives the reference's order.
func tolerantSort(v []float64) []int32 {
	a := make([]slotValue, len(v))
	for i, x := range v {
		a[i] = slotValue{x, int32(i)}
	}
	tolerantMerge(a, make([]slotValue, len(v)))
	idx := make([]int32, len(v))
	for i, sv := range a {
		idx[i] = sv.slot
	}
	return idx
}

// slotValue keeps a slot's value beside its number, so the merges read
// memory in order instead of indexing the values by slot at random.
type slotValue struct {
	v    float64
	slot int32
}

// tolerantMerge sorts a in place, using tmp (same length) as scratch.
func tolerantMerge(a, tmp []slotValue) {
	n := len(a)
	if n <= 1 {
		return
	}
	n1 := n / 2
	tolerantMerge(a[:n1], tmp[:n1])
	tolerantMerge(a[n1:], tmp[n1:])
	x, y, k := a[:n1], a[n1:], 0
	for len(x) > 0 && len(y) > 0 {
		if y[0].v-x[0].v >= 1.0 { // (int)(right - left) > 0
			tmp[k] = y[0]
			y = y[1:]
		} else {
			tmp[k] = x[0]
			x = x[1:]
		}
		k++
	}
	// What is left of y is already in place at the end of a.
	k += copy(tmp[k:], x)
	copy(a, tmp[:k])
}
