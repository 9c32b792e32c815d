package viewer_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/internal/dsbench"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

// The page dsbench --html writes for four strategies on the embedded
// suite, in the browser: no script error; one HTML table per metric whose
// cells are the text report's (thr's own metrics folded, drawn when
// unfolded, its metric of zeros named once); each config's best cell marked and the
// objective's green cells the text report's wins; a click on a column
// heading sorts the rows by it; a click on a point of the plot, on a
// second point, on a config and on a number opens the right timelines;
// the run without a result listed once, folded, with no banner; every
// stay drawn (a run with failures has more stays than jobs).
func TestBrowserDsbenchPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.html")
	var out, errw strings.Builder
	if code := dsbench.Main([]string{"-a", "ff,ffq,frontier,thr", "-b", "ff", "-f", "table", "--html", path, "--progress", "never"}, &out, &errw, nil); code != dsbench.ExitOK {
		t.Fatalf("dsbench exit %d: %s", code, errw.String())
	}
	text := out.String()
	// The browser's 3-minute limit starts here, after the runs, which are
	// most of the test's time.
	b := viewer.NewBrowser(t)
	b.OpenFile(t, path)
	n := len(sources.Suite())
	checkTables(t, b, text, n)
	checkBest(t, b)
	checkWins(t, b, text)
	checkSort(t, b)
	checkClicks(t, b)
	missing := checkMissing(t, b)
	checkMetrics(t, b, text)
	var groups, runs int
	b.Eval(t, "dsview.groups()", &groups)
	b.Eval(t, "dsview.runs()", &runs)
	// ff cannot finish the failure config (failed jobs return only through
	// the global queue): no timeline.
	if groups != n || runs != 4*n-missing {
		t.Fatalf("%d groups, %d runs; want %d, %d", groups, runs, n, 4*n-missing)
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

// rowsJS: a table's rows (head, body, foot), each its cells' texts.
const rowsJS = `[...document.querySelectorAll('table[data-table="%s"] tr')].map(tr => [...tr.children].map(c => c.textContent))`

// checkTables: the five tables of the three measures and the bound
// ratios, a row per config, their cells the text report's, line by line.
func checkTables(t *testing.T, b *viewer.Browser, text string, configs int) {
	t.Helper()
	lines := strings.Split(text, "\n")
	for id, heading := range map[string]string{"turnaround": "Turnaround time (objective)", "utilisation": "Resource utilisation",
		"cost": "Total rental cost", "bound-turnaround": "Turnaround / mean actual runtime (1.00 = the physical bound)",
		"bound-cost": "Cost / perfect-packing cost (1.00 = the physical bound)"} {
		var rows [][]string
		b.Eval(t, fmt.Sprintf(rowsJS, id), &rows)
		at := slices.Index(lines, heading)
		if at < 0 {
			t.Fatalf("the text report has no %q", heading)
		}
		want := 1 + configs + 1 // heading, configs, Average
		if !strings.HasPrefix(id, "bound-") {
			want += 2 // Normalised (ff), Normalised (Average)
		}
		if len(rows) != want {
			t.Errorf("table %s: %d rows, want %d", id, len(rows), want)
			continue
		}
		for k, row := range rows {
			if got, want := strings.Fields(strings.Join(row, " ")), strings.Fields(lines[at+1+k]); !slices.Equal(got, want) {
				t.Errorf("table %s, row %d: %q, the text report's %q", id, k, got, want)
			}
		}
	}
}

// checkBest: in each row of the turnaround and utilisation tables, the
// cells marked best are exactly those holding the row's best number.
func checkBest(t *testing.T, b *viewer.Browser) {
	t.Helper()
	for id, pick := range map[string]string{"turnaround": "Math.min", "utilisation": "Math.max"} {
		var bad []string
		b.Eval(t, fmt.Sprintf(`[...document.querySelectorAll('table[data-table="%s"] tbody tr')].flatMap(tr => {
			const tds = [...tr.querySelectorAll('td')], v = tds.map(td => parseFloat(td.textContent)).filter(x => !isNaN(x)), best = %s(...v);
			return tds.filter(td => td.classList.contains('best') !== (parseFloat(td.textContent) === best)).map(td => tr.firstChild.textContent + ': ' + td.textContent);
		})`, id, pick), &bad)
		var marked int
		b.Eval(t, fmt.Sprintf(`document.querySelectorAll('table[data-table="%s"] tbody td.best').length`, id), &marked)
		if len(bad) > 0 || marked == 0 {
			t.Errorf("table %s: %d best cells; cells marked wrongly: %q", id, marked, bad)
		}
	}
}

// checkWins: the objective table's green cells per strategy are the text
// report's wins ("ffq  3/9  …").
func checkWins(t *testing.T, b *viewer.Browser, text string) {
	t.Helper()
	for _, col := range []string{"ffq", "frontier"} {
		var green int
		b.Eval(t, fmt.Sprintf(`(() => { const t = document.querySelector('table[data-table="turnaround"]'),
			j = [...t.tHead.rows[0].cells].findIndex(th => th.textContent === %q);
			return [...t.tBodies[0].rows].filter(tr => tr.cells[j].classList.contains('win')).length; })()`, col), &green)
		found := false
		for _, line := range strings.Split(text, "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == col && strings.Contains(f[1], "/") {
				found = true
				if !strings.HasPrefix(f[1], fmt.Sprintf("%d/", green)) {
					t.Errorf("%s: %d green cells, the text report's wins %s", col, green, f[1])
				}
			}
		}
		if !found {
			t.Errorf("no wins line for %s in the text report", col)
		}
	}
	var colours int
	b.Eval(t, `document.querySelectorAll('table[data-table="turnaround"] td.some, table[data-table="turnaround"] td.lose').length`, &colours)
	if colours == 0 {
		t.Error("no yellow or red cell in the turnaround table")
	}
}

// checkSort: a click on frontier's heading orders the turnaround table's
// configs by frontier's turnaround; the Average row stays last.
func checkSort(t *testing.T, b *viewer.Browser) {
	t.Helper()
	labels := `[...document.querySelectorAll('table[data-table="turnaround"] tbody th')].map(th => th.textContent)`
	var before, after []string
	b.Eval(t, labels, &before)
	th := `table[data-table="turnaround"] thead th[data-j="2"]`
	if err := chromedp.Run(b.Ctx(), chromedp.Click(th, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.Eval(t, labels, &after)
	var values []float64
	b.Eval(t, `[...document.querySelectorAll('table[data-table="turnaround"] tbody tr')].map(tr => parseFloat(tr.cells[3].textContent))`, &values)
	var foot string
	b.Eval(t, `document.querySelector('table[data-table="turnaround"] tfoot th').textContent`, &foot)
	if slices.Equal(before, after) || !slices.IsSorted(values) || !strings.HasPrefix(foot, "Average") {
		t.Errorf("after a click on frontier's heading: configs %q (before %q), frontier's turnarounds %v, footer %q", after, before, values, foot)
	}
	if err := chromedp.Run(b.Ctx(), chromedp.Click(th, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.Eval(t, `[...document.querySelectorAll('table[data-table="turnaround"] tbody tr')].map(tr => parseFloat(tr.cells[3].textContent))`, &values)
	if !slices.IsSortedFunc(values, func(a, b float64) int { return int(b - a) }) {
		t.Errorf("a second click does not reverse: %v", values)
	}
}

// opened is the run the page opened last: its name, its strategy, and
// whether it is in the viewport.
type opened struct {
	Name, Column string
	InView       bool
	Shown        []string // the strategies of the runs shown
}

const openedJS = `(() => { const r = dsview.opened(); return r < 0 ? {} : {name: dsview.runName(r), column: dsview.compare.column(r),
	inView: dsview.inView(r), shown: [...new Set(dsview.shown().map(dsview.compare.column))].sort()}; })()`

func click(t *testing.T, b *viewer.Browser, sel string) opened {
	t.Helper()
	if err := chromedp.Run(b.Ctx(), chromedp.Click(sel, chromedp.ByQuery)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
	var o opened
	b.Eval(t, openedJS, &o)
	return o
}

// checkClicks: a point opens its strategy's first timeline and shows
// only that strategy's; a second point shows both, one above the other
// on each config's axis; a config opens its timelines (every strategy);
// a number opens its own run.
func checkClicks(t *testing.T, b *viewer.Browser) {
	t.Helper()
	if o := click(t, b, `svg.tradeoff .pt[data-col="ffq"] circle`); o.Name != "ffq on discount-mixed" || !o.InView || !slices.Equal(o.Shown, []string{"ffq"}) {
		t.Errorf("after a click on ffq's point: %+v", o)
	}
	if o := click(t, b, `svg.tradeoff .pt[data-col="frontier"] circle`); o.Column != "frontier" || !o.InView || !slices.Equal(o.Shown, []string{"ffq", "frontier"}) {
		t.Errorf("after a click on frontier's point too: %+v", o)
	}
	// The first timeline of a config is the frontier's: the strategies on
	// the frontier come first.
	if o := click(t, b, `table[data-table="cost"] tbody tr[data-i="5"] th.cfg`); o.Name != "frontier on large-bursty" || !o.InView || len(o.Shown) != 4 {
		t.Errorf("after a click on large-bursty in the cost table: %+v", o)
	}
	if o := click(t, b, `table[data-table="utilisation"] tbody tr[data-i="2"] td:nth-of-type(3)`); o.Name != "frontier on heavy-long-large" || !o.InView {
		t.Errorf("after a click on frontier's utilisation on heavy-long-large: %+v", o)
	}
}

// checkMissing: ff on flaky-servers, the run without a result (by
// design), is listed once, folded, with its reason, and no banner is left
// about it. It returns how many runs are listed.
func checkMissing(t *testing.T, b *viewer.Browser) int {
	t.Helper()
	var m struct {
		Open    bool
		Rows    [][]string
		Banners int
	}
	b.Eval(t, `(() => { const d = document.getElementById('dsview-missing'); return {open: d.open,
		rows: [...d.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(c => c.textContent)),
		banners: [...document.querySelectorAll('.note')].filter(e => e.textContent.includes('flaky-servers')).length}; })()`, &m)
	ff := 0
	for _, r := range m.Rows {
		if r[0] == "flaky-servers" && r[1] == "ff" && r[2] == "expected" && r[3] != "" {
			ff++
		}
		if r[1] == "ff" && r[0] != "flaky-servers" || r[1] == "frontier" || r[1] == "ffq" {
			t.Errorf("a run without a result that has one: %q", r)
		}
	}
	if m.Open || ff != 1 || m.Banners != 0 {
		t.Fatalf("runs without a result: %+v", m)
	}
	return len(m.Rows)
}

// checkMetrics: the strategies' own metrics are folded, not built; once
// unfolded, one table per metric the text report shows, with the same
// headings; the metrics of zeros named as the text report names them.
func checkMetrics(t *testing.T, b *viewer.Browser, text string) {
	t.Helper()
	var want []string
	zero := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "Strategy metric ") {
			want = append(want, line)
		}
		if strings.HasPrefix(line, "Strategy metrics that are 0 in every run") {
			zero = line
		}
	}
	if len(want) == 0 || zero == "" {
		t.Fatalf("the text report has no strategy metric or none of zeros: thr no longer reports them?")
	}
	var before int
	b.Eval(t, `document.querySelectorAll('#dsview-metrics table').length`, &before)
	if err := chromedp.Run(b.Ctx(), chromedp.Click(`#dsview-metrics > summary`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Headings []string
		Zero     string
	}
	// The tables are built by the details' toggle event, which the
	// browser fires as a task of its own after the click: wait for it (a
	// slow machine, or -race, runs this Eval first).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b.Eval(t, `({headings: [...document.querySelectorAll('#dsview-metrics h3')].map(h => h.textContent),
		zero: document.querySelector('#dsview-metrics > p.tnote').textContent})`, &got)
		if len(got.Headings) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if before != 0 || !slices.Equal(got.Headings, want) || got.Zero != zero {
		t.Errorf("metrics: %d tables before unfolding; after: %q, %q; want %q, %q", before, got.Headings, got.Zero, want, zero)
	}
}
