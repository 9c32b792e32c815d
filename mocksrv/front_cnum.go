package mocksrv

import "math"

// C's conversions of decimal text to int, as ds-server uses them on a
// 64-bit Linux: strtol reads into a 64-bit long (saturating at its range
// on overflow) and the result is stored in a 32-bit int, which keeps its
// low 32 bits. So "4294967297" is 1 and "2147483648" is -2147483648, as
// in the config loader (simconfig), and a number past the 64-bit range is
// LONG_MAX or LONG_MIN, whose low bits are -1 and 0.

// cStrtol is strtol(s, &end, 10) on a 64-bit long: leading white space
// (isspace), an optional sign, decimal digits up to the first non-digit;
// saturated at the long range. ok is false without digits.
func cStrtol(s string) (v int64, ok bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var u uint64
	over := false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if u > (math.MaxUint64-d)/10 {
			over = true
			continue
		}
		u = u*10 + d
	}
	if i == start {
		return 0, false
	}
	switch {
	case neg && (over || u > 1<<63):
		return math.MinInt64, true
	case neg:
		return -int64(u), true
	case over || u > math.MaxInt64:
		return math.MaxInt64, true
	}
	return int64(u), true
}

// CInt is C's (int)strtol(s, NULL, 10), which is also what sscanf's %d
// stores (glibc reads the number with strtol, then converts): the low 32
// bits of the saturated long. ok is false without digits (then v is 0,
// which is also what atoi returns).
func CInt(s string) (v int, ok bool) {
	l, ok := cStrtol(s)
	return int(int32(l)), ok
}

func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
