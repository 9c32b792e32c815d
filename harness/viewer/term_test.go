package viewer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// termLog runs a client that puts every job on big 0 and switches it off
// (TERM) whenever it empties, so it boots again for the next job.
func termLog(t *testing.T, cfg *mocksrv.Config, level string) []byte {
	send, end := scripted(t, cfg, mocksrv.Options{Level: mocksrv.ParseLevel(level)}, "term")
	on := 0
	for ev := send("REDY"); ev != "NONE"; ev = send("REDY") {
		f := strings.Fields(ev)
		switch f[0] {
		case "JOBN", "JOBP":
			send("SCHD " + f[1] + " big 0")
			on++
		case "JCPL":
			if on--; on == 0 {
				if r := send("TERM big 0"); r != "0 jobs killed" {
					t.Fatalf("TERM: %q", r)
				}
			}
		}
	}
	return end()
}

// A server switched off and booted again: -v all shows the TERM, so its
// power periods and the cost are exact; -v brief does not, and the
// viewer takes it as off after its last job, which here is the TERM's
// time (the client sends it at the completion), so the cost is exact too,
// and the page says what was assumed.
func TestParseLogTerm(t *testing.T) {
	// Jobs of at most 20 s, so big 0 empties between them.
	cfg, err := mocksrv.ParseConfig("term.xml", []byte(strings.Replace(fuzzConfig, `maxRunTime="300"`, `maxRunTime="20"`, 1)), mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []string{"all", "brief"} {
		r, err := ParseLog(level+".log", bytes.NewReader(termLog(t, cfg, level)), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var big Server
		for _, s := range r.Servers {
			if r.Types[s.Type].Name == "big" {
				big = s
			}
		}
		if len(big.Power) < 2 || big.Power[0].Off < 0 {
			t.Errorf("%s: big 0's power %+v: want several periods, the first switched off", level, big.Power)
		}
		if FormatCost(r.TotalCost) != r.LogCost || FormatCost(r.Cost[len(r.Cost)-1].V) != r.LogCost {
			t.Errorf("%s: cost %s (curve %.4f), log %s", level, FormatCost(r.TotalCost), r.Cost[len(r.Cost)-1].V, r.LogCost)
		}
		if noted := len(r.Notes) > 0 && strings.Contains(r.Notes[0], "TERM"); noted != (level == "brief") {
			t.Errorf("%s: notes %q", level, r.Notes)
		}
	}
}
