package viewer_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/internal/dsbench"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

// The page dsbench --html writes for two strategies on the embedded
// suite, in the browser: no script error, the tables and the plot, one
// group per config with both runs, every stay drawn (a run with failures
// has more stays than jobs), and one bar per job where nothing failed.
func TestBrowserDsbenchPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.html")
	var out, errw strings.Builder
	if code := dsbench.Main([]string{"-a", "ff,ffq", "-b", "ff", "--html", path, "--progress", "never"}, &out, &errw, nil); code != dsbench.ExitOK {
		t.Fatalf("dsbench exit %d: %s", code, errw.String())
	}
	// The browser's 3-minute limit starts here, after the runs, which are
	// most of the test's time (2 of 3 s under -race; the whole test took
	// up to 45 s on a loaded machine).
	b := viewer.NewBrowser(t)
	b.OpenFile(t, path)
	var ok bool
	b.Eval(t, `!!document.querySelector('.plot svg') && document.querySelector('pre.tables').textContent.includes('ffq')`, &ok)
	if !ok {
		t.Error("no tables or no plot on the page")
	}
	var groups, runs, missing int
	b.Eval(t, "dsview.groups()", &groups)
	b.Eval(t, "dsview.runs()", &runs)
	// ff cannot finish the failure config (failed jobs return only through
	// the global queue): the page says so instead of drawing it.
	b.Eval(t, `[...document.querySelectorAll('.note')].filter(e => e.textContent.startsWith('No timeline for ff on flaky-servers')).length`, &missing)
	if n := len(sources.Suite()); groups != n || runs != 2*n-1 || missing != 1 {
		t.Fatalf("%d groups, %d runs, %d notes of a missing timeline; want %d, %d, 1", groups, runs, missing, n, 2*n-1)
	}
	for r := range runs {
		var c struct{ Jobs, Bars, Drawn, Servers int }
		b.Eval(t, fmt.Sprintf("dsview.counts(%d)", r), &c)
		if c.Drawn != c.Bars || c.Bars < c.Jobs {
			t.Errorf("run %d: %+v", r, c)
		}
	}
	b.NoErrors(t)
}
