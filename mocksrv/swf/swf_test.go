package swf

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const okLine = "1 0 5 100 4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1"

// TestParseErrors: each bad line is refused with the file, the line and,
// where one is at fault, the field by number and name.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"17 fields", "1 0 5 100 4 90 51200 4 200 102400 1 7 1 3 1 1 -1",
			"t.swf: line 2: 17 fields, want 18"},
		{"19 fields", okLine + " 0", "t.swf: line 2: 19 fields, want 18"},
		{"negative size", "1 0 5 100 -4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1",
			`t.swf: line 2: field 5 (allocated processors): "-4": negative (only -1, unknown, is allowed)`},
		{"negative memory", "1 0 5 100 4 90 51200 4 200 -2 1 7 1 3 1 1 -1 -1",
			`t.swf: line 2: field 10 (requested memory): "-2": negative`},
		{"negative time", "1 -0.5 5 100 4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1",
			`t.swf: line 2: field 2 (submit time): "-0.5": negative`},
		{"not a number", "1 0 5 1O0 4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1",
			`t.swf: line 2: field 4 (run time): "1O0": not a number`},
		{"NaN", "1 0 5 NaN 4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1",
			`field 4 (run time): "NaN": not a number`},
		{"fractional processors", "1 0 5 100 2.5 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1",
			`field 5 (allocated processors): "2.5": not an integer`},
		{"unknown status", "1 0 5 100 4 90 51200 4 200 102400 7 7 1 3 1 1 -1 -1",
			`field 11 (status): "7": unknown status`},
		{"huge", "1 0 5 100 99999999999999999999 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1",
			`field 5 (allocated processors): "99999999999999999999": too large`},
		{"bad header", "; MaxProcs: lots", `t.swf: line 2: header MaxProcs: "lots" is not a non-negative integer`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.swf", strings.NewReader(okLine+"\n"+c.text+"\n"+okLine+"\n"))
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestParseLongLine: a line past the bound is an error, not an allocation
// without end.
func TestParseLongLine(t *testing.T) {
	_, err := Parse("t.swf", strings.NewReader(okLine+"\n"+strings.Repeat("1 ", maxLine)))
	if err == nil || !strings.Contains(err.Error(), "t.swf: line 2: line longer than") {
		t.Fatalf("error %v", err)
	}
}

// TestConvertNothing: a trace whose every line is skipped is an error
// that says so, not an empty workload ds-server would refuse.
func TestConvertNothing(t *testing.T) {
	tr, err := Parse("t.swf", strings.NewReader("; MaxProcs: 4\n1 0 5 100 4 90 51200 4 200 102400 5 7 1 3 1 1 -1 -1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(tr, Options{}, nil); err == nil || !strings.Contains(err.Error(), "t.swf: no job to convert (1 job lines, all skipped)") {
		t.Fatalf("error %v", err)
	}
}

// TestSpecValueList: an option given a list of values is refused with a
// spec per value, the other options kept where they were.
func TestSpecValueList(t *testing.T) {
	for _, c := range []struct {
		spec, value string
		perValue    []string
	}{
		{"t.swf:time-scale=0.5,1", "1", []string{"t.swf:time-scale=0.5", "t.swf:time-scale=1"}},
		{"t.swf:disk=200, time-scale=0.25,0.5,1,offset=5", "0.5",
			[]string{"t.swf:disk=200,time-scale=0.25,offset=5", "t.swf:disk=200,time-scale=0.5,offset=5", "t.swf:disk=200,time-scale=1,offset=5"}},
		{"t.swf.gz:max-jobs=10,20", "20", []string{"t.swf.gz:max-jobs=10", "t.swf.gz:max-jobs=20"}},
	} {
		_, _, err := ParseSpec(c.spec)
		var e *OneValueError
		if !errors.As(err, &e) || e.Value != c.value || !reflect.DeepEqual(e.PerValue, c.perValue) {
			t.Errorf("%s: error %#v, want value %q and %q", c.spec, err, c.value, c.perValue)
			continue
		}
		if want := fmt.Sprintf("swf spec %q: %q is not key=value: trace options take one value each", c.spec, c.value); err.Error() != want {
			t.Errorf("%s: error %q, want %q", c.spec, err, want)
		}
	}
}

// TestSpecEmptyItems: an empty item (a trailing comma, two commas, one of
// blanks) is skipped, as dsbench's -a skips one, not refused as a bare
// value with a per-value suggestion that gives an option "".
func TestSpecEmptyItems(t *testing.T) {
	for _, c := range []struct {
		spec   string
		scale  float64
		offset int
	}{
		{"t.swf:time-scale=0.5,", 0.5, 0},
		{"t.swf:,time-scale=0.5", 0.5, 0},
		{"t.swf:time-scale=0.5,,offset=3", 0.5, 3},
		{"t.swf:time-scale=0.5, ", 0.5, 0},
		{"t.swf:,", 0, 0}, // 0: the default
	} {
		p, o, err := ParseSpec(c.spec)
		if err != nil || p != "t.swf" || o.TimeScale != c.scale || o.Offset != c.offset {
			t.Errorf("%s: %q %+v %v; want time-scale %v, offset %d", c.spec, p, o, err, c.scale, c.offset)
		}
	}
	_, _, err := ParseSpec("t.swf:time-scale=0.5,,1,")
	var e *OneValueError
	if want := []string{"t.swf:time-scale=0.5", "t.swf:time-scale=1"}; !errors.As(err, &e) || !reflect.DeepEqual(e.PerValue, want) {
		t.Errorf("a list with empty items: error %v, want one value each as %q", err, want)
	}
}

// TestSpec: options after the trace's extension, refused by name when bad.
func TestSpec(t *testing.T) {
	p, o, err := ParseSpec("dir/LANL-CM5.swf.gz:procs-per-core=32, time-scale=0.25,max-jobs=500")
	if err != nil || p != "dir/LANL-CM5.swf.gz" || o.ProcsPerCore != 32 || o.TimeScale != 0.25 || o.MaxJobs != 500 {
		t.Fatalf("%q %+v %v", p, o, err)
	}
	for spec, want := range map[string]string{
		"t.swf:procs-per-core=-2":   "procs-per-core=-2: want a positive integer",
		"t.swf:procs-per-core=x":    `procs-per-core="x": not an integer`,
		"t.swf:procs-per-core=0":    "procs-per-core=0: want a positive integer",
		"t.swf:max-jobs=0":          "max-jobs=0: want a positive integer",
		"t.swf:time-scale=0":        `time-scale="0": want a positive number`,
		"t.swf:disk=50":             "disk=50: want at least 100 MB",
		"t.swf:max-jobs=2000000":    "max-jobs=2000000: want 1 to 1000000",
		"t.swf:speed=2":             `swf option "speed" unknown`,
		"t.swf:procs_per_core=2":    `swf option "procs_per_core" unknown (known: procs-per-core time-scale offset disk mem-per-core max-jobs servers job-file); did you mean procs-per-core?`,
		"t.swf:procs-per-core":      `"procs-per-core" is not key=value`,
		"t.swf:job-file=a<b.xml":    "want a file name without",
		"t.swf:offset=-1":           "offset=-1: want seconds from 0",
		"t.swf:mem-per-core=-100":   "mem-per-core=-100: want a positive number of MB",
		"t.swf:time-scale=-1":       `time-scale="-1": want a positive number`,
		"t.swf:offset=99999999999":  "offset=99999999999",
		"t.swf:disk=100,servers=":   "", // an empty servers value means derived
		"x.swf:time-scale=2,disk=1": "disk=1",
	} {
		_, _, err := ParseSpec(spec)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", spec, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), spec) {
			t.Errorf("%s: error %v, want one containing %q and the spec", spec, err, want)
		}
	}
	for arg, want := range map[string]bool{"a.swf": true, "a.swf.gz": true, "a.swf:disk=200": true, "a.xml": false, "swf": false} {
		if IsTrace(arg) != want {
			t.Errorf("IsTrace(%q) = %v", arg, !want)
		}
	}
}
