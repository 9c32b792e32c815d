package protocol

import (
	"math"
	"strconv"

	"github.com/dssim-go/dssim-go/protocol/cfloat"
)

// The hourly rate of a 2026 GETS record (ds-server-2026: the third field,
// C's %.2f of the type's 32-bit rate).

// FormatRate writes a rate as ds-server does, with C's %.2f
// (cfloat.Fixed2): 0.125 is 0.12, NaN is nan or -nan, infinity inf.
func FormatRate(x float64) string { return cfloat.Fixed2(x) }

// parseRate reads a rate exactly as FormatRate writes one: an optional
// '-', then digits, a point and two digits, or nan or inf. Anything else
// (a sign '+', an exponent, another count of decimals) is not a rate
// ds-server could have sent, so a record holding it is refused rather than
// read by a guess.
func parseRate(tok string) (float64, bool) {
	neg := len(tok) > 0 && tok[0] == '-'
	body := tok
	if neg {
		body = tok[1:]
	}
	switch body {
	case "nan":
		return math.Copysign(math.NaN(), sign(neg)), true
	case "inf":
		return math.Inf(int(sign(neg))), true
	}
	if !isFixed2(body) {
		return 0, false
	}
	v, err := strconv.ParseFloat(tok, 64)
	return v, err == nil
}

// isFixed2 reports whether s is digits, a point and two digits.
func isFixed2(s string) bool {
	n := len(s)
	if n < 4 || s[n-3] != '.' {
		return false
	}
	for i := 0; i < n; i++ {
		if i != n-3 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

func sign(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}
