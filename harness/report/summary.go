package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// summaryWidth is the width the summary's prose is wrapped to: the first
// screen of a run must fit a terminal, and the table fits for any labels
// of the registered strategies.
const summaryWidth = 110

// Ranked is one strategy column of the summary: its means over the configs
// it is compared on, and what it finished.
type Ranked struct {
	Column     string
	Turnaround float64 // mean turnaround time (s); NaN when none
	Util       float64 // mean utilisation (%)
	Cost       float64 // mean total rental cost
	TATBound   float64 // mean turnaround / mean actual runtime
	CostBound  float64 // mean cost / perfect-packing cost
	Finished   int     // configs with a result
	Baseline   bool
	Wins       *Wins // nil for a baseline, or when there is no baseline
}

// Summary is the first screen of a run: the columns ranked by the
// objective, over the configs every column finished when there are such
// (Over), else each over the configs it finished (Own).
type Summary struct {
	Objective Measure
	Ranked    []Ranked
	Over      []string // the configs the means are over; nil when Own
	Own       bool
	Configs   int
	Frontier  []string // no other column has both a lower mean turnaround and a lower mean cost
	Expected  map[string][]string
	Failed    []bench.Result // runs without a result, other than Expected
	Same      [][]string     // columns with the same results on every config (a wrapper and its member), each in rank order
}

// Summarise ranks the comparison's columns by its objective (best first;
// columns without a mean last, in column order).
func (r Output) Summarise() Summary {
	c := r.Comparison
	s := Summary{Objective: c.Objective, Expected: map[string][]string{}}
	if len(c.Tables) == 0 {
		return s
	}
	tt := c.Tables[0]
	s.Configs = len(tt.Configs)
	s.Over, s.Own = tt.Complete, len(tt.Complete) == 0
	mean := func(t Table, j int) float64 {
		if !s.Own {
			return t.Average[j]
		}
		return ownMean(t, j)
	}
	for j, col := range tt.Columns {
		rk := Ranked{Column: col, Turnaround: mean(c.Tables[Turnaround], j), Util: mean(c.Tables[Utilisation], j),
			Cost: mean(c.Tables[Cost], j), TATBound: mean(c.BoundTables[0], j), CostBound: mean(c.BoundTables[1], j),
			Baseline: slices.Contains(c.Baselines, col)}
		for i := range tt.Configs {
			if !math.IsNaN(tt.Cells[i][j]) {
				rk.Finished++
			}
		}
		for k := range c.Wins {
			if c.Wins[k].Column == col {
				rk.Wins = &c.Wins[k]
			}
		}
		s.Ranked = append(s.Ranked, rk)
	}
	obj := func(rk Ranked) float64 { return [...]float64{rk.Turnaround, rk.Util, rk.Cost}[c.Objective] }
	// A column that finished more configs ranks first: one that cannot
	// finish a config (a failure config, say) is no strategy to pick on
	// its means over the others.
	sort.SliceStable(s.Ranked, func(a, b int) bool {
		if fa, fb := s.Ranked[a].Finished, s.Ranked[b].Finished; fa != fb {
			return fa > fb
		}
		va, vb := obj(s.Ranked[a]), obj(s.Ranked[b])
		if math.IsNaN(vb) {
			return !math.IsNaN(va)
		}
		return !math.IsNaN(va) && c.Objective.Better(va, vb)
	})
	s.Frontier = frontier(s.Ranked, s.Ranked[0].Finished)
	s.Same = sameResults(r.Results, s.Ranked)
	for _, res := range r.Results {
		switch {
		case res.OK():
		case res.NeedsQueue():
			s.Expected[res.Config] = append(s.Expected[res.Config], res.Variant)
		default:
			s.Failed = append(s.Failed, res)
		}
	}
	return s
}

// sameResults groups the columns whose runs ended alike on every config
// (the same status and the same ds-server summary, at least one with a
// result): a composite of one member and that member, two names of one
// schedule. The summary says so once, rather than leave a reader to
// compare two identical rows. Groups and their columns are in rank order.
func sameResults(results []bench.Result, ranked []Ranked) [][]string {
	type run struct {
		status  bench.Status
		summary bench.Summary
	}
	runs := map[string]map[string]run{} // column -> config -> run
	anyOK := map[string]bool{}
	for _, res := range results {
		if runs[res.Variant] == nil {
			runs[res.Variant] = map[string]run{}
		}
		runs[res.Variant][res.Config] = run{res.Status, res.Summary}
		anyOK[res.Variant] = anyOK[res.Variant] || res.OK()
	}
	var groups [][]string
	grouped := map[string]bool{}
	for i, a := range ranked {
		if grouped[a.Column] || !anyOK[a.Column] {
			continue
		}
		g := []string{a.Column}
		for _, b := range ranked[i+1:] {
			if !grouped[b.Column] && maps.Equal(runs[a.Column], runs[b.Column]) {
				g = append(g, b.Column)
				grouped[b.Column] = true
			}
		}
		if len(g) > 1 {
			groups = append(groups, g)
		}
	}
	return groups
}

// ownMean is column j's mean over the configs it has a result on.
func ownMean(t Table, j int) float64 {
	sum, n := 0.0, 0
	for i := range t.Configs {
		if v := t.Cells[i][j]; !math.IsNaN(v) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// frontier is the columns that finished the most configs (most) and that
// no other such column beats on both mean turnaround and mean cost (ties
// on both keep both), in ranked order.
func frontier(ranked []Ranked, most int) []string {
	var out []string
	for _, a := range ranked {
		if a.Finished < most || math.IsNaN(a.Turnaround) || math.IsNaN(a.Cost) {
			continue
		}
		dominated := slices.ContainsFunc(ranked, func(b Ranked) bool {
			return b.Finished >= most && b.Turnaround <= a.Turnaround && b.Cost <= a.Cost && (b.Turnaround < a.Turnaround || b.Cost < a.Cost)
		})
		if !dominated {
			out = append(out, a.Column)
		}
	}
	return out
}

// writeSummary is the summary format: one ranked table and what to look
// at, for a terminal's first screen.
func (r Output) writeSummary(w io.Writer) error {
	s := r.Summarise()
	tw := newTableWriter(w, false)
	// Without a baseline among the columns there are no wins to count;
	// the wins, when shown, are the last column, free text.
	bases := len(r.Comparison.Baselines) > 0
	tw.heading(s.heading(), 2, bases)
	head := []string{"#", "Strategy", "Turnaround", "Util %", "Cost", "TAT/bound", "Cost/bound", "Finished"}
	if bases {
		head = append(head, "Beats the baselines")
	}
	tw.row(head...)
	for i, rk := range s.Ranked {
		row := []string{fmt.Sprint(i + 1), rk.Column, cellText(rk.Turnaround, 2), cellText(rk.Util, 2), cellText(rk.Cost, 2),
			cellText(rk.TATBound, 2), cellText(rk.CostBound, 2), fmt.Sprintf("%d/%d", rk.Finished, s.Configs)}
		if bases {
			row = append(row, rk.winsCell())
		}
		tw.row(row...)
	}
	tw.end() // (ends with a blank line)
	var lines []string
	lines = append(lines, "TAT/bound and Cost/bound: means of each config's ratio to its physical bound (1.00 is the bound).")
	if bases {
		lines = append(lines, wrap("Baselines (-b): "+strings.Join(r.Comparison.Baselines, ", ")+".", summaryWidth)...)
	}
	for _, p := range s.lookAt() {
		lines = append(lines, wrap(p, summaryWidth)...)
	}
	if failed := s.failedLines(); len(failed) > 0 {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, failed...)
	}
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	lines = append(lines, "More: -f table (course tables), -a (fewer columns), --list (every strategy), -f csv|json, --plots DIR, --html FILE")
	for _, l := range lines {
		tw.printf("%s\n", l)
	}
	return tw.err
}

// winsCell is the "Beats the baselines" cell: the configs where the column
// beats every baseline, "(baseline)" for a baseline.
func (rk Ranked) winsCell() string {
	switch {
	case rk.Wins != nil:
		return fmt.Sprintf("%d/%d configs", len(rk.Wins.Configs), rk.Wins.Of)
	case rk.Baseline:
		return "(baseline)"
	}
	return ""
}

func (s Summary) heading() string {
	h := fmt.Sprintf("Ranked by configs finished, then %s (-o); means over ", strings.ToLower(s.Objective.Title()))
	switch {
	case s.Own:
		return h + "the configs each strategy finished (no config was finished by every strategy)"
	case len(s.Over) == s.Configs:
		return h + "every config"
	}
	return h + fmt.Sprintf("the %s every strategy finished", Plural(len(s.Over), "config"))
}

// lookAt is the prose under the table: which strategy to look at and why,
// the runs that cannot finish by design, and the runs that failed.
func (s Summary) lookAt() []string {
	var ps []string
	if len(s.Ranked) > 1 && len(s.Frontier) > 0 {
		best, among := s.Ranked[0].Column, "of all"
		if s.Ranked[0].Finished < s.Configs {
			among = fmt.Sprintf("of those that finished %d of the %d configs", s.Ranked[0].Finished, s.Configs)
		} else if s.Ranked[len(s.Ranked)-1].Finished < s.Configs {
			among = "of those that finished every config"
		}
		switch {
		case s.Ranked[1].Finished < s.Ranked[0].Finished:
			ps = append(ps, fmt.Sprintf("Look at %s: the only strategy that finished %d of the %d configs.", best, s.Ranked[0].Finished, s.Configs))
		case len(s.Frontier) == 1:
			ps = append(ps, fmt.Sprintf("Look at %s: the lowest mean turnaround and the lowest mean cost %s.", s.Frontier[0], among))
		default:
			ps = append(ps, fmt.Sprintf("Look at %s, the best on the objective %s; on the cost-turnaround frontier (no other both faster and cheaper): %s.",
				best, among, strings.Join(s.Frontier, ", ")))
		}
	}
	if most := s.mostWins(); most != "" {
		ps = append(ps, most)
	}
	if len(s.Same) > 0 {
		same := make([]string, len(s.Same))
		for i, g := range s.Same {
			same[i] = strings.Join(g, " = ")
		}
		ps = append(ps, "Same results on every config: "+strings.Join(same, "; ")+".")
	}
	for _, cfg := range slices.Sorted(maps.Keys(s.Expected)) {
		cols := s.Expected[cfg]
		ps = append(ps, fmt.Sprintf("Expected: %s has server failures, which only a strategy that takes jobs back from the global queue can finish; %s cannot, by design.",
			cfg, strings.Join(cols, ", ")))
	}
	return ps
}

// maxFailedShown is how many runs without a result the summary lists, one
// line each; -f table lists every one.
const maxFailedShown = 5

// failedLines lists the runs without a result (other than the expected
// ones), each on one line cut to the summary's width.
func (s Summary) failedLines() []string {
	if len(s.Failed) == 0 {
		return nil
	}
	lines := []string{Plural(len(s.Failed), "run") + " without a result:"}
	for i, res := range s.Failed {
		if i == maxFailedShown {
			lines = append(lines, fmt.Sprintf("  … and %d more: -f table lists every one with its reason", len(s.Failed)-i))
			break
		}
		lines = append(lines, firstLine(fmt.Sprintf("  %s  %s  %s  %s", res.Config, res.Variant, res.Status, res.Reason()), summaryWidth))
	}
	return lines
}

// mostWins names the columns that beat every baseline on the most configs.
func (s Summary) mostWins() string {
	top, n := []string{}, 0
	of := 0
	for _, rk := range s.Ranked {
		if rk.Wins == nil || len(rk.Wins.Configs) == 0 {
			continue
		}
		switch k := len(rk.Wins.Configs); {
		case k > n:
			top, n, of = []string{rk.Column}, k, rk.Wins.Of
		case k == n:
			top = append(top, rk.Column)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("Beats every baseline on the most configs (%d of %d): %s.", n, of, strings.Join(top, ", "))
}

// firstLine is text's first line, cut to at most n runes.
func firstLine(text string, n int) string {
	text, _, _ = strings.Cut(text, "\n")
	if r := []rune(text); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return text
}

// wrap breaks text into lines of at most width runes at spaces (a word
// longer than width stays whole), continuation lines indented by two.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) > width:
			lines = append(lines, line)
			line = "  " + word
		default:
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
