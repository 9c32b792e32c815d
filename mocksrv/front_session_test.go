package mocksrv

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
)

// TestSessionUnscheduled: the "<n> jobs not scheduled!" of §7.6 comes back
// as Report.Unscheduled: with one job enqueued, one on offer and four never
// released (tinyConfig has six jobs), and with none when every job ran.
func TestSessionUnscheduled(t *testing.T) {
	for _, all := range []bool{false, true} {
		var stderr bytes.Buffer
		s, err := NewSession(tinyConfig(), Options{Stderr: &stderr})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Handshake("u"); err != nil {
			t.Fatal(err)
		}
		running := true
		for i := 0; running && (all || i < 2); i++ {
			ev, err := s.Ready()
			if err != nil {
				t.Fatal(err)
			}
			var a protocol.Action = protocol.Enqueue{}
			switch ev := ev.(type) {
			case *protocol.NoMoreJobs:
				running = false
				continue
			case *protocol.JobOffer:
				if all {
					a = protocol.Schedule{JobID: ev.ID, Server: protocol.ServerRef{Type: "big", ID: 0}}
				}
			default:
				continue
			}
			if all || i == 0 {
				if _, err := s.Do(a); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := s.Quit(); err != nil {
			t.Fatal(err)
		}
		want, line, jobs := 6, "6 jobs not scheduled!\n", 0
		if all {
			want, line, jobs = 0, "", 6
		}
		rep := s.Report()
		if rep.Unscheduled != want || stderr.String() != line || rep.Jobs != jobs {
			t.Errorf("all %v: Unscheduled = %d, stderr %q, %d jobs; want %d, %q, %d",
				all, rep.Unscheduled, stderr.String(), rep.Jobs, want, line, jobs)
		}
	}
}

// TestSessionSystemRefusesNaNRate: a rate ds-server accepts but no client
// can price with (NaN) still simulates, but the System a client reads
// from the ds-system.xml is an error naming the type, not a panic and not
// a System whose costs are all NaN.
func TestSessionSystemRefusesNaNRate(t *testing.T) {
	cfg := tinyConfig()
	cfg.Types[2].HourlyRate = float32(math.NaN()) // "big"; ConfigOrder shares the array
	s, err := NewSession(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sys, err := s.System()
	if err == nil || !strings.Contains(err.Error(), `type "big": attribute hourlyRate="nan" is not a finite number`) {
		t.Fatalf("System() = %v, %v; want the NaN rate of big refused", sys, err)
	}
}
