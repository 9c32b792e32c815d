package viewer

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"
	"text/template"
)

// The page's script and styles, inlined into every page so it opens with
// no network (a course lab's machine, an e-mailed attachment).
var (
	//go:embed assets/viewer.js
	viewerJS string
	//go:embed assets/compare.js
	compareJS string
	//go:embed assets/viewer.css
	viewerCSS string
	//go:embed assets/page.html
	pageHTML string
)

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{"html": html.EscapeString}).Parse(pageHTML))

// Page is one viewer page: an optional dsbench comparison, then groups of
// runs; the runs of a group share one time axis (two strategies on one
// config, one above the other).
type Page struct {
	Title string
	// Tables is dsbench's report as text (shown as is); PlotSVG its
	// cost-against-turnaround plot, an SVG document drawn by the harness.
	Tables  string
	PlotSVG []byte
	Notes   []string // e.g. what was left out of a big sweep
	Groups  []Group
	// Compare is dsbench's comparison as tables, summary and plot drawn
	// by the page's script; a cell of it opens its run's timeline.
	Compare *Comparison
}

// Group is runs on one shared time axis.
type Group struct {
	Title string
	Runs  []*Run
}

// Render writes the self-contained HTML page.
func (p *Page) Render(w io.Writer) error {
	d := pageData{Title: p.Title}
	for _, g := range p.Groups {
		gd := groupData{Title: g.Title}
		for _, r := range g.Runs {
			gd.Runs = append(gd.Runs, r.data())
		}
		gd.shareJobs()
		d.Groups = append(d.Groups, gd)
	}
	// json.Marshal escapes <, > and &, so the data cannot close its
	// <script> element.
	js, err := json.Marshal(d)
	if err != nil {
		return err
	}
	// The comparison has its own data element, before the timelines':
	// its script draws the tables before the timelines' data is parsed.
	var cmp []byte
	if p.Compare != nil {
		if cmp, err = json.Marshal(p.Compare); err != nil {
			return err
		}
	}
	svg := string(p.PlotSVG)
	if i := strings.Index(svg, "<svg"); i > 0 { // drop the XML prolog inside HTML
		svg = svg[i:]
	}
	err = pageTmpl.Execute(w, struct {
		*Page
		Data, CompareData, JS, CompareJS, CSS, SVG string
	}{p, string(js), string(cmp), viewerJS, compareJS, viewerCSS, svg})
	if err != nil {
		return fmt.Errorf("viewer page: %w", err)
	}
	return nil
}
