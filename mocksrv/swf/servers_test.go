package swf

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// TestMachineSize: servers per type come from MaxProcs, else MaxNodes, else
// the largest job, in cores (÷ procs-per-core), between 1 and 1000.
func TestMachineSize(t *testing.T) {
	const jobs = "1 0 0 10 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n2 0 0 10 1 -1 -1 -1 -1 -1 -1 1 1 1 1 1 -1 -1\n"
	for _, c := range []struct {
		name, header string
		ppc          int
		want         string // the limits of c1 c2 c4 (or c1 c2 with ppc 2)
	}{
		{"MaxProcs", "; MaxProcs: 64\n; MaxNodes: 2\n", 1, "64 32 16"},
		{"MaxNodes", "; MaxNodes: 8\n", 1, "8 4 2"},
		{"largest job", "", 1, "4 2 1"},
		{"procs per core", "; MaxProcs: 64\n", 2, "32 16"},
		{"capped", "; MaxProcs: 5000\n", 1, "1000 1000 1000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Parse("m.swf", strings.NewReader(c.header+jobs))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Convert(tr, Options{ProcsPerCore: c.ppc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range r.Servers {
				got = append(got, attrValue(s.Attrs, "limit"))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("limits %v, want %s", got, c.want)
			}
		})
	}
}

// TestSkipsAndCuts: max-jobs keeps the earliest jobs and counts the rest;
// a time beyond ds-sim's int range, and (derived servers) a job over 1024
// cores, are skipped and counted; status -1 (unknown) is kept.
func TestSkipsAndCuts(t *testing.T) {
	trace := "" +
		"1 30 0 10 1 -1 -1 1 -1 -1 -1 1 1 1 1 1 -1 -1\n" +
		"2 10 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n" +
		"3 20 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n" +
		"4 0 0 10 2048 -1 -1 2048 -1 -1 1 1 1 1 1 1 -1 -1\n" +
		"5 3000000000 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"
	tr, err := Parse("s.swf", strings.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Convert(tr, Options{MaxJobs: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Jobs) != 2 || r.Jobs[0].SWFJob != 2 || r.Jobs[1].SWFJob != 3 || r.Jobs[1].Submit != 10 {
		t.Errorf("jobs %+v, want jobs 2 and 3 at 0 and 10", r.Jobs)
	}
	want := []Count{{SkipTooBig, 1}, {SkipTooLate, 1}, {SkipMaxJobs, 1}}
	if len(r.Skipped) != 3 {
		t.Fatalf("skipped %v, want %v", r.Skipped, want)
	}
	for i := range want {
		if r.Skipped[i] != want[i] {
			t.Errorf("skipped %v, want %v", r.Skipped, want)
		}
	}
}

func attrValue(attrs []xml.Attr, name string) string {
	for _, a := range attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// SameConfigXML: two conversions of one trace typed differently are the
// same config; any change outside the header comment is not, and neither
// is a config without the comment that differs from one with it.
func TestSameConfigXML(t *testing.T) {
	load := func(spec string) []byte {
		w, err := Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		return w.ConfigXML()
	}
	small := load("testdata/small.swf")
	other := load("./testdata/../testdata/small.swf")
	if bytes.Equal(small, other) {
		t.Fatal("the header comment does not name the trace as typed")
	}
	edit := func(old, new string) []byte { return bytes.Replace(small, []byte(old), []byte(new), 1) }
	cases := []struct {
		name string
		a, b []byte
		want bool
	}{
		{"itself", small, small, true},
		{"the trace typed another way", small, other, true},
		{"other servers", small, load("testdata/small.swf:servers=testdata/servers.xml"), false},
		{"a server edited", small, edit(`hourlyRate="0.1"`, `hourlyRate="0.5"`), false},
		{"another job file", small, edit(`file="jobs.xml"`, `file="mine.xml"`), false},
		{"the comment removed", small, edit("<!-- ds-sim config", "<!- ds-sim config"), false},
		{"a comment of the user's", []byte("<config/>\n"), []byte("<!-- mine -->\n<config/>\n"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SameConfigXML(c.a, c.b); got != c.want {
				t.Errorf("SameConfigXML = %v, want %v", got, c.want)
			}
		})
	}
}
