package harness

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/plots"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// merged is a whole sweep rebuilt from its pieces.
type merged struct {
	sweep   Sweep
	results []bench.Result // in Runs order
	elapsed time.Duration
	shards  int
	note    string // what the report's reader should know, or ""
}

// mergePieces reads the pieces of one sweep and puts their runs back in
// Runs order. It refuses pieces of different sweeps, a shard given twice,
// missing shards (naming them) and pieces whose runs are not their shard's.
func mergePieces(files []string) (merged, error) {
	var m merged
	if len(files) == 0 {
		return m, fmt.Errorf("no piece given (dsbench merge PIECE.json...)")
	}
	from := map[int]string{}          // shard number → file
	timeouts := map[string][]string{} // --timeout → files
	var first string
	var all []pieceRun
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return m, err
		}
		p, err := parsePiece(f, data)
		if err != nil {
			return m, err
		}
		sh, err := bench.ParseShard(p.Shard)
		if err != nil {
			return m, fmt.Errorf("%s: %v", f, err)
		}
		if first == "" {
			first, m.sweep, m.shards = f, p.Sweep, sh.N
		} else if err := sameSweep(first, m.sweep, f, p.Sweep); err != nil {
			return m, err
		}
		if sh.N != m.shards {
			return m, fmt.Errorf("%s is shard %s but %s is one of %d shards: pieces of different splits", f, sh, first, m.shards)
		}
		if prev, dup := from[sh.I]; dup {
			return m, fmt.Errorf("shard %s given twice: %s and %s", sh, prev, f)
		}
		from[sh.I] = f
		if err := checkPieceRuns(f, sh, m.sweep, p.Runs); err != nil {
			return m, err
		}
		m.elapsed += p.Elapsed
		timeouts[p.Sweep.Target.Timeout] = append(timeouts[p.Sweep.Target.Timeout], f)
		all = append(all, p.Runs...)
	}
	var missing []string
	for i := 1; i <= m.shards; i++ {
		if _, ok := from[i]; !ok {
			missing = append(missing, bench.Shard{I: i, N: m.shards}.String())
		}
	}
	if len(missing) > 0 {
		word := "shard"
		if len(missing) > 1 {
			word = "shards"
		}
		return m, fmt.Errorf("missing %s %s of the sweep (have %d of %d pieces)", word, strings.Join(missing, ", "), len(from), m.shards)
	}
	m.note = timeoutNote(timeouts)
	m.results = make([]bench.Result, len(m.sweep.Configs)*len(m.sweep.Columns))
	for _, pr := range all {
		m.results[pr.Index] = pr.Result
	}
	return m, nil
}

// checkPieceRuns checks that a piece holds exactly its shard's runs, each
// the config and column the run order puts at its index.
func checkPieceRuns(file string, sh bench.Shard, sw Sweep, runs []pieceRun) error {
	cols := len(sw.Columns)
	total := len(sw.Configs) * cols
	want := 0
	for k := 0; k < total; k++ {
		if sh.Has(k) {
			want++
		}
	}
	if len(runs) != want {
		return fmt.Errorf("%s: shard %s of this sweep has %d runs, the file holds %d", file, sh, want, len(runs))
	}
	seen := map[int]bool{}
	for _, pr := range runs {
		k := pr.Index
		if k < 0 || k >= total || !sh.Has(k) || seen[k] {
			return fmt.Errorf("%s: run index %d is not one of shard %s's runs (or given twice)", file, k, sh)
		}
		seen[k] = true
		cfg, col := sw.Configs[k/cols].Name, sw.Columns[k%cols]
		if pr.Config != cfg || pr.Variant != col {
			return fmt.Errorf("%s: run %d is %s on %s, the sweep has %s on %s there", file, k, pr.Variant, pr.Config, col, cfg)
		}
	}
	return nil
}

// sameSweep names the first part of the fingerprint where two pieces
// differ. The timeout is not compared: it changes no finished run's
// result, only whether a run finished, and a run that timed out is a run
// without a result in either piece (its reason names its timeout), so a
// straggler shard can be run again with a longer one.
func sameSweep(fa string, a Sweep, fb string, b Sweep) error {
	a.Target.Timeout, b.Target.Timeout = "", ""
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) == string(jb) {
		return nil
	}
	var ma, mb map[string]json.RawMessage
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	what := "the sweep differs"
	va, vb := "", ""
	for _, k := range []string{"dsbench_version", "strategies", "target", "objective", "baselines", "configs"} {
		if string(ma[k]) != string(mb[k]) {
			what, va, vb = k+map[bool]string{true: " differ", false: " differs"}[strings.HasSuffix(k, "s")], string(ma[k]), string(mb[k])
			break
		}
	}
	if strings.HasPrefix(what, "configs") {
		if err := configSetDiff(fa, a.Configs, fb, b.Configs); err != nil {
			return err
		}
		what, va, vb = configDiff(a.Configs, b.Configs)
	}
	return fmt.Errorf("%s and %s are pieces of different sweeps: %s (%s in %s, %s in %s)",
		fa, fb, what, clip(va), fa, clip(vb), fb)
}

// configSetDiff refuses pieces whose configs are not the same set, saying
// which are in one only, or the same set in another order: the run list,
// and so each shard's slice of it, follows the order of the configs, so
// pieces of two orders hold some runs twice and miss others.
func configSetDiff(fa string, a []SweepConfig, fb string, b []SweepConfig) error {
	names := func(cs []SweepConfig) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	na, nb := names(a), names(b)
	onlyA, onlyB := missingFrom(na, nb), missingFrom(nb, na)
	if len(onlyA)+len(onlyB) > 0 {
		return fmt.Errorf("%s and %s are pieces of different sweeps: the sets of configs differ (only in %s: %s; only in %s: %s)",
			fa, fb, fa, clip(orNone(onlyA)), fb, clip(orNone(onlyB)))
	}
	for i := range na {
		if na[i] != nb[i] {
			return fmt.Errorf("%s and %s: the shards were given the configs in different orders (config %d is %s in %s, %s in %s); give them in the same order: each shard's runs follow it",
				fa, fb, i+1, na[i], fa, nb[i], fb)
		}
	}
	return nil
}

// missingFrom lists the names of a that b lacks, in a's order.
func missingFrom(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// configDiff describes the first config that differs (the pieces have
// the same configs in the same order: configSetDiff).
func configDiff(a, b []SweepConfig) (string, string, string) {
	for i := range max(len(a), len(b)) {
		switch {
		case i >= len(a):
			return "configs differ", "no config " + fmt.Sprint(i+1), b[i].Name
		case i >= len(b):
			return "configs differ", a[i].Name, "no config " + fmt.Sprint(i+1)
		case a[i].SHA256 != b[i].SHA256:
			return "the files of config " + a[i].Name + " differ", "sha256 " + prefix(a[i].SHA256, 12), "sha256 " + prefix(b[i].SHA256, 12)
		}
	}
	return "config transforms differ", "", ""
}

// timeoutNote says, when the pieces ran with different --timeout values,
// which, so that the merged report's runs that timed out are read with it.
func timeoutNote(timeouts map[string][]string) string {
	if len(timeouts) < 2 {
		return ""
	}
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(timeouts)) {
		parts = append(parts, t+" in "+strings.Join(timeouts[t], ", "))
	}
	return "the pieces ran with different --timeout values (" + strings.Join(parts, "; ") + "); a run that timed out is a run without a result, its reason naming its timeout"
}

func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}

// timelineRun rebuilds the single run a timeline plot draws from the
// sweep, when its config can be found again unchanged; else why not.
func (sw Sweep) timelineRun() (*bench.Run, error) {
	if len(sw.Configs) != 1 || len(sw.Columns) != 1 || sw.Target.Client != "" {
		return nil, nil
	}
	sc := sw.Configs[0]
	src := sources.Source{Name: sc.Name, Path: sc.Path, Base: sc.Base}
	if sc.Embedded {
		i := slices.IndexFunc(sources.Suite(), func(s sources.Source) bool { return s.Name == sc.Name && s.Path == sc.Path })
		if i < 0 {
			return nil, fmt.Errorf("config %s is not in the embedded suite", sc.Name)
		}
		src = sources.Suite()[i]
	}
	if sc.ArrivalFactor != nil || sc.Inaccuracy != nil {
		src.Base = sc.Base
		src.Transform = sources.Transform{HasArrival: sc.ArrivalFactor != nil, HasInaccuracy: sc.Inaccuracy != nil}
		if sc.ArrivalFactor != nil {
			src.Transform.ArrivalFactor = *sc.ArrivalFactor
		}
		if sc.Inaccuracy != nil {
			src.Transform.Inaccuracy = *sc.Inaccuracy
		}
	}
	if sourceDigest(src) != sc.SHA256 {
		return nil, fmt.Errorf("config %s (%s) is not here as it was in the sweep", sc.Name, sc.Path)
	}
	vs, err := columns.ParseVariants([]string{sw.Columns[0]})
	if err != nil || len(vs) != 1 {
		return nil, fmt.Errorf("strategy %s: %v", sw.Columns[0], err)
	}
	return &bench.Run{Source: src, Variant: &vs[0]}, nil
}

type mergeConfig struct {
	format, plots, out string
	strict, help       bool
}

// mergeMain is "dsbench merge [flags] FILE...": the report of the whole
// sweep from its pieces, as the unsharded run would print and write it.
func mergeMain(args []string, stdout, stderr io.Writer) int {
	var c mergeConfig
	fs := pflag.NewFlagSet("dsbench merge", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.StringVarP(&c.format, "format", "f", "", "output: table, markdown, csv or json (default, also when empty: as --out's extension says, .csv, .json or .md, else table)")
	fs.StringVar(&c.plots, "plots", "", "write plots (SVG and PNG) into this folder (an earlier run's plots that this run does not draw are named on stderr)")
	fs.StringVar(&c.out, "out", "", "write the report to this file instead of stdout (- is stdout)")
	fs.BoolVar(&c.strict, "strict", false, "exit 3 when any run has no result")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "dsbench merge: %v (see dsbench merge -h)\n", err)
		return ExitUsage
	}
	if c.help {
		fmt.Fprintf(stdout, "Usage: dsbench merge [flags] PIECE.json...\n\n"+
			"Rebuilds the report of a sweep run as shards (dsbench --shard i/n --out PIECE.json)\n"+
			"from every one of its pieces: the same tables, formats and plots as the unsharded run.\n\nFlags:\n%s", fs.FlagUsages())
		return ExitOK
	}
	format, warning, err := reportFormat(c.format, fs.Changed("format"), c.out)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench merge: %v\n", err)
		return ExitUsage
	}
	if warning != "" {
		fmt.Fprintln(stderr, "dsbench merge: warning:", warning)
	}
	m, err := mergePieces(fs.Args())
	pieces := func() []InputFile {
		var in []InputFile
		for _, f := range fs.Args() {
			in = append(in, InputFile{f, "a piece to merge"})
		}
		return in
	}
	if err == nil {
		if c.out != "-" {
			err = checkOutput("--out", c.out, pieces) // after the pieces: a refused merge makes no folder
		}
	}
	if err == nil {
		err = checkFolder("--plots", c.plots, pieces, plots.IsOwnFile)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dsbench merge: %v\n", err)
		return ExitUsage
	}
	if m.note != "" {
		fmt.Fprintln(stderr, "dsbench merge: note:", m.note)
	}
	objective, err := report.ParseMeasure(m.sweep.Objective)
	if err != nil {
		fmt.Fprintf(stderr, "dsbench merge: objective: %v\n", err)
		return ExitUsage
	}
	rp := benchReport{configs: sweepConfigNames(m.sweep), columns: m.sweep.Columns, baselines: m.sweep.Baselines,
		objective: objective, format: format, plots: c.plots, strict: c.strict, elapsed: m.elapsed,
		where: whereOf(m.sweep.Target), merged: m.shards}
	if c.plots != "" {
		if rp.timeline, err = m.sweep.timelineRun(); err != nil {
			fmt.Fprintf(stderr, "dsbench merge: no timeline plot: %v\n", err)
		}
	}
	return rp.writeTo(c.out, stdout, stderr, m.results)
}

func sweepConfigNames(sw Sweep) []string {
	var out []string
	for _, c := range sw.Configs {
		out = append(out, c.Name)
	}
	return out
}

func whereOf(t SweepTarget) string {
	return where(bench.Target{Server: t.Server, Client: t.Client})
}
