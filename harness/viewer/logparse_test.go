package viewer

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// transcriptRun parses a shared -v all transcript against its fixture.
func transcriptRun(t *testing.T, path string) (*Run, []byte) {
	t.Helper()
	dir := fixtures.Dir(t)
	name := strings.SplitN(filepath.Base(path), ".", 2)[0]
	cfg, err := mocksrv.LoadConfig(filepath.Join(dir, "fixtures", name, "config.xml"), mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	data := fixtures.ReadGz(t, path)
	r, err := ParseLog(filepath.Base(path), bytes.NewReader(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, data
}

// Every shared transcript of the real ds-server: the accumulated cost
// ends at the summary's total cost, every completed job is a bar, and
// the jobs' ends agree with the summary's end time.
func TestParseLogTranscripts(t *testing.T) {
	paths := fixtures.Glob(t, "transcripts/*.vall.log.gz")
	if len(paths) == 0 {
		t.Fatal("no transcripts")
	}
	paths = append(paths, fixtures.Glob(t, "v2026/transcripts/*.vall.log.gz")...)
	for _, path := range paths {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(path)))+"/"+filepath.Base(path), func(t *testing.T) {
			r, _ := transcriptRun(t, path)
			if r.Level != "all" {
				t.Errorf("level %q, want all", r.Level)
			}
			if got := FormatCost(r.TotalCost); got != r.LogCost {
				t.Errorf("total cost %s, summary says %s", got, r.LogCost)
			}
			last := r.Cost[len(r.Cost)-1].V
			if FormatCost(last) != r.LogCost {
				t.Errorf("accumulated cost ends at %.4f, summary says %s", last, r.LogCost)
			}
			done := map[int]bool{}
			for _, st := range r.Stays {
				if st.Outcome == Completed {
					done[st.Job] = true
				}
				if (st.Start < 0 && st.Outcome != Failed && st.Outcome != Killed) || st.End < st.Start {
					t.Errorf("stay %+v has no run", st)
				}
			}
			if len(done) != len(r.Jobs) {
				t.Errorf("%d of %d jobs completed", len(done), len(r.Jobs))
			}
		})
	}
}

// TestParseLog2026: a 2026 server's log (GETS records with the rate) reads
// as the same run as the 2025 server's log of the same case: the same
// stays, queue, powered cores, cost and summary.
func TestParseLog2026(t *testing.T) {
	paths := fixtures.Glob(t, "v2026/transcripts/*.vall.log.gz")
	for _, path := range paths {
		base := filepath.Base(path)
		if strings.HasSuffix(base, ".n.vall.log.gz") {
			base = strings.TrimSuffix(base, ".n.vall.log.gz") + ".vall.log.gz" // the same run with -n
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			r26, _ := transcriptRun(t, path)
			r25, _ := transcriptRun(t, filepath.Join("transcripts", base))
			if r26.LogCost == "" || len(r26.Stays) == 0 {
				t.Fatalf("nothing read: %d stays, cost %q", len(r26.Stays), r26.LogCost)
			}
			for what, pair := range map[string][2]any{
				"stays": {r26.Stays, r25.Stays}, "queue": {r26.Queue, r25.Queue}, "powered": {r26.Powered, r25.Powered},
				"cost": {r26.Cost, r25.Cost}, "summary": {r26.LogCost, r25.LogCost}, "end": {r26.End, r25.End},
			} {
				if !reflect.DeepEqual(pair[0], pair[1]) {
					t.Errorf("%s differs between the 2026 and the 2025 log", what)
				}
			}
		})
	}
}
