// Command classtable summarises dsbench runs over a generated corpus (see
// docs/corpus.md) by class: the class of a config is its name without the
// trailing -NNN. It reads dsbench -f csv output and prints Markdown:
//
//   - every strategy's mean TAT ratio / cost ratio in each class (a
//     strategy that did not complete every config of a class shows how
//     many it did, and is left out of the comparisons);
//
//   - per class, the lowest mean of TAT + w × cost among the strategies
//     that completed the class, and on how many configs the focus
//     strategy had the lowest TAT + w × cost of all (its own family, the
//     strategies named family:…, left out);
//
//   - with -fast, on how many configs that strategy's TAT ratio was no
//     worse than the best other's.
//
//     go run ./internal/tools/classtable -focus frontier:preset=balanced -fast frontier:preset=turnaround runs.csv
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("classtable", flag.ContinueOnError)
	fs.SetOutput(stderr)
	w := fs.Float64("weight", 0.18, "the exchange rate: TAT ratio + weight × cost ratio")
	focus := fs.String("focus", "frontier:preset=balanced", "the strategy judged per config on TAT + weight × cost")
	fast := fs.String("fast", "", "a strategy judged per config on TAT ratio alone (e.g. frontier:preset=turnaround)")
	family := fs.String("family", "frontier", "strategies named FAMILY or FAMILY:… are the focus's own, not its competitors")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 || !(*w >= 0) || math.IsInf(*w, 0) {
		fmt.Fprintln(stderr, "usage: classtable [-weight W] [-focus NAME] [-fast NAME] [-family NAME] RUNS.csv ...")
		return 2
	}
	t := newTable()
	for _, p := range fs.Args() {
		if err := t.read(p); err != nil {
			fmt.Fprintln(stderr, "classtable:", err)
			return 1
		}
	}
	t.weight, t.focus, t.fast, t.family = *w, *focus, *fast, *family
	t.write(stdout)
	return 0
}

// result is one run's two ratios; ok is false for a run without a result.
type result struct {
	tat, cost float64
	ok        bool
}

type table struct {
	runs                map[string]map[string]result // config -> strategy -> result
	strategies          []string                     // in order of appearance
	weight              float64
	focus, fast, family string
}

func newTable() *table { return &table{runs: map[string]map[string]result{}} }

// read adds the runs of a dsbench CSV file.
func (t *table) read(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, need := range []string{"config", "strategy", "status", "turnaround_ratio", "cost_ratio"} {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("%s: no %s column (want dsbench -f csv output)", path, need)
		}
	}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := t.add(rec, col); err != nil {
			return fmt.Errorf("%s line %d: %w", path, line, err)
		}
	}
}

func (t *table) add(rec []string, col map[string]int) error {
	c, s := rec[col["config"]], rec[col["strategy"]]
	res := result{ok: rec[col["status"]] == "ok"}
	if res.ok {
		var err1, err2 error
		res.tat, err1 = strconv.ParseFloat(rec[col["turnaround_ratio"]], 64)
		res.cost, err2 = strconv.ParseFloat(rec[col["cost_ratio"]], 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("config %s, strategy %s: %w", c, s, err)
		}
	}
	if t.runs[c] == nil {
		t.runs[c] = map[string]result{}
	}
	if _, dup := t.runs[c][s]; dup {
		return fmt.Errorf("config %s, strategy %s: a second run", c, s)
	}
	t.runs[c][s] = res
	if !slices.Contains(t.strategies, s) {
		t.strategies = append(t.strategies, s)
	}
	return nil
}

var numbered = regexp.MustCompile(`-[0-9]+$`)

func classOf(config string) string { return numbered.ReplaceAllString(config, "") }

// classes returns the classes in order of name, each with its configs.
func (t *table) classes() ([]string, map[string][]string) {
	by := map[string][]string{}
	for c := range t.runs {
		by[classOf(c)] = append(by[classOf(c)], c)
	}
	names := make([]string, 0, len(by))
	for k := range by {
		names = append(names, k)
		sort.Strings(by[k])
	}
	sort.Strings(names)
	return names, by
}

// mean is s's mean TAT and cost ratio over configs, and how many it completed.
func (t *table) mean(s string, configs []string) (tat, cost float64, done int) {
	for _, c := range configs {
		if r := t.runs[c][s]; r.ok {
			tat, cost, done = tat+r.tat, cost+r.cost, done+1
		}
	}
	if done > 0 {
		tat, cost = tat/float64(done), cost/float64(done)
	}
	return tat, cost, done
}

func (t *table) score(r result) float64 { return r.tat + t.weight*r.cost }

func (t *table) own(s string) bool { return s == t.family || strings.HasPrefix(s, t.family+":") }
