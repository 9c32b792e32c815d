package viewer

import (
	"bytes"
	"path/filepath"
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
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
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
