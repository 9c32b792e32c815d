package swf

import (
	"reflect"
	"strings"
	"testing"
)

// TestNotes: the report says every skip, the capped actMemory, the jobs
// whose estimate is their run time, and, for derived servers only, the
// cluster's cores against the machine the trace ran on (MaxProcs 16 here;
// every type has the machine's cores: 16+16+16+16+16+32 = 112).
func TestNotes(t *testing.T) {
	skips := []string{"skipped 1: cancelled (status 5)", "skipped 1: partial execution line (status 2, 3 or 4)",
		"skipped 1: no submit time", "skipped 1: no run time", "skipped 1: no processor count"}
	const capped = "actMemory capped at the request for 1 jobs that used more than they asked for"
	const noReq = "2 jobs had no requested time: their estimate is their run time"
	for _, c := range []struct {
		name    string
		noMax   bool // the header's MaxProcs left out
		o       Options
		servers string
		want    []string
	}{
		{"derived", false, Options{}, "", append(skips, capped, noReq,
			"derived cluster: 112 cores (6 server types, each sized to the whole machine) against the trace's MaxProcs 16")},
		// Cores 1, 1, 1, 8 and 1: c1 c2 c4 c8, 4 cores of each but c8's one server.
		{"procs per core", false, Options{ProcsPerCore: 4}, "", append(skips, capped, noReq,
			"derived cluster: 20 cores (4 server types, each sized to the whole machine) against the trace's MaxProcs 16, 4 cores at procs-per-core=4")},
		{"no MaxProcs", true, Options{}, "", append(skips, capped, noReq,
			"derived cluster: 192 cores (6 server types, each sized to the whole machine) against the largest job's 32 processors (no MaxProcs or MaxNodes in the header)")},
		{"given servers", false, Options{}, "testdata/servers.xml", append(skips, "skipped 1: larger than the largest server type", capped, noReq)},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := ReadFile("testdata/small.swf")
			if err != nil {
				t.Fatal(err)
			}
			if c.noMax {
				tr.Header.MaxProcs = 0
			}
			var servers []Server
			if c.servers != "" {
				if servers, err = ReadServers(c.servers); err != nil {
					t.Fatal(err)
				}
			}
			r, err := Convert(tr, c.o, servers)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Notes(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("notes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestNotesNothingSkipped: a trace that keeps every line says so.
func TestNotesNothingSkipped(t *testing.T) {
	tr, err := Parse("t.swf", strings.NewReader("; MaxProcs: 4\n"+okLine+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Convert(tr, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"skipped: none", "derived cluster: 4 cores (1 server types, each sized to the whole machine) against the trace's MaxProcs 4"}
	if got := r.Notes(); !reflect.DeepEqual(got, want) {
		t.Errorf("notes %q, want %q", got, want)
	}
}

// TestNotesMemoryChanged: a job's memory capped at what a ds-sim attribute
// holds, or raised to the 100 MB a GETS needs, is said (it was changed
// without a word).
func TestNotesMemoryChanged(t *testing.T) {
	huge := "2 10 5 100 4 90 -1 4 200 999999999999 1 7 1 3 1 1 -1 -1" // 4 × ~1 PB per processor
	tiny := "3 20 5 100 4 90 -1 4 200 10 1 7 1 3 1 1 -1 -1"           // 4 × 10 KB
	tr, err := Parse("t.swf", strings.NewReader("; MaxProcs: 4\n"+okLine+"\n"+huge+"\n"+tiny+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Convert(tr, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Jobs[1].Memory != 2147483647 || r.Jobs[2].Memory != 100 {
		t.Fatalf("memory %d and %d, want 2147483647 and 100", r.Jobs[1].Memory, r.Jobs[2].Memory)
	}
	notes := strings.Join(r.Notes(), "\n")
	for _, want := range []string{
		"memory capped at 2147483647 MB, the most a ds-sim attribute holds, for 1 jobs that asked for (or used) more",
		"memory raised to 100 MB, the least GETS accepts, for 1 jobs that asked for less",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes:\n%s\nwant a line %q", notes, want)
		}
	}
}
