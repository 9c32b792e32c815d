package viewer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// quitLog runs a client that puts jobs on big 0 until job 3 is offered,
// then does what last says with it and quits: "QUIT" at once, or "ENQJ GQ"
// first.
func quitLog(t *testing.T, level string, last ...string) []byte {
	send, end := scripted(t, parseFuzzConfig(t), mocksrv.Options{Level: mocksrv.ParseLevel(level)}, "quit")
	for ev := send("REDY"); ev != "NONE"; ev = send("REDY") {
		f := strings.Fields(ev)
		if f[0] != "JOBN" {
			continue
		}
		if f[1] != "3" {
			if r := send("SCHD " + f[1] + " big 0"); r != "OK" { // else offered again and again
				t.Fatalf("SCHD %s: %q", f[1], r)
			}
			continue
		}
		for _, m := range last {
			send(m)
		}
		break
	}
	return end()
}

// A job offered and not placed when the client quits is counted as
// Unplaced, not as Stuck (failed or killed jobs left in the global
// queue): whether the client queued it the log does not say at -v brief,
// and either way it was never in the queue for failing.
func TestParseLogUnplacedAtQuit(t *testing.T) {
	cases := []struct {
		name string
		last []string
	}{
		{"offer unanswered", nil},
		{"queued with ENQJ", []string{"ENQJ GQ"}},
	}
	for _, c := range cases {
		for _, level := range []string{"all", "brief"} {
			t.Run(c.name+" at "+level, func(t *testing.T) {
				r, err := ParseLog("quit.log", bytes.NewReader(quitLog(t, level, c.last...)), parseFuzzConfig(t))
				if err != nil {
					t.Fatal(err)
				}
				if r.Stuck != 0 || r.Unplaced != 1 {
					t.Errorf("Stuck %d, Unplaced %d; want 0 and 1", r.Stuck, r.Unplaced)
				}
			})
		}
	}
}
