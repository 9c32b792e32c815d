package simconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// FuzzJobFile: jobfileParse never panics; a file that loads has ids
// 0..n-1, and written out again (ds-jobs.xml form) reads back identically.
func FuzzJobFile(f *testing.F) {
	dir := fixtures.Dir(f)
	for _, name := range []string{"ds-sample-config01", "sample-config02", "ds-sample-config05-failures"} {
		data, err := os.ReadFile(filepath.Join(dir, "fixtures", name, "jobs.xml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`<jobs>` + jobA + `</jobs>`))
	f.Add([]byte(`<jobs><job id="0" type="a" submitTime=" -3x" estRunTime="+5" cores="1" memory="1" disk="1"/></jobs>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, e := jobfileParse("jobs.xml", data)
		if e != nil {
			if len(e.Stderr) == 0 || !strings.HasPrefix(e.Error(), "jobs.xml: line ") || strings.Contains(e.Error(), "\n") {
				t.Fatalf("bad error %#v", e)
			}
			return
		}
		for i, j := range jobs {
			if j.ID != i {
				t.Fatalf("job %d has id %d", i, j.ID)
			}
			if strings.ContainsAny(j.Type, "<>&\"") {
				return // ds-jobs.xml writes names raw (job-generation.md §6)
			}
		}
		out := (&Config{Jobs: jobs}).JobsXML(model.Year2025, true)
		back, e := jobfileParse("again.xml", out)
		if e != nil {
			t.Fatalf("written file does not read back: %v", e)
		}
		if len(back) != len(jobs) {
			t.Fatalf("%d jobs read back, want %d", len(back), len(jobs))
		}
		for i := range back {
			if back[i] != jobs[i] {
				t.Fatalf("job %d: %+v, want %+v", i, back[i], jobs[i])
			}
		}
		if !bytes.Equal((&Config{Jobs: back}).JobsXML(model.Year2025, true), out) {
			t.Fatal("second write differs")
		}
	})
}
