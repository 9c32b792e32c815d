package dsbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/harness/sources"
)

// dsbench --html writes one page with the comparison's data (the tables,
// the frontier and the plot's points, drawn by the page's script) and a
// timeline group per config.
func TestWriteHTML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.html")
	var out, errw strings.Builder
	code := Main([]string{"-a", "ff,fafc", "-b", "ff", "--html", path, "--progress", "never"}, &out, &errw, nil)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{`<script id="dsview-compare-data"`, `"frontier":[`, `"id":"turnaround"`, `"points":[{"column":"ff"`, `"groups":[{"title":"discount-mixed"`, "ff on discount-mixed", "fafc on discount-mixed"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `{"title":"`); n != len(sources.Suite()) {
		t.Errorf("%d timeline groups, want one per config (%d)", n, len(sources.Suite()))
	}
}

// Over TCP the page says its timelines were simulated again in-process.
func TestWriteHTMLServerNote(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.html")
	var out, errw strings.Builder
	if code := Main([]string{"-a", "ff", "-b", "ff", "--server", "dsmock", "--html", path, "--progress", "never", "-j", "1"}, &out, &errw, nil); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "the timelines are the same runs simulated again in-process") {
		t.Error("no note that the timelines were re-simulated")
	}
}
