// Package cfloat prints floating-point numbers as C's printf does, for the
// numbers ds-server writes with "%.2f": rates in ds-system.xml and in 2026
// GETS records, costs and utilisations in its report. It imports nothing
// that does I/O, so the simulator core (mocksrv/engine) can use it.
//
// Go's strconv already rounds as glibc's printf does (the exact binary
// value, half to even on a tie: 0.125 prints 0.12, 0.375 prints 0.38);
// only the spelling of NaN and the infinities differs.
package cfloat

import (
	"math"
	"strconv"
)

// Fixed2 is C's %.2f of x: NaN as nan (-nan with the sign bit set), the
// infinities as inf and -inf, where Go writes NaN, +Inf and -Inf.
func Fixed2(x float64) string {
	return string(AppendFixed2(nil, x))
}

// AppendFixed2 appends Fixed2(x) to b.
func AppendFixed2(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x) && math.Signbit(x):
		return append(b, "-nan"...)
	case math.IsNaN(x):
		return append(b, "nan"...)
	case math.IsInf(x, 1):
		return append(b, "inf"...)
	case math.IsInf(x, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, x, 'f', 2, 64)
}
