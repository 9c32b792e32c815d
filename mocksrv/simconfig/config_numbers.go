package simconfig

import (
	"math"
	"strconv"
	"strings"
)

// cfgNumStatus is the outcome of reading a number the way ds-server does.
type cfgNumStatus int

const (
	cfgNumOK       cfgNumStatus = iota
	cfgNumNoDigits              // ds-server: "No digits were found!"
	cfgNumRange                 // strtol/strtod set ERANGE
)

// cfgNoDigitsLine is what ds-server prints for a number without digits
// (ds-server.md §2.1).
const cfgNoDigitsLine = "No digits were found!"

// cfgRangeLine is what we print when strtol/strtod report ERANGE. ds-server
// follows the classic strtol(3) idiom (perror then fail); the exact text is
// glibc's perror output for ERANGE. Not verified against the reference
// (job-generation.md §3.1 only says such a value is an error).
func cfgRangeLine(fn string) string { return fn + ": Numerical result out of range" }

// cfgIsSpace is C isspace() in the "C" locale.
func cfgIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// cfgStrtol reads s like C strtol(s, &end, 10) on a 64-bit long
// (job-generation.md §3.1): leading white space, an optional sign, decimal
// digits up to the first non-digit ("12abc" gives 12). No digits, or a value
// beyond the 64-bit range, is reported through the status.
func cfgStrtol(s string) (int64, cfgNumStatus) {
	i := 0
	for i < len(s) && cfgIsSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var v uint64
	over := false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			over = true
			continue
		}
		v = v*10 + d
	}
	if i == start {
		return 0, cfgNumNoDigits
	}
	if over || (!neg && v > math.MaxInt64) || (neg && v > 1<<63) {
		return 0, cfgNumRange
	}
	if neg {
		return -int64(v), cfgNumOK
	}
	return int64(v), cfgNumOK
}

// cfgInt32 is the C conversion of strtol's long result to an int: the low 32
// bits, reinterpreted as signed ("4294967297" gives 1, job-generation.md §3.1).
func cfgInt32(v int64) int { return int(int32(v)) }

// cfgStrtod reads the longest prefix of s that C strtod accepts (decimal or
// hexadecimal floating point, "inf", "infinity", "nan") and returns its value.
// It is used for hourlyRate (ds-server.md §2.3), which ds-server stores as a
// 32-bit float.
func cfgStrtod(s string) (float64, cfgNumStatus) {
	i := 0
	for i < len(s) && cfgIsSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return cfgParseFloat(s[start : i+8])
	case strings.HasPrefix(rest, "inf"), strings.HasPrefix(rest, "nan"):
		return cfgParseFloat(s[start : i+3])
	}
	isDigit := func(c byte, hex bool) bool {
		if c >= '0' && c <= '9' {
			return true
		}
		c |= 0x20
		return hex && c >= 'a' && c <= 'f'
	}
	hex := false
	if len(rest) >= 3 && rest[0] == '0' && rest[1] == 'x' && (isDigit(rest[2], true) || (rest[2] == '.' && len(rest) > 3 && isDigit(rest[3], true))) {
		hex = true
		i += 2
	}
	digits := 0
	for i < len(s) && isDigit(s[i], hex) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i], hex) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, cfgNumNoDigits
	}
	// An exponent counts only when at least one digit follows it.
	expChar := byte('e')
	if hex {
		expChar = 'p'
	}
	if i < len(s) && s[i]|0x20 == expChar {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	text := s[start:i]
	if hex && !strings.ContainsAny(text, "pP") {
		text += "p0" // Go wants a binary exponent on hexadecimal floats
	}
	return cfgParseFloat(text)
}

func cfgParseFloat(text string) (float64, cfgNumStatus) {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// Only ErrRange is possible here: the text was scanned above.
		return 0, cfgNumRange
	}
	return v, cfgNumOK
}
