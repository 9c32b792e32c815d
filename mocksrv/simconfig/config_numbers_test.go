package simconfig

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCfgStrtol: C strtol base 10 (job-generation.md §3.1), then the int
// conversion.
func TestCfgStrtol(t *testing.T) {
	cases := []struct {
		in   string
		v    int64
		st   cfgNumStatus
		as32 int
	}{
		{"12", 12, cfgNumOK, 12},
		{"12abc", 12, cfgNumOK, 12},
		{"  +77abc", 77, cfgNumOK, 77},
		{"\t\n\v\f\r -5", -5, cfgNumOK, -5},
		{"-0", 0, cfgNumOK, 0},
		{"007", 7, cfgNumOK, 7},
		{"4294967297", 4294967297, cfgNumOK, 1},
		{"2147483648", 2147483648, cfgNumOK, -2147483648},
		{"9223372036854775807", math.MaxInt64, cfgNumOK, -1},
		{"-9223372036854775808", math.MinInt64, cfgNumOK, 0},
		{"9223372036854775808", 0, cfgNumRange, 0},
		{"-9223372036854775809", 0, cfgNumRange, 0},
		{"99999999999999999999999", 0, cfgNumRange, 0},
		{"", 0, cfgNumNoDigits, 0},
		{"abc", 0, cfgNumNoDigits, 0},
		{"+", 0, cfgNumNoDigits, 0},
		{"- 5", 0, cfgNumNoDigits, 0},
		{"0x10", 0, cfgNumOK, 0},
		{"1e3", 1, cfgNumOK, 1},
	}
	for _, tc := range cases {
		v, st := cfgStrtol(tc.in)
		if v != tc.v || st != tc.st {
			t.Errorf("cfgStrtol(%q) = %d, %d; want %d, %d", tc.in, v, st, tc.v, tc.st)
		}
		if st == cfgNumOK && cfgInt32(v) != tc.as32 {
			t.Errorf("cfgInt32(%d) = %d, want %d", v, cfgInt32(v), tc.as32)
		}
	}
}

// TestCfgStrtod: the prefix C strtod accepts.
func TestCfgStrtod(t *testing.T) {
	cases := []struct {
		in string
		v  float64
		st cfgNumStatus
	}{
		{"0.2", 0.2, cfgNumOK},
		{" 25.6", 25.6, cfgNumOK},
		{"-1", -1, cfgNumOK},
		{"+.5", 0.5, cfgNumOK},
		{"5.", 5, cfgNumOK},
		{"1e3", 1000, cfgNumOK},
		{"1e", 1, cfgNumOK},
		{"1e+", 1, cfgNumOK},
		{"2.5E-1x", 0.25, cfgNumOK},
		{"0x10", 16, cfgNumOK},
		{"0x1p3", 8, cfgNumOK},
		{"0x", 0, cfgNumOK},
		{"0.1abc", 0.1, cfgNumOK},
		{"INF", math.Inf(1), cfgNumOK},
		{"-infinity", math.Inf(-1), cfgNumOK},
		{"1e999", 0, cfgNumRange},
		{"", 0, cfgNumNoDigits},
		{".", 0, cfgNumNoDigits},
		{"-", 0, cfgNumNoDigits},
		{"abc", 0, cfgNumNoDigits},
		{"e5", 0, cfgNumNoDigits},
	}
	for _, tc := range cases {
		v, st := cfgStrtod(tc.in)
		if v != tc.v || st != tc.st {
			t.Errorf("cfgStrtod(%q) = %v, %d; want %v, %d", tc.in, v, st, tc.v, tc.st)
		}
	}
	if v, st := cfgStrtod("nan"); st != cfgNumOK || !math.IsNaN(v) {
		t.Errorf("cfgStrtod(nan) = %v, %d", v, st)
	}
}

// TestCfgStrtodNaN: C strtod reads NAN whatever its case, after a sign
// (which the NaN keeps) and with an optional "(n-char-sequence)" after it
// (C11 7.22.1.3); reading stops after what it took.
func TestCfgStrtodNaN(t *testing.T) {
	for _, c := range []struct {
		in  string
		neg bool
		end int
	}{
		{"nan", false, 3},
		{"NaN", false, 3},
		{" +nan", false, 5},
		{"-nan", true, 4},
		{"-NAN", true, 4},
		{"nan(1)", false, 6},
		{"nan(0x_Ab)x", false, 10},
		{"-nan()", true, 6},
		{"nan(1", false, 3},
		{"nan(1 2)", false, 3},
		{"nan)", false, 3},
	} {
		v, st, end := cfgStrtodEnd(c.in)
		if st != cfgNumOK || !math.IsNaN(v) || math.Signbit(v) != c.neg || end != c.end {
			t.Errorf("cfgStrtodEnd(%q) = %v (sign bit %v), %d, end %d; want NaN (sign bit %v), OK, end %d",
				c.in, v, math.Signbit(v), st, end, c.neg, c.end)
		}
	}
}

// TestTrailingGarbage: NumberWarnings names every number attribute with
// text after its number (read as ds-server reads it, which LoadConfig also
// does), and nothing else: clean values, trailing blanks, values without
// digits (the loader's error) and attributes that are not numbers.
func TestTrailingGarbage(t *testing.T) {
	doc := `<?xml version="1.0"?>
<config randomSeed="1024x">
  <servers failureTimeGrain="300">
    <server type="tiny" limit="2" bootupTime="60 " hourlyRate="0.4$" cores="2x" memory="4000" disk="16000" />
    <server type="big" limit="1" bootupTime="0" hourlyRate="1e2" cores="8" memory="32000MB" disk="64000" />
  </servers>
  <jobs>
    <job type="short" minRunTime="1" maxRunTime="300s" populationRate="60" />
  </jobs>
  <workload type="alternating" minLoad="10" maxLoad="90" avgLowTime="abc" />
  <termination>
    <condition type="endtime" value="604800" />
    <condition type="jobcount" value="100 jobs" />
  </termination>
</config>`
	want := []string{
		`c.xml: <config>: attribute randomSeed: "1024x" is read as 1024, as ds-server does (it ignores "x")`,
		`c.xml: <server> 1 (tiny): attribute hourlyRate: "0.4$" is read as 0.4, as ds-server does (it ignores "$")`,
		`c.xml: <server> 1 (tiny): attribute cores: "2x" is read as 2, as ds-server does (it ignores "x")`,
		`c.xml: <server> 2 (big): attribute memory: "32000MB" is read as 32000, as ds-server does (it ignores "MB")`,
		`c.xml: <job> 1 (short): attribute maxRunTime: "300s" is read as 300, as ds-server does (it ignores "s")`,
		`c.xml: <condition> 2 (jobcount): attribute value: "100 jobs" is read as 100, as ds-server does (it ignores " jobs")`,
	}
	got := NumberWarnings("c.xml", []byte(doc))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if w := NumberWarnings("c.xml", []byte("<config")); w != nil {
		t.Errorf("a document that does not parse: %q", w)
	}
}

// TestNumberWarningsRate: a rate that is NaN or infinite as ds-server
// stores it (a 32-bit float) is named, however it is spelled, and with a
// typo after it both are said; finite rates, 0 and negatives included,
// are not.
func TestNumberWarningsRate(t *testing.T) {
	const tail = ": ds-server runs the config, but every cost on the type is NaN or infinite, and dsclient and dsbench refuse such a rate"
	for _, c := range []struct{ rate, want string }{
		{"0.4", ""},
		{"0", ""},
		{"-2", ""},
		{"3.4e38", ""},
		{"1e400", ""}, // out of range for strtod: the loader refuses it
		{"nan", `"nan" is NaN` + tail},
		{"-NaN(7)", `"-NaN(7)" is NaN` + tail},
		{"inf", `"inf" is infinite` + tail},
		{"-Infinity", `"-Infinity" is infinite` + tail},
		{"1e39", `"1e39" is infinite as ds-server stores it (a 32-bit float)` + tail},
		{"nanx", `"nanx" is read as nan, as ds-server does (it ignores "x")` + "\n" + `c.xml: <server> 1 (a): attribute hourlyRate: "nanx" is NaN` + tail},
	} {
		got := NumberWarnings("c.xml", []byte(`<config><servers><server type="a" hourlyRate="`+c.rate+`" cores="1"/></servers></config>`))
		want := ""
		if c.want != "" {
			want = `c.xml: <server> 1 (a): attribute hourlyRate: ` + c.want
		}
		if g := strings.Join(got, "\n"); g != want {
			t.Errorf("hourlyRate=%q:\n got %s\nwant %s", c.rate, g, want)
		}
	}
}

// FuzzTrailingGarbage: whatever a number attribute holds, the warning is
// given exactly when strtol reads a number and non-blank text follows it,
// and it names the number strtol reads; whatever the document, no panic.
func FuzzTrailingGarbage(f *testing.F) {
	for _, s := range []string{"2", "2x", " 2 ", "x2", "", "-3kg", "99999999999999999999", "+7\t", "0x10"} {
		f.Add(s, `<config><servers><server type="a" cores="`)
	}
	f.Fuzz(func(t *testing.T, value, doc string) {
		NumberWarnings("f.xml", []byte(doc)) // arbitrary documents: no panic
		if strings.ContainsAny(value, "<&\"") || !utf8.ValidString(value) || strings.ContainsFunc(value, func(r rune) bool {
			return r < 0x20 || r == 0xFFFE || r == 0xFFFF
		}) {
			return // not an attribute value XML carries unchanged
		}
		w := NumberWarnings("f.xml", []byte(`<config><servers><server type="a" cores="`+value+`"/></servers></config>`))
		n, st := cfgStrtol(value)
		rest := strings.TrimRight(value[cfgStrtolEnd(value):], " \t\n\v\f\r")
		if want := st == cfgNumOK && rest != ""; want != (len(w) == 1) || len(w) > 1 {
			t.Fatalf("%q: warnings %q, want one: %v", value, w, want)
		}
		if len(w) == 1 && !strings.Contains(w[0], fmt.Sprintf("is read as %s,", strings.TrimSpace(value[:cfgStrtolEnd(value)]))) {
			t.Fatalf("%q (strtol %d): %q", value, n, w[0])
		}
	})
}
