package mocksrv_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// memFixture copies a fixture's config and job file into a temporary
// folder, every <job> given actMemory = its memory (the hidden use equal
// to the request) and an app label, and loads it.
func memFixture(t *testing.T, name string) *mocksrv.Config {
	t.Helper()
	src := filepath.Join(fixtures.Dir(t), "fixtures", name)
	dir := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join(src, "config.xml"))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := os.ReadFile(filepath.Join(src, "jobs.xml"))
	if err != nil {
		t.Fatal(err)
	}
	mem := regexp.MustCompile(`(<job id="[^>]*memory="(\d+)"[^>]*?)\s*/>`)
	withAct := mem.ReplaceAll(jobs, []byte(`$1 actMemory="$2" app="a" />`))
	if !strings.Contains(string(withAct), `actMemory=`) {
		t.Fatal("no <job> got actMemory")
	}
	for f, data := range map[string][]byte{"config.xml": cfg, "jobs.xml": withAct} {
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "config.xml")
	c, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if c.ActMemoryJobs != len(c.Jobs) || c.ActMemoryErr != nil {
		t.Fatalf("actMemory on %d of %d jobs, err %v", c.ActMemoryJobs, len(c.Jobs), c.ActMemoryErr)
	}
	return c
}

// TestMemExtConformance (estimation.md Part E item 6): a job file carrying
// the extension's attributes gives ds-server's summary byte for byte with
// the extension off; with it on, a client that never sends SCHM books the
// requests, nothing fails, and the report is ds-server's plus the
// extension's one line (0 failures).
func TestMemExtConformance(t *testing.T) {
	for _, c := range [][2]string{{"sample-config01", "ff"}, {"config20-short-low", "bf"}} {
		cfg := memFixture(t, c[0])
		want := readExpected(t, c[0], c[1])
		if got := runInProcess(t, cfg, c[1], mocksrv.Options{}).Report().Text; got != want {
			t.Errorf("%s %s, extension off: summary differs:\n%s\nwant\n%s", c[0], c[1], got, want)
		}
		rep := runInProcess(t, cfg, c[1], mocksrv.Options{MemFail: mocksrv.MemFailHard}).Report()
		line := "# memory failures: 0, wasted core-seconds: 0 (failure model: hard)\n"
		if !strings.Contains(rep.Text, line) || strings.Replace(rep.Text, line, "", 1) != want {
			t.Errorf("%s %s, extension on: report is not ds-server's plus %q:\n%s", c[0], c[1], line, rep.Text)
		}
	}
}
