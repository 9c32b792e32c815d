package simconfig

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/beevik/etree"
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
	v, digits, over := Strtol(s)
	switch {
	case !digits:
		return 0, cfgNumNoDigits
	case over:
		return 0, cfgNumRange
	}
	return v, cfgNumOK
}

// Strtol is C's strtol(s, &end, 10) on a 64-bit long: leading white space
// (isspace in the "C" locale), an optional sign, decimal digits up to the
// first non-digit; a value beyond the long range saturates at LONG_MAX or
// LONG_MIN with over set (strtol's ERANGE). digits is false when there is
// none (v is then 0). The config loader and the text front (mocksrv.CInt)
// both read numbers with it, as ds-server does.
func Strtol(s string) (v int64, digits, over bool) {
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
	var u uint64
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if u > (math.MaxUint64-d)/10 {
			over = true
			continue
		}
		u = u*10 + d
	}
	if i == start {
		return 0, false, false
	}
	switch {
	case neg && (over || u > 1<<63):
		return math.MinInt64, true, true
	case neg:
		return -int64(u), true, false
	case over || u > math.MaxInt64:
		return math.MaxInt64, true, true
	}
	return int64(u), true, false
}

// cfgInt32 is the C conversion of strtol's long result to an int: the low 32
// bits, reinterpreted as signed ("4294967297" gives 1, job-generation.md §3.1).
func cfgInt32(v int64) int { return int(int32(v)) }

// cfgStrtod reads the longest prefix of s that C strtod accepts (decimal or
// hexadecimal floating point, "inf", "infinity", "nan" with a sign and an
// optional "(chars)") and returns its value.
// It is used for hourlyRate (ds-server.md §2.3), which ds-server stores as a
// 32-bit float.
func cfgStrtod(s string) (float64, cfgNumStatus) {
	v, st, _ := cfgStrtodEnd(s)
	return v, st
}

// cfgStrtodEnd is cfgStrtod, also returning where strtod stops reading.
func cfgStrtodEnd(s string) (float64, cfgNumStatus, int) {
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
		v, st := cfgParseFloat(s[start : i+8])
		return v, st, i + 8
	case strings.HasPrefix(rest, "inf"):
		v, st := cfgParseFloat(s[start : i+3])
		return v, st, i + 3
	case strings.HasPrefix(rest, "nan"):
		// C reads a sign before NAN and an optional "(n-char-sequence)"
		// after it; Go's ParseFloat takes neither, so "-nan" came out as
		// out of range and the config was refused where ds-server runs it.
		v := math.NaN()
		if s[start] == '-' {
			v = math.Copysign(v, -1)
		}
		return v, cfgNumOK, i + 3 + cfgNanChars(s[i+3:])
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
		return 0, cfgNumNoDigits, 0
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
	v, st := cfgParseFloat(text)
	return v, st, i
}

// cfgNanChars is the length of the "(n-char-sequence)" that strtod reads
// after NAN (C11 7.22.1.3: digits, letters and underscores, in
// parentheses), 0 when s does not start with one.
func cfgNanChars(s string) int {
	if !strings.HasPrefix(s, "(") {
		return 0
	}
	for j := 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == ')':
			return j + 1
		case c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z':
		default:
			return 0
		}
	}
	return 0
}

func cfgParseFloat(text string) (float64, cfgNumStatus) {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// Only ErrRange is possible here: the text was scanned above.
		return 0, cfgNumRange
	}
	return v, cfgNumOK
}

// cfgNumberAttrs are the attributes ds-server reads as numbers, by element
// (ds-server.md §2.2–§2.6); hourlyRate with strtod, the others with strtol.
var cfgNumberAttrs = map[string][]string{
	"config":    {"randomSeed"},
	"servers":   {"failureTimeGrain"},
	"server":    {"limit", "bootupTime", "hourlyRate", "cores", "memory", "disk"},
	"job":       {"minRunTime", "maxRunTime", "populationRate"},
	"workload":  {"minLoad", "maxLoad", "avgLowTime", "avgHighTime", "avgTransitTime"},
	"condition": {"value"},
}

// NumberWarnings lists what is odd in the numbers of a configuration (data,
// read from path) that ds-server and the loader still accept, naming the
// file, the element and the attribute of each: a number with text after it
// (ds-server reads cores="2x" as 2 without a word, strtol stopping at the
// first non-digit, §2.1; most likely a typo) and an hourlyRate that is NaN
// or infinite as ds-server stores it (cfgRateWarning). Trailing blanks are
// not reported. The document is assumed to have loaded (LoadConfig); one
// that does not parse gives no warnings.
func NumberWarnings(path string, data []byte) []string {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(bytes.TrimPrefix(data, cfgBOM)); err != nil {
		return nil
	}
	var out []string
	seen := map[string]int{}
	var visit func(e *etree.Element)
	visit = func(e *etree.Element) {
		if attrs, ok := cfgNumberAttrs[e.Tag]; ok && e.Space == "" {
			seen[e.Tag]++
			for _, name := range attrs {
				if raw, ok := cfgAttr(e, name); ok {
					for _, w := range cfgNumberWarnings(name, raw) {
						out = append(out, fmt.Sprintf("%s: %s: attribute %s: %q %s", path, cfgElemName(e, seen[e.Tag]), name, raw, w))
					}
				}
			}
		}
		for _, c := range e.ChildElements() {
			visit(c)
		}
	}
	visit(&doc.Element)
	return out
}

// cfgNumberWarnings is what NumberWarnings says of one attribute's value,
// each a predicate on the quoted value.
func cfgNumberWarnings(attr, raw string) []string {
	var out []string
	if used, rest := cfgNumberPrefix(attr, raw); rest != "" {
		out = append(out, fmt.Sprintf("is read as %s, as ds-server does (it ignores %q)", used, rest))
	}
	if attr == "hourlyRate" {
		if w := cfgRateWarning(raw); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// cfgRateWarning says when a rate is NaN or infinite once stored as
// ds-server stores it, a 32-bit float ("nan", "inf", or "1e39", beyond the
// range): ds-server runs such a config (only 0 and -1 are refused, §2.3),
// and so does the simulator, which must match it, but every cost on the
// type is NaN or infinite, and clients refuse the rate in the
// ds-system.xml (servertypes.Parse), so the user hears it before the run.
func cfgRateWarning(raw string) string {
	v, st := cfgStrtod(raw)
	if st != cfgNumOK {
		return ""
	}
	stored := float64(float32(v))
	what := "is NaN"
	switch {
	case math.IsInf(stored, 0) && !math.IsInf(v, 0):
		what = "is infinite as ds-server stores it (a 32-bit float)"
	case math.IsInf(stored, 0):
		what = "is infinite"
	case !math.IsNaN(stored):
		return ""
	}
	return what + ": ds-server runs the config, but every cost on the type is NaN or infinite, and dsclient and dsbench refuse such a rate"
}

// NumberWarningsFile is NumberWarnings of the file at path: what every
// command that reads a config prints as warnings. A file that cannot be
// read gives none (its loading says why).
func NumberWarningsFile(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return NumberWarnings(path, data)
}

// cfgNumberPrefix splits raw into the number ds-server reads and the text
// it ignores after it (trailing blanks dropped); rest is "" when there is
// no number (the loader reports that) or nothing after it.
func cfgNumberPrefix(attr, raw string) (used, rest string) {
	var st cfgNumStatus
	var end int
	if attr == "hourlyRate" {
		_, st, end = cfgStrtodEnd(raw)
	} else {
		_, st = cfgStrtol(raw)
		end = cfgStrtolEnd(raw)
	}
	if st != cfgNumOK {
		return "", ""
	}
	rest = strings.TrimRight(raw[end:], " \t\n\v\f\r")
	if rest == "" {
		return "", ""
	}
	return strings.TrimSpace(raw[:end]), rest
}

// cfgStrtolEnd is where strtol stops reading s (see cfgStrtol).
func cfgStrtolEnd(s string) int {
	i := 0
	for i < len(s) && cfgIsSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// cfgElemName names an element as the loader's messages do: "<server> 2
// (medium)", "<workload>".
func cfgElemName(e *etree.Element, k int) string {
	switch e.Tag {
	case "config", "servers", "workload":
		return "<" + e.Tag + ">"
	}
	name := fmt.Sprintf("<%s> %d", e.Tag, k)
	if t, ok := cfgAttr(e, "type"); ok {
		name += " (" + t + ")"
	}
	return name
}
