package simconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// FuzzFailureTrace: failtraceParse never panics; a trace that parses has
// valid records, writes out and reads back identically, and gives 2n+1
// failure events in time order.
func FuzzFailureTrace(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(fixtures.Dir(f), "fixtures", "ds-sample-config05-failures", "failures.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("# c\n\n0 1 tiny 0\n"))
	f.Add([]byte("0 5 a 1 3 3 b 0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, lines, e := failtraceParse("f.txt", data)
		if e != nil {
			if len(e.Stderr) != 1 || !strings.HasPrefix(e.Error(), "f.txt: line ") || strings.Contains(e.Error(), "\n") {
				t.Fatalf("bad error %#v", e)
			}
			return
		}
		if len(lines) != len(recs) {
			t.Fatalf("%d lines for %d records", len(lines), len(recs))
		}
		var b strings.Builder
		limits := map[string]int{}
		var types []ServerType
		for i, r := range recs {
			if r.Start < 0 || r.End < r.Start || r.Type == "" || (i > 0 && lines[i] < lines[i-1]) {
				t.Fatalf("record %d: %+v line %d", i, r, lines[i])
			}
			fmt.Fprintf(&b, "%d %d %s %d\n", r.Start, r.End, r.Type, r.ID)
			if _, ok := limits[r.Type]; !ok {
				types = append(types, ServerType{Name: r.Type})
				limits[r.Type] = 0
			}
			limits[r.Type] = max(limits[r.Type], r.ID+1)
		}
		back, _, e := failtraceParse("g.txt", []byte(b.String()))
		if e != nil || len(back) != len(recs) {
			t.Fatalf("written trace does not read back: %v", e)
		}
		for i := range back {
			if back[i] != recs[i] {
				t.Fatalf("record %d: %+v, want %+v", i, back[i], recs[i])
			}
		}
		if len(types) == 0 {
			return
		}
		for i := range types {
			types[i].Limit = max(1, limits[types[i].Name])
		}
		if e := failtraceCheck("f.txt", recs, lines, types); e != nil && !strings.Contains(e.Msg, "outside") {
			t.Fatalf("check: %v", e)
		}
		c := &Config{FailureFile: "f.txt", Types: types, Failures: recs}
		ev := c.FailureEvents()
		if len(ev) != 2*len(recs)+1 {
			t.Fatalf("%d events for %d records", len(ev), len(recs))
		}
		phantoms := 0
		for i, x := range ev {
			if i > 0 && x.Time < ev[i-1].Time {
				t.Fatalf("events out of order at %d", i)
			}
			if x.Phantom {
				phantoms++
				if i+1 < len(ev) && ev[i+1].Time == 0 {
					t.Fatalf("phantom before a real time-0 event")
				}
			}
		}
		if phantoms != 1 {
			t.Fatalf("%d phantoms", phantoms)
		}
	})
}
