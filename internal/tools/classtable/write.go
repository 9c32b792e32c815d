package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

func (t *table) write(out io.Writer) {
	classes, by := t.classes()
	t.writeMeans(out, classes, by)
	t.writeGoals(out, classes, by)
}

// writeMeans is the table of class means, strategies by their mean score
// over the classes they completed whole (the others last).
func (t *table) writeMeans(out io.Writer, classes []string, by map[string][]string) {
	type row struct {
		s     string
		score float64 // mean over classes of the class's mean score; +Inf if a class is incomplete
		cells []string
	}
	var rows []row
	for _, s := range t.strategies {
		r := row{s: s}
		for _, k := range classes {
			tat, cost, done := t.mean(s, by[k])
			cell := fmt.Sprintf("%.4f / %.4f", tat, cost)
			switch {
			case done == 0:
				cell, r.score = "—", math.Inf(1)
			case done < len(by[k]):
				cell += fmt.Sprintf(" (%d of %d)", done, len(by[k]))
				r.score = math.Inf(1)
			default:
				r.score += (tat + t.weight*cost) / float64(len(classes))
			}
			r.cells = append(r.cells, cell)
		}
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].score < rows[j].score })
	fmt.Fprintf(out, "Mean TAT ratio / cost ratio per class (configs per class: %s).\n\n", counts(classes, by))
	fmt.Fprintf(out, "| strategy | %s |\n|---|%s\n", strings.Join(classes, " | "), strings.Repeat("---|", len(classes)))
	for _, r := range rows {
		fmt.Fprintf(out, "| %s | %s |\n", r.s, strings.Join(r.cells, " | "))
	}
	fmt.Fprintln(out)
}

func counts(classes []string, by map[string][]string) string {
	parts := make([]string, len(classes))
	for i, k := range classes {
		parts[i] = fmt.Sprintf("%s %d", k, len(by[k]))
	}
	return strings.Join(parts, ", ")
}

// writeGoals is, per class, the lowest mean score, the focus's rank and
// wins per config, and the fast strategy's TAT per config.
func (t *table) writeGoals(out io.Writer, classes []string, by map[string][]string) {
	fmt.Fprintf(out, "TAT + %g × cost, per class: the lowest class mean among the strategies that completed the class; %s's rank and the configs where its TAT + %g × cost is the lowest of all strategies but its own family (%s)", t.weight, t.focus, t.weight, t.family)
	if t.fast != "" {
		fmt.Fprintf(out, "; the configs where %s's TAT ratio is no worse than the best other strategy's", t.fast)
	}
	fmt.Fprint(out, ". The oracle columns are the mean over the class's configs of the lowest value any other strategy reached on each config: the mean of an after-the-fact choice of the best other strategy per config, which is what winning on every config amounts to.")
	fmt.Fprint(out, "\n\n| class | lowest mean | "+t.focus+" | rank | best on | oracle of the others |")
	if t.fast != "" {
		fmt.Fprint(out, " TAT no worse on | "+t.fast+"'s TAT | oracle of the others' TAT |")
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "|---|---|---|---|---|---|"+map[bool]string{true: "---|---|---|"}[t.fast != ""])
	for _, k := range classes {
		t.writeGoal(out, k, by[k])
	}
	fmt.Fprintln(out)
}

func (t *table) writeGoal(out io.Writer, k string, configs []string) {
	type entry struct {
		s     string
		score float64
	}
	var ranked []entry
	for _, s := range t.strategies {
		if tat, cost, done := t.mean(s, configs); done == len(configs) && (s == t.focus || !t.own(s)) {
			ranked = append(ranked, entry{s, tat + t.weight*cost})
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score < ranked[j].score })
	best, rank, mine := "—", "—", "—"
	if len(ranked) > 0 {
		best = fmt.Sprintf("%.4f (%s)", ranked[0].score, ranked[0].s)
	}
	for i, e := range ranked {
		if e.s == t.focus {
			rank, mine = fmt.Sprintf("%d of %d", i+1, len(ranked)), fmt.Sprintf("%.4f", e.score)
		}
	}
	tat := func(r result) float64 { return r.tat }
	fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s |", k, best, mine, rank, t.wins(configs, t.focus, t.score), t.oracle(configs, t.score))
	if t.fast != "" {
		fast, _, done := t.mean(t.fast, configs)
		mean := "—"
		if done > 0 {
			mean = fmt.Sprintf("%.4f", fast)
		}
		fmt.Fprintf(out, " %s | %s | %s |", t.wins(configs, t.fast, tat), mean, t.oracle(configs, tat))
	}
	fmt.Fprintln(out)
}

// oracle is the mean over configs of the lowest key any strategy outside
// the focus's family reached on each config (configs no such strategy
// completed left out): an after-the-fact choice of the best other
// strategy for each config, the bar a strategy that is to win on every
// config must clear on average.
func (t *table) oracle(configs []string, key func(result) float64) string {
	sum, n := 0.0, 0
	for _, c := range configs {
		if best := t.bestOther(c, key); !math.IsInf(best, 1) {
			sum, n = sum+best, n+1
		}
	}
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", sum/float64(n))
}

// wins counts the configs where s's key is at most every other
// strategy's (its family left out) among those that completed them.
func (t *table) wins(configs []string, s string, key func(result) float64) string {
	n := 0
	for _, c := range configs {
		mine, ok := t.runs[c][s]
		if !ok || !mine.ok {
			continue
		}
		if key(mine) <= t.bestOther(c, key)+1e-9 {
			n++
		}
	}
	return fmt.Sprintf("%d of %d", n, len(configs))
}

// bestOther is the lowest key on config c among the strategies outside
// the focus's family that completed it; +Inf when none did.
func (t *table) bestOther(c string, key func(result) float64) float64 {
	best := math.Inf(1)
	for o, r := range t.runs[c] {
		if r.ok && !t.own(o) {
			best = math.Min(best, key(r))
		}
	}
	return best
}
