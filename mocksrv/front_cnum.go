package mocksrv

import "github.com/dssim-go/dssim-go/mocksrv/simconfig"

// C's conversions of decimal text to int, as ds-server uses them on a
// 64-bit Linux: strtol reads into a 64-bit long (saturating at its range
// on overflow) and the result is stored in a 32-bit int, which keeps its
// low 32 bits. So "4294967297" is 1 and "2147483648" is -2147483648, as
// in the config loader (simconfig), and a number past the 64-bit range is
// LONG_MAX or LONG_MIN, whose low bits are -1 and 0.

// CInt is C's (int)strtol(s, NULL, 10), which is also what sscanf's %d
// stores (glibc reads the number with strtol, then converts): the low 32
// bits of the saturated long. ok is false without digits (then v is 0,
// which is also what atoi returns).
func CInt(s string) (v int, ok bool) {
	l, ok, _ := simconfig.Strtol(s)
	return int(int32(l)), ok
}
