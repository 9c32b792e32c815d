// Command pageshot opens an HTML page (dsbench --html, dsview) in
// headless Chromium and writes a screenshot of it, or measures how long
// the page takes to render:
//
//	go run ./internal/tools/pageshot -o docs/img/dsbench-html.png /tmp/r.html
//	go run ./internal/tools/pageshot -eval 'dsview.compare.select("frontier")' -o shot.png /tmp/r.html
//	go run ./internal/tools/pageshot -time 7 /tmp/all.html
//
// With -time N it loads the page N times and prints, per load and as the
// median, in milliseconds from the navigation's start: when dsbench's
// comparison was built and the frame after it painted (the marks
// "dsview-tables" and "dsview-tables-frame" the page's script sets; a
// dsview page has none), when the whole page was built and painted
// ("dsview-ready", "dsview-ready-frame": the timelines too), and the end
// of the load event. Chromium is found as the
// browser tests find it ($CHROMIUM, chromium, chromium-browser,
// google-chrome).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/dssim-go/dssim-go/internal/chromium"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type options struct {
	out, eval     string
	width, height int
	times         int
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pageshot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.out, "o", "", "write a PNG screenshot of the viewport to this file")
	fs.StringVar(&o.eval, "eval", "", "JavaScript to run before the screenshot (a click, a scroll)")
	fs.IntVar(&o.width, "width", 1400, "viewport width in CSS pixels")
	fs.IntVar(&o.height, "height", 1100, "viewport height in CSS pixels")
	fs.IntVar(&o.times, "time", 0, "load the page this many times and print its render times (ms)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || (o.out == "") == (o.times <= 0) {
		fmt.Fprintln(stderr, "usage: pageshot (-o SHOT.png [-eval JS] | -time N) [-width W -height H] PAGE.html")
		return 2
	}
	page, err := filepath.Abs(fs.Arg(0))
	if err == nil {
		_, err = os.Stat(page)
	}
	if err != nil {
		fmt.Fprintln(stderr, "pageshot:", err)
		return 1
	}
	if err := shoot(page, o, stdout); err != nil {
		fmt.Fprintln(stderr, "pageshot:", err)
		return 1
	}
	return 0
}

func shoot(page string, o options, stdout io.Writer) error {
	path, err := chromium.Find()
	if err != nil {
		return err
	}
	profile, err := os.MkdirTemp("", "pageshot-")
	if err != nil {
		return err
	}
	defer chromium.RemoveProfile(profile)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromium.Options(path, profile, o.width, o.height)...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(o.width), int64(o.height))); err != nil {
		return err
	}
	if o.times > 0 {
		return measure(ctx, page, o.times, stdout)
	}
	var png []byte
	var ignored any
	acts := []chromedp.Action{chromedp.Navigate("file://" + page), chromedp.Evaluate(painted(), &ignored, awaitPromise)}
	if o.eval != "" {
		acts = append(acts, chromedp.Evaluate(o.eval, &ignored), chromedp.Sleep(300*time.Millisecond))
	}
	acts = append(acts, chromedp.CaptureScreenshot(&png))
	if err := chromedp.Run(ctx, acts...); err != nil {
		return err
	}
	return os.WriteFile(o.out, png, 0o644)
}

// markWait is how long painted waits for the page's marks (ms).
var markWait = 60000

// painted waits (up to markWait) for the frame painted after the page
// was built and returns the marks, in ms from the navigation's start
// (-1: not set).
func painted() string { return strings.Replace(paintedJS, "MARKWAIT", strconv.Itoa(markWait), 1) }

const paintedJS = `new Promise(function (done) {
  function at(name) { var m = performance.getEntriesByName(name); return m.length ? m[0].startTime : -1; }
  var t0 = Date.now();
  (function wait() {
    var n = performance.getEntriesByType('navigation')[0];
    if ((at('dsview-ready-frame') < 0 || !n || !n.loadEventEnd) && Date.now() - t0 < MARKWAIT) { setTimeout(wait, 20); return; }
    done({ tables: at('dsview-tables'), tablesFrame: at('dsview-tables-frame'), ready: at('dsview-ready'),
      frame: at('dsview-ready-frame'), load: n.loadEventEnd });
  })();
})`

func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

type timing struct{ Tables, TablesFrame, Ready, Frame, Load float64 }

func (t timing) String() string {
	s := ""
	if t.Tables >= 0 {
		s = fmt.Sprintf("comparison built %.0f, painted %.0f; ", t.Tables, t.TablesFrame)
	}
	return s + fmt.Sprintf("page built %.0f, painted %.0f; load event end %.0f (ms)", t.Ready, t.Frame, t.Load)
}

func measure(ctx context.Context, page string, n int, stdout io.Writer) error {
	var all []timing
	for i := range n {
		var t timing
		if err := chromedp.Run(ctx, chromedp.Navigate("file://"+page), chromedp.Evaluate(painted(), &t, awaitPromise)); err != nil {
			return err
		}
		if t.Ready < 0 || t.Frame < 0 {
			return fmt.Errorf("the page set no dsview-ready mark within %d ms: not a page of the run viewer?", markWait)
		}
		fmt.Fprintf(stdout, "load %d: %v\n", i+1, t)
		all = append(all, t)
	}
	med := func(f func(timing) float64) float64 {
		v := make([]float64, len(all))
		for i, t := range all {
			v[i] = f(t)
		}
		slices.Sort(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	m := timing{med(func(t timing) float64 { return t.Tables }), med(func(t timing) float64 { return t.TablesFrame }),
		med(func(t timing) float64 { return t.Ready }), med(func(t timing) float64 { return t.Frame }), med(func(t timing) float64 { return t.Load })}
	fmt.Fprintf(stdout, "median of %d: %v\n", n, m)
	return nil
}
