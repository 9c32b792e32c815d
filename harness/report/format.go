package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// Format is an output format of the report.
type Format string

// Output formats.
const (
	FormatTable    Format = "table"
	FormatMarkdown Format = "markdown"
	FormatCSV      Format = "csv"
	FormatJSON     Format = "json"
	// FormatSummary is one ranked table and what to look at: dsbench's
	// first screen (the course's tables are FormatTable).
	FormatSummary Format = "summary"
)

// formatNames are the formats ParseFormat accepts, for its did-you-mean.
var formatNames = []string{"summary", "table", "markdown", "csv", "json"}

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case FormatSummary, FormatTable, FormatMarkdown, FormatCSV, FormatJSON:
		return f, nil
	case "md":
		return FormatMarkdown, nil
	}
	return "", fmt.Errorf("unknown format %q (want summary, table, markdown, csv or json)%s", s, didyoumean.Hint(strings.ToLower(s), formatNames))
}

// Output is what a bench prints: the results and their comparison (the
// tables, CSV or JSON).
type Output struct {
	Results    []bench.Result
	Comparison Comparison
}

// Write renders the output in the given format.
func (r Output) Write(w io.Writer, f Format) error {
	switch f {
	case FormatCSV:
		return r.writeCSV(w)
	case FormatJSON:
		return r.writeJSON(w)
	case FormatMarkdown:
		return r.writeTables(w, true)
	case FormatSummary:
		return r.writeSummary(w)
	}
	return r.writeTables(w, false)
}

func (r Output) status(cfg, col string) bench.Result {
	for _, res := range r.Results {
		if res.Config == cfg && res.Variant == col {
			return res
		}
	}
	return bench.Result{Status: bench.StatusError, Err: "not run"}
}

// cellText formats one value; digits by metric as the course tables print
// them (integers for turnaround cells, two decimals elsewhere).
func cellText(v float64, digits int) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

func (r Output) writeTables(w io.Writer, md bool) error {
	c := r.Comparison
	tw := newTableWriter(w, md)
	tables := r.TextTables()
	for _, tt := range tables {
		if tt.Kind == MeasureKind {
			tw.textTable(tt)
		}
	}
	if len(c.Wins) > 0 {
		tw.heading(fmt.Sprintf("Configs where a strategy beats every baseline (%s) on %s",
			strings.Join(c.Baselines, ", "), strings.ToLower(c.Tables[c.Objective].Title)), 1, true)
		tw.row("Strategy", "Wins", "Configs")
		for _, win := range c.Wins {
			tw.row(win.Column, fmt.Sprintf("%d/%d", len(win.Configs), win.Of), strings.Join(win.Configs, " "))
		}
		tw.end()
	}
	for _, tt := range tables {
		if tt.Kind != MeasureKind {
			tw.textTable(tt)
		}
	}
	if zero := r.ZeroMetrics(); len(zero) > 0 {
		// A table of zeros says one thing: it is said once (-f csv and
		// json keep the values).
		tw.printf("Strategy metrics that are 0 in every run, not shown as tables: %s.\n\n", strings.Join(zero, ", "))
	}
	r.writeUnbilled(tw)
	r.writeExpected(tw)
	r.writeProblems(tw)
	r.writeNotes(tw)
	return tw.err
}

// textTable prints one table as TextTables made it.
func (tw *tableWriter) textTable(tt TextTable) {
	tw.heading(tt.Heading, 1, false)
	tw.row(tt.Header...)
	for _, row := range tt.Rows {
		tw.row(row...)
	}
	tw.row(tt.Average...)
	for _, row := range tt.Normalised {
		tw.row(row...)
	}
	tw.notes = tt.Notes
	tw.end()
}

// mainComplete is the configs the main tables average over.
func (r Output) mainComplete() []string {
	if len(r.Comparison.Tables) == 0 {
		return nil
	}
	return r.Comparison.Tables[0].Complete
}

// needsQueueCell marks a run that failed because its strategy does not use
// the global queue on a config with resource failures (Result.NeedsQueue);
// the legend under the table says so.
const needsQueueCell = "needs queue*"

// tableNotes is the legend under a table: what "needs queue*" means,
// which configs the averages leave out (a newcomer's first screen must
// explain itself, not only the "Runs without a result" list below), and
// when they are not the configs of the main tables' averages (main).
func tableNotes(t Table, queued, main []string) []string {
	var notes []string
	if len(queued) > 0 {
		notes = append(notes, fmt.Sprintf("* needs queue: %s %s resource failures; a strategy that never takes jobs back from the global queue cannot finish such a run (the reasons are under \"Runs that cannot finish by design\").",
			strings.Join(queued, ", "), map[bool]string{true: "has", false: "have"}[len(queued) == 1]))
	}
	if left := len(t.Configs) - len(t.Complete); left > 0 && len(t.Complete) > 0 {
		var out []string
		for _, cfg := range t.Configs {
			if !slices.Contains(t.Complete, cfg) {
				out = append(out, cfg)
			}
		}
		notes = append(notes, fmt.Sprintf("Averages are over the %s where every column has a result; left out: %s.",
			Plural(len(t.Complete), "config"), strings.Join(out, ", ")))
	}
	if !slices.Equal(t.Complete, main) && len(t.Complete) > 0 {
		notes = append(notes, fmt.Sprintf("The averages here are not over the main tables' configs (%d/%d): only this table's columns must have a result.",
			len(main), len(t.Configs)))
	}
	return notes
}

// allZero reports whether every value of the table with a result is 0
// (and there is one).
func allZero(t Table) bool {
	some := false
	for _, row := range t.Cells {
		for _, v := range row {
			if math.IsNaN(v) {
				continue
			}
			if v != 0 {
				return false
			}
			some = true
		}
	}
	return some
}

// writeExpected lists the runs that cannot finish by design (NeedsQueue):
// the config has server failures and the strategy never takes a job back
// from the global queue. They are no error of the run or the strategy.
func (r Output) writeExpected(tw *tableWriter) {
	r.writeRunsWithout(tw, "Runs that cannot finish by design (server failures; the strategy never takes jobs back from the global queue)", true)
}

// writeProblems lists the other runs without a result.
func (r Output) writeProblems(tw *tableWriter) {
	r.writeRunsWithout(tw, "Runs without a result", false)
}

// writeRunsWithout is a table of the runs without a result that are
// expected (NeedsQueue) or not, with their status and reason.
func (r Output) writeRunsWithout(tw *tableWriter, heading string, expected bool) {
	var runs []bench.Result
	for _, res := range r.Results {
		if !res.OK() && res.NeedsQueue() == expected {
			runs = append(runs, res)
		}
	}
	if len(runs) == 0 {
		return
	}
	tw.heading(heading, 3, true)
	tw.row("Config", "Strategy", "Status", "Reason")
	for _, res := range runs {
		tw.row(res.Config, res.Variant, res.ShownStatus(), res.Reason())
	}
	tw.end()
}

// tableWriter writes aligned text tables (first column left-aligned, the
// others right-aligned) or Markdown tables.
type tableWriter struct {
	w     io.Writer
	md    bool
	rows  [][]string
	notes []string // lines printed right under the table (a legend)
	left  int      // the first left columns are left-aligned
	free  bool     // the last column is free text: not padded
	err   error
}

func newTableWriter(w io.Writer, md bool) *tableWriter { return &tableWriter{w: w, md: md} }

func (t *tableWriter) printf(format string, a ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, a...)
	}
}

// heading starts a table: left columns left-aligned (the rest right-aligned
// numbers), and when free is set a last column of free text.
func (t *tableWriter) heading(h string, left int, free bool) {
	if t.md {
		t.printf("### %s\n\n", h)
	} else {
		t.printf("%s\n", h)
	}
	t.rows, t.left, t.free, t.notes = t.rows[:0], left, free, nil
}

func (t *tableWriter) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *tableWriter) end() {
	if t.md {
		for i, r := range t.rows {
			cells := make([]string, len(r))
			for k, c := range r {
				cells[k] = mdCell(c)
			}
			t.printf("| %s |\n", strings.Join(cells, " | "))
			if i == 0 {
				seps := make([]string, len(r))
				for k := range seps {
					seps[k] = "---:"
				}
				seps[0] = "---"
				t.printf("|%s|\n", strings.Join(seps, "|"))
			}
		}
		t.printf("\n")
		for _, n := range t.notes {
			// A paragraph of its own: a line right under a Markdown table
			// would be read as one more row.
			t.printf("%s\n\n", strings.ReplaceAll(n, "*", "\\*"))
		}
		return
	}
	var width []int
	for _, r := range t.rows {
		for k, c := range r {
			if k >= len(width) {
				width = append(width, 0)
			}
			width[k] = max(width[k], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for k, c := range r {
			pad := strings.Repeat(" ", width[k]-utf8.RuneCountInString(c))
			if k > 0 {
				b.WriteString("  ")
			}
			switch {
			case k == len(r)-1 && t.free:
				b.WriteString(c)
			case k < t.left:
				b.WriteString(c + pad)
			default:
				b.WriteString(pad + c)
			}
		}
		t.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
	for _, n := range t.notes {
		t.printf("%s\n", n)
	}
	t.printf("\n")
}

// mdCell makes text safe as one Markdown table cell: a '|' would end the
// cell (a strategy label "rules=cores>2->2|1", a reason quoting several
// stderr lines joined by " | "), giving the row more cells than the
// header; GitHub's Markdown reads "\|" as a '|' inside the cell. A line
// break would end the row: it becomes a space.
func mdCell(text string) string { return mdCellEscapes.Replace(text) }

var mdCellEscapes = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")

// CSVHeader is the per-run CSV layout: the columns of
// ../shared/dssim/reference-results.tsv, then status, bounds, the cost
// ds-server left out (unbilled_cost: dsmock only, see unbilled.go) and timing.
var CSVHeader = []string{"config", "strategy", "status", "end_time", "jobs", "failed", "servers_used",
	"avg_util", "ef_usage", "total_cost", "avg_wait", "avg_exec", "avg_turnaround",
	"mean_actual_runtime", "packing_cost", "turnaround_ratio", "cost_ratio", "unbilled_cost", "wall_ms", "error"}

// writeCSV writes one row per run: CSVHeader's columns, the workload
// transform's when some config has one, an SWF trace's kept and skipped
// lines when some config is a trace, then one column per
// strategy metric name ("metric:NAME", "metric:NAME~" when some value is
// approximate), empty where the run's strategy does not report it.
func (r Output) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	names := MetricNames(r.Results)
	header := slices.Clone(CSVHeader)
	swept := slices.ContainsFunc(r.Results, func(res bench.Result) bool { return res.Base != "" })
	if swept {
		header = append(header, "base_config", "arrival_factor", "inaccuracy")
	}
	traces := slices.ContainsFunc(r.Results, func(res bench.Result) bool { return res.SWF != nil })
	if traces {
		header = append(header, "swf_kept", "swf_skipped")
	}
	for _, n := range names {
		header = append(header, "metric:"+n+approxMark(r.Results, n))
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, res := range r.Results {
		s := res.Summary
		rec := []string{res.Config, res.Variant, string(res.Status)}
		if res.OK() || res.Status == bench.StatusUnscheduled {
			rec = append(rec, itoa(s.EndTime), itoa(s.Jobs), itoa(s.Failed), itoa(s.ServersUsed),
				f2(s.AvgUtil), f2(s.EfUsage), f2(s.TotalCost), itoa(s.AvgWait), itoa(s.AvgExec), itoa(s.AvgTurnaround))
		} else {
			rec = append(rec, make([]string, 10)...)
		}
		rec = append(rec, strconv.FormatFloat(res.Bounds.MeanActualRuntime, 'f', 1, 64), f2(res.Bounds.PackingCost))
		if res.OK() {
			rec = append(rec, f4(ratio(float64(s.AvgTurnaround), res.Bounds.MeanActualRuntime)),
				f4(ratio(s.TotalCost, res.Bounds.PackingCost)))
		} else {
			rec = append(rec, "", "")
		}
		rec = append(rec, unbilledCell(res))
		rec = append(rec, strconv.FormatInt(res.Wall.Milliseconds(), 10), res.Err)
		if swept {
			rec = append(rec, res.Base, optFloat(res.ArrivalFactor), optFloat(res.Inaccuracy))
		}
		if traces {
			rec = append(rec, swfCells(res.SWF)...)
		}
		for _, n := range names {
			cell := ""
			if m, ok := res.Metrics.Get(n); ok && !math.IsNaN(m.Value) {
				cell = strconv.FormatFloat(m.Value, 'g', 10, 64)
			}
			rec = append(rec, cell)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// swfCells are a run's swf_kept and swf_skipped, empty for a config file.
func swfCells(c *sources.SWFConversion) []string {
	if c == nil {
		return []string{"", ""}
	}
	return []string{itoa(c.Kept), itoa(c.Skipped)}
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// approxMark is "~" when some run reported the metric as an approximation.
func approxMark(results []bench.Result, name string) string {
	for _, r := range results {
		if m, ok := r.Metrics.Get(name); ok && m.Approx {
			return "~"
		}
	}
	return ""
}

func itoa(v int) string { return strconv.Itoa(v) }
func f2(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}
func f4(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// jsonFloats renders NaN as null (JSON has no NaN).
type jsonFloats []float64

func (f jsonFloats) MarshalJSON() ([]byte, error) {
	out := make([]any, len(f))
	for i, v := range f {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out[i] = v
		}
	}
	return json.Marshal(out)
}

type jsonTable struct {
	Title      string                `json:"title"`
	Configs    []string              `json:"configs"`
	Columns    []string              `json:"columns"`
	Cells      []jsonFloats          `json:"cells"`
	Average    jsonFloats            `json:"average"`
	Complete   []string              `json:"averaged_over"`
	Normalised map[string]jsonFloats `json:"normalised,omitempty"`
	Unit       string                `json:"unit,omitempty"`   // strategy metrics
	Approx     bool                  `json:"approx,omitempty"` // strategy metrics computed without the simulator's truth
}

func toJSONTable(t Table) jsonTable {
	jt := jsonTable{Title: t.Title, Configs: t.Configs, Columns: t.Columns, Average: t.Average, Complete: t.Complete}
	for _, row := range t.Cells {
		jt.Cells = append(jt.Cells, row)
	}
	if len(t.Normalised) > 0 {
		jt.Normalised = map[string]jsonFloats{}
		for _, n := range t.Normalised {
			jt.Normalised[n.Base] = n.Values
		}
	}
	return jt
}

// jsonRun is a run as the JSON report writes it. Its "summary" is there
// only for a run with a result, the runs the tables average, so that
// averaging runs[].summary takes in no failed run's numbers: a run that
// left jobs unscheduled keeps the server's report as "partial_summary"
// (CSV's cells of such a row), and any other run without a result has
// neither (CSV's blank cells), where the partial numbers the simulator had
// used to be written as its summary.
type jsonRun struct {
	bench.Result
	Summary        *bench.Summary `json:"summary,omitempty"` // shadows Result.Summary
	PartialSummary *bench.Summary `json:"partial_summary,omitempty"`
}

func jsonRuns(results []bench.Result) []jsonRun {
	out := make([]jsonRun, len(results))
	for i, r := range results {
		out[i].Result = r
		s := r.Summary
		switch {
		case r.OK():
			out[i].Summary = &s
		case r.Status == bench.StatusUnscheduled:
			out[i].PartialSummary = &s
		}
	}
	return out
}

func (r Output) writeJSON(w io.Writer) error {
	c := r.Comparison
	out := struct {
		Runs      []jsonRun   `json:"runs"`
		Objective string      `json:"objective"`
		Baselines []string    `json:"baselines"`
		Tables    []jsonTable `json:"tables"`
		Bounds    []jsonTable `json:"bound_ratios"`
		Wins      []Wins      `json:"wins"`
		Metrics   []jsonTable `json:"strategy_metrics,omitempty"`
	}{Runs: jsonRuns(r.Results), Objective: c.Objective.Objective(), Baselines: c.Baselines, Wins: c.Wins}
	for _, mt := range c.MetricTables {
		jt := toJSONTable(mt.Table)
		jt.Unit, jt.Approx = mt.Unit, mt.Approx
		out.Metrics = append(out.Metrics, jt)
	}
	for _, t := range c.Tables {
		out.Tables = append(out.Tables, toJSONTable(t))
	}
	for _, t := range c.BoundTables {
		out.Bounds = append(out.Bounds, toJSONTable(t))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Plural is "1 config", "2 configs", "3 strategies".
func Plural(n int, word string) string {
	if n != 1 {
		if len(word) > 1 && word[len(word)-1] == 'y' {
			word = word[:len(word)-1] + "ie"
		}
		word += "s"
	}
	return strconv.Itoa(n) + " " + word
}
