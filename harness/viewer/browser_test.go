package viewer

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/dssim-go/dssim-go/internal/chromium"
)

var screenshot = flag.String("screenshot", "", "write the browser test's screenshot of the transcript page to this PNG file")

// browser opens a page in headless Chromium and collects every script
// error (uncaught exceptions and console.error).
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func newBrowser(t testing.TB) *browser {
	path := chromium.ForTest(t)
	// Not t.TempDir: Chromium's helper processes (crashpad) may still write
	// to the profile for a moment after the browser exits, and TempDir's
	// cleanup then fails the test with "directory not empty".
	profile, err := os.MkdirTemp("", "dsview-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromium.Options(path, profile, 1400, 1000), chromedp.Flag("disable-quic", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelT(); cancel(); cancelA(); chromium.RemoveProfile(profile) })
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, "exception: "+ev.ExceptionDetails.Error())
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
				b.errors = append(b.errors, "network request (the page must be self-contained): "+u)
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError {
				b.errors = append(b.errors, fmt.Sprintf("console.error: %v", ev.Args))
			}
		}
	})
	return b
}

func (b *browser) open(t testing.TB, p *Page) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "page.html")
	out, err := os.Create(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Render(out); err != nil {
		t.Fatal(err)
	}
	out.Close()
	b.openFile(t, f)
}

// openFile loads a page file and checks its script ran without error.
func (b *browser) openFile(t testing.TB, f string) {
	t.Helper()
	var ready bool
	if err := chromedp.Run(b.ctx, network.Enable(), chromedp.Navigate("file://"+f),
		chromedp.Evaluate(`typeof window.dsview === "object"`, &ready)); err != nil {
		t.Fatal(err)
	}
	if !ready {
		t.Fatal("window.dsview is not defined: the script did not run")
	}
	b.noErrors(t)
}

func (b *browser) noErrors(t testing.TB) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errors) > 0 {
		t.Fatalf("script errors:\n%s", strings.Join(b.errors, "\n"))
	}
}

func (b *browser) eval(t testing.TB, js string, out any) {
	t.Helper()
	if err := chromedp.Run(b.ctx, chromedp.Evaluate(js, out)); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
}

type counts struct{ Jobs, Bars, Drawn, Servers int }

// checkBars: one bar per job, all drawn at the whole-run view.
func (b *browser) checkBars(t *testing.T, run int, wantJobs, wantServers int) {
	t.Helper()
	var c counts
	b.eval(t, fmt.Sprintf("dsview.counts(%d)", run), &c)
	if c.Jobs != wantJobs || c.Bars != wantJobs || c.Drawn != wantJobs || c.Servers != wantServers {
		t.Errorf("run %d: %+v, want %d jobs, bars and drawn bars, %d servers", run, c, wantJobs, wantServers)
	}
}

// hover moves the real mouse onto job id's bar and returns the tooltip.
func (b *browser) hover(t *testing.T, run, id int) string {
	t.Helper()
	var pt struct{ X, Y float64 }
	b.eval(t, fmt.Sprintf("dsview.pointOf(%d, %d)", run, id), &pt)
	var tip string
	if err := chromedp.Run(b.ctx, chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y),
		chromedp.Evaluate(`dsview.tooltip()`, &tip)); err != nil {
		t.Fatal(err)
	}
	return tip
}

// wheel turns the mouse wheel over run's timeline (negative: zoom in).
func (b *browser) wheel(t *testing.T, run int, dy float64) {
	t.Helper()
	var pt struct{ X, Y float64 }
	b.eval(t, fmt.Sprintf("(function(){var r=document.querySelectorAll('canvas.timeline')[%d].getBoundingClientRect();return {x:r.left+r.width*0.6,y:r.top+30}})()", run), &pt)
	err := chromedp.Run(b.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		return input.DispatchMouseEvent(input.MouseWheel, pt.X, pt.Y).WithDeltaY(dy).Do(ctx)
	}))
	if err != nil {
		t.Fatal(err)
	}
}

func (b *browser) visible(t *testing.T, g int) [2]float64 {
	var r [2]float64
	b.eval(t, fmt.Sprintf("dsview.visibleRange(%d)", g), &r)
	return r
}

// The page built from two shared transcripts of the real ds-server (bf
// and ff on sample-config01, one axis): no script error, one bar per
// job, the hovered bar's tooltip names that job, the wheel and the zoom
// button narrow the visible range, find zooms onto the job.
func TestBrowserTranscriptPage(t *testing.T) {
	b := newBrowser(t)
	bf, _ := transcriptRun(t, "transcripts/sample-config01.bf.vall.log.gz")
	ff, _ := transcriptRun(t, "transcripts/sample-config01.ff.vall.log.gz")
	bf.Name, ff.Name = "bf on sample-config01", "ff on sample-config01"
	page := &Page{Title: "dsview test: sample-config01", Groups: []Group{{Title: "sample-config01", Runs: []*Run{bf, ff}}}}
	b.open(t, page)
	for i, r := range []*Run{bf, ff} {
		b.checkBars(t, i, len(r.Jobs), len(r.Servers))
	}
	for _, id := range []int{0, 4, 9} {
		for run := range 2 {
			if tip := b.hover(t, run, id); !strings.HasPrefix(tip, fmt.Sprintf("job %d ", id)) {
				t.Errorf("run %d: hovering job %d shows %q", run, id, tip)
			}
		}
	}
	if tip := b.hover(t, 0, 4); !strings.Contains(tip, fmt.Sprintf("estimate %d s  actual %d s", bf.Jobs[4].Est, bf.Jobs[4].Act)) {
		t.Errorf("tooltip of job 4 lacks its estimate and actual run time: %q", tip)
	}
	// The strips under the timeline say their values at the pointer: at
	// the end, the accumulated cost is the summary's total.
	var strip struct{ X, Y float64 }
	b.eval(t, "(function(){var r=document.querySelectorAll('canvas.series')[0].getBoundingClientRect();window.scrollBy(0,r.top-100);r=document.querySelectorAll('canvas.series')[0].getBoundingClientRect();return {x:r.right-9,y:r.top+20}})()", &strip)
	var stripTip string
	if err := chromedp.Run(b.ctx, chromedp.MouseEvent(input.MouseMoved, strip.X, strip.Y), chromedp.Evaluate(`dsview.tooltip()`, &stripTip)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stripTip, "accumulated cost $"+bf.LogCost) {
		t.Errorf("the strips' tooltip at the end is %q, want the summary's cost $%s", stripTip, bf.LogCost)
	}
	before := b.visible(t, 0)
	b.wheel(t, 0, -400)
	after := b.visible(t, 0)
	if !(after[1]-after[0] < before[1]-before[0]) {
		t.Errorf("the wheel did not zoom in: %v → %v", before, after)
	}
	// Dragging the timeline pans: the range moves, its width stays.
	var pt struct{ X, Y float64 }
	b.eval(t, "(function(){var r=document.querySelectorAll('canvas.timeline')[0].getBoundingClientRect();return {x:r.left+r.width*0.6,y:r.top+30}})()", &pt)
	zoomed := b.visible(t, 0)
	if err := chromedp.Run(b.ctx, chromedp.MouseEvent(input.MousePressed, pt.X, pt.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, pt.X-200, pt.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, pt.X-200, pt.Y, chromedp.ButtonLeft)); err != nil {
		t.Fatal(err)
	}
	if r := b.visible(t, 0); !(r[0] > zoomed[0]) || r[1]-r[0] != zoomed[1]-zoomed[0] {
		t.Errorf("dragging left did not pan right: %v → %v", zoomed, r)
	}
	// Find, through the page's own box and button.
	var found string
	if err := chromedp.Run(b.ctx, chromedp.SendKeys("#dsview-find", "7", chromedp.ByQuery),
		chromedp.Click("#dsview-find-go", chromedp.ByQuery), chromedp.Text("#dsview-found", &found, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if r := b.visible(t, 0); !strings.HasPrefix(found, "job 7 on bf on sample-config01: ") || r[1]-r[0] >= float64(bf.End) {
		t.Errorf("find 7: %q, range %v", found, r)
	}
	var n int
	b.eval(t, "dsview.reset(0); 0", &n)
	whole := b.visible(t, 0)
	if err := chromedp.Run(b.ctx, chromedp.Click(`button[title="zoom in"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if r := b.visible(t, 0); !(r[1]-r[0] < whole[1]-whole[0]) {
		t.Errorf("the zoom-in button left the range at %v (whole run %v)", r, whole)
	}
	b.noErrors(t)
}

// 2,000 jobs on 100 servers (usable: every bar drawn, hover works) and,
// without -short, 20,000 on 1,000 (opens).
func TestBrowserAtScale(t *testing.T) {
	b := newBrowser(t)
	sizes := [][2]int{{2000, 100}}
	if !testing.Short() {
		sizes = append(sizes, [2]int{20000, 1000})
	}
	for _, sz := range sizes {
		r := synthRun(sz[0], sz[1])
		b.open(t, &Page{Title: "scale", Groups: []Group{{Title: "synthetic", Runs: []*Run{r}}}})
		b.checkBars(t, 0, sz[0], sz[1])
		b.eval(t, "dsview.setRange(0, 0, 2000); 0", new(int))
		if tip := b.hover(t, 0, 3); !strings.HasPrefix(tip, "job 3 ") {
			t.Errorf("%v: hovering job 3 shows %q", sz, tip)
		}
		b.noErrors(t)
	}
}

// With -screenshot FILE: the README's picture, ff and bfq on
// config20-med-med (shared transcripts of the real ds-server), a job
// hovered.
func TestBrowserScreenshot(t *testing.T) {
	if *screenshot == "" {
		t.Skip("no -screenshot FILE")
	}
	b := newBrowser(t)
	var runs []*Run
	for _, algo := range []string{"ff", "bfq"} {
		r, _ := transcriptRun(t, "transcripts/config20-med-med."+algo+".vall.log.gz")
		r.Name = algo + " on config20-med-med (ds-server's -v all log)"
		runs = append(runs, r)
	}
	b.open(t, &Page{Title: "dsview: config20-med-med, ff against bfq", Groups: []Group{{Title: "config20-med-med", Runs: runs}}})
	var n int
	if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1400, 1280)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, "dsview.setRange(0, 0, 30000); window.scrollTo(0, 0); 0", &n)
	var pt struct{ X, Y float64 }
	b.eval(t, "dsview.pointOf(0, 40)", &pt)
	var png []byte
	if err := chromedp.Run(b.ctx, chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y), chromedp.Sleep(100*time.Millisecond),
		chromedp.CaptureScreenshot(&png)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	b.noErrors(t)
}

// The page's redraw (every zoom, pan and hover-free frame) in headless
// Chromium, at the two sizes of the issue, whole run visible: the mean
// in-browser milliseconds per redraw are reported as ms/redraw.
func BenchmarkBrowserRedraw(b *testing.B) {
	for _, sz := range [][2]int{{2000, 100}, {20000, 1000}} {
		b.Run(fmt.Sprintf("%djobs_%dservers", sz[0], sz[1]), func(b *testing.B) {
			br := newBrowser(b)
			br.open(b, &Page{Title: "bench", Groups: []Group{{Title: "synthetic", Runs: []*Run{synthRun(sz[0], sz[1])}}}})
			var ms float64
			for b.Loop() {
				if err := chromedp.Run(br.ctx, chromedp.Evaluate("dsview.redrawMs(0, 1)", &ms)); err != nil {
					b.Fatal(err)
				}
			}
			if err := chromedp.Run(br.ctx, chromedp.Evaluate("dsview.redrawMs(0, 10)", &ms)); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(ms, "ms/redraw")
		})
	}
}

// ds-server's log of ffq on the failure fixture: failures, recoveries,
// boots after recoveries and jobs that failed and ran again all drawn
// without a script error.
func TestBrowserFailurePage(t *testing.T) {
	b := newBrowser(t)
	r, _ := transcriptRun(t, "transcripts/ds-sample-config05-failures.ffq.vall.log.gz")
	b.open(t, &Page{Title: "failures", Groups: []Group{{Title: "ds-sample-config05-failures", Runs: []*Run{r}}}})
	var c struct{ Jobs, Bars, Drawn, Servers, Fails, Boots int }
	b.eval(t, "dsview.counts(0)", &c)
	fails, boots := 0, 0
	for _, s := range r.Servers {
		fails += len(s.Fails)
		boots += len(s.Power)
	}
	if c.Bars != len(r.Stays) || c.Drawn != c.Bars || c.Bars <= c.Jobs || c.Fails != fails || fails == 0 || c.Boots != boots {
		t.Errorf("counts %+v; want %d stays (more than the jobs: some failed), %d failures, %d boots", c, len(r.Stays), fails, boots)
	}
	b.noErrors(t)
}
