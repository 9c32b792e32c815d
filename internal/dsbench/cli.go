// Package dsbench is the dsbench command: it runs strategies × configs
// (package harness/bench) and prints the course-style comparison (package
// harness/report), with the plots, the run viewer's page and the wait split
// when asked; with --shard i/n it writes one slice of the runs as a piece,
// and "dsbench merge" rebuilds the whole report from the pieces (package
// harness/shard). cmd/dsbench only calls Main. Everything here is the
// command line: flags, the checks made before any run, the progress bar,
// the interrupt, stdout and stderr, the exit statuses.
package dsbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/ports"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/internal/flaghint"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol/didyoumean"
	"github.com/dssim-go/dssim-go/strategies"
)

// Exit statuses of dsbench.
const (
	ExitOK      = 0 // the report was printed (runs without a result are in it)
	ExitFailure = 1 // nothing could be reported: no config loaded, output failed
	ExitUsage   = 2 // bad flags or arguments
	ExitStrict  = 3 // --strict and at least one run has no result
)

// DefaultBaselines is the 2024/25 course harness's baseline set
// (harness.md §3.5, decision 1).
var DefaultBaselines = []string{"atl", "ff", "bf", "fc", "fafc"}

type cliConfig struct {
	algos     []string
	baselines []string
	objective string
	server    string
	client    string
	label     string
	clientDir string
	newline   bool
	timeout   time.Duration
	parallel  int
	format    string
	plots     string
	out       string
	strict    bool
	progress  string
	list      bool
	help      bool
	arrival   []string // --arrival-factor sweep values (sources.Expand)
	inacc     []string // --inaccuracy sweep values
	replay000 string   // --replay000 sweep spec (sources.Replay000)
	memwork   string   // --memwork sweep spec (sources.Memwork)
	memFail   string   // --mem-fail: dsmock's memory extension
	year      string   // --year: the ds-server release the built-in simulator speaks
	shard     string   // --shard i/n (shard.go)
	keepLogs  string   // --keep-logs DIR (runlogs.go)
	ports     string   // --ports LO-HI (ports.go)
	html      string   // --html FILE: the run viewer (timeline_html.go)
	waits     string   // --waits FILE: the wait split of every run (html.go)
	costs     string   // --costs FILE: the cost split of every run (html.go)
	// corpus is --corpus, a generated corpus's spec (sources.go).
	corpus corpusFlag
	// duplicates are the columns of -a and -b written twice and merged
	// (spec.go), said on stderr before the runs.
	duplicates []columns.Duplicate
}

func cliFlags(c *cliConfig) *pflag.FlagSet {
	fs := pflag.NewFlagSet("dsbench", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetNormalizeFunc(algorithmAlias)
	fs.StringArrayVarP(&c.algos, "algo", "a", nil, "strategies to run: name, name:key=v1,v2 (a sweep), comma-separated or repeated (default: every registered strategy; with --client: the baselines); --algorithm, dsclient's name, works too")
	fs.StringArrayVarP(&c.baselines, "baselines", "b", DefaultBaselines, "columns the Normalised rows and the wins compare against: names or specs as in -a (thr:pmin=5,queue=gq is one column) and --client's label, comma-separated or repeated (each -b starts a column)")
	fs.StringVarP(&c.objective, "objective", "o", "tt", "objective for the wins: tt (turnaround), ru (utilisation) or co (cost); not the output file, which is --out")
	fs.StringVar(&c.server, "server", "", "run against a TCP server: \"dsmock\" (the built-in simulator over loopback) or the path of a server binary, launched per run (default: in-process)")
	fs.StringVar(&c.client, "client", "", "an external client command run per config, split on spaces with no shell; {port} is replaced by the run's port (e.g. \"java MyClient -p {port}\")")
	fs.StringVar(&c.label, "client-label", "client", "column name of the --client command")
	fs.StringVar(&c.clientDir, "client-dir", ".", "folder the --client command runs in and where its script (client.py, Client.jar, …) must be; ds-system.xml is written there")
	fs.StringVar(&c.keepLogs, "keep-logs", "", "keep each run's server log (and a --client's stderr) in this folder, for debugging (timed-out runs too)")
	fs.StringVar(&c.ports, "ports", "", "the TCP ports the runs' servers listen on, LO-HI (default: $"+ports.Env+" if set, else any free port; a --server binary: within 49152-65535)")
	fs.BoolVarP(&c.newline, "newline", "n", false, "newline mode (ds-server -n)")
	fs.DurationVar(&c.timeout, "timeout", bench.DefaultTimeout, "per-run timeout; a run still going is killed and reported")
	fs.IntVarP(&c.parallel, "jobs", "j", 0, "runs in parallel (default: the number of CPUs)")
	fs.StringVarP(&c.format, "format", "f", "", "output: summary (one ranked table and what to look at), table (the course's full tables), markdown, csv or json (default, also when empty: as --out's extension says, .csv, .json or .md, else summary; with --client: table)")
	fs.StringVar(&c.plots, "plots", "", "write plots (SVG and PNG) into this folder (an earlier run's plots that this run does not draw are named on stderr)")
	fs.StringVar(&c.out, "out", "", "write the report (or a shard's piece) to this file instead of stdout (- is stdout)")
	fs.BoolVar(&c.strict, "strict", false, "exit 3 when any run has no result (with --shard: any of the shard's runs, once its piece is written)")
	fs.StringVar(&c.progress, "progress", "auto", "progress bar on stderr: auto (when stderr is a terminal), always or never")
	fs.StringArrayVar(&c.arrival, "arrival-factor", nil, "workload transform, a sweep: submit times × f (e.g. 0.25,0.5,1; lower is heavier load; in (0, 100])")
	fs.StringArrayVar(&c.inacc, "inaccuracy", nil, "workload transform, a sweep: % inaccuracy of estimates (0 exact … 100 the file's own, e.g. 0,50,100)")
	fs.StringVar(&c.memwork, "memwork", "", "add the memory-extension workloads (docs/memory-extension.md), e.g. \"seeds=1,f=1/32|1/8|1,jobs=2000\"; alone when no config is named")
	fs.StringVar(&c.memFail, "mem-fail", "", "dsmock's memory extension (docs/memory-extension.md) with this failure model: hard, machine or contention (default: off); needs job files with actMemory, e.g. --memwork")
	fs.StringVar(&c.year, "year", mocksrv.DefaultYear.String(), "the ds-server the built-in simulator speaks, in-process or over TCP: 2026 (2-Apr-2026, GETS records carry the hourly rate) or 2025 (4-Apr-2025); a --server binary speaks its own")
	fs.Var(&c.corpus, "corpus", "add the configs of a generated corpus (docs/corpus.md), e.g. \"seed=2,all*25\", made in memory, each a row named as writecorpus names its file (tiny-007); alone when no config is named")
	fs.StringVar(&c.replay000, "replay000", "", "add the provisioning thesis's replays (docs/provisioning.md), e.g. \"seeds=0-499,pmax=5,estimate=mean|oracle,limit=3\"; alone when no config is named")
	fs.StringVar(&c.html, "html", "", "write the run viewer to this file: one self-contained HTML page: the frontier and a clickable cost-against-turnaround plot, the comparison as sortable tables marked against the baselines, per-run timelines (docs/dsview.md)")
	fs.StringVar(&c.waits, "waits", "", "write each run's wait split to this file (- for stdout): what waiting adds to the TAT ratio, up to a boot and beyond (the runs are simulated again in-process)")
	fs.StringVar(&c.costs, "costs", "", "write each run's cost split to this file (- for stdout): what the cost ratio is made of, from the work at the cheapest rates to servers billed empty (the runs are simulated again in-process)")
	fs.StringVar(&c.shard, "shard", "", "run only slice i of n of the runs (round-robin) and write them as JSON for \"dsbench merge\", e.g. 2/4")
	fs.BoolVar(&c.list, "list", false, "list the strategies and their parameters, then exit")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

// algorithmAlias makes --algorithm, dsclient's name for the strategy
// flag, the same flag as --algo (one flag, so that -a ff --algorithm bf
// is two columns as -a ff -a bf is): a user moving between the two
// commands does not trip on the spelling.
func algorithmAlias(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	if name == "algorithm" {
		name = "algo"
	}
	return pflag.NormalizedName(name)
}

// Main is dsbench: it parses args, runs the bench and writes the report.
// wrapConn (may be nil) is Target.WrapConn, for the runs over TCP.
func Main(args []string, stdout, stderr io.Writer, wrapConn func(net.Conn) net.Conn) int {
	if len(args) > 0 && args[0] == "merge" {
		return mergeMain(args[1:], stdout, stderr)
	}
	var c cliConfig
	fs := cliFlags(&c)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "dsbench: %v (see dsbench -h)\n", flaghint.Error(fs, err))
		return ExitUsage
	}
	if c.help {
		usage(stdout, fs)
		return ExitOK
	}
	if c.list {
		listStrategies(stdout)
		return ExitOK
	}
	b, objective, format, code := c.setup(fs, stderr)
	if code != proceed {
		return code
	}
	b.Target.WrapConn = wrapConn
	b.Since = sinceStart

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	runs := len(b.Selected())
	if bar := c.progressBar(stderr, runs); bar != nil {
		b.OnResult = func(bench.Result) { _ = bar.Add(1) }
		defer func() { _ = bar.Finish() }()
	}
	start := time.Now()
	results := b.Run(ctx)
	elapsed := time.Since(start)
	if b.Shard.N > 0 {
		return c.writeShard(ctx, stdout, stderr, b, objective, elapsed, results)
	}
	rp := benchReport{configs: sources.Names(b.Sources), columns: b.Columns(), baselines: c.baselines, objective: objective,
		format: format, where: where(b.Target), elapsed: elapsed, plots: c.plots, strict: c.strict}
	if len(b.Sources) == 1 && len(b.Variants) == 1 && b.Target.Client == "" {
		rp.timeline = &bench.Run{Source: b.Sources[0], Variant: &b.Variants[0]}
	}
	code = rp.writeTo(c.out, stdout, stderr, results)
	if c.html != "" && code != ExitFailure {
		code = writeHTMLReport(c.html, stderr, b, rp, results, code)
	}
	if (c.waits != "" || c.costs != "") && code != ExitFailure {
		code = writeSplitReports(&c, stdout, stderr, b, code)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "dsbench: interrupted")
		return ExitFailure
	}
	return code
}

// sinceStart measures a run's wall time (Bench.Since); the shard/merge
// test fixes it, so that two sweeps can be compared byte for byte.
var sinceStart = time.Since

// proceed is setup's status when the runs may start.
const proceed = -1

// setup turns the parsed flags into the bench, the objective and the
// report's format, with every check made before any run; its status is
// proceed, or the exit status of a refusal (said on stderr).
func (c *cliConfig) setup(fs *pflag.FlagSet, stderr io.Writer) (*bench.Bench, report.Measure, report.Format, int) {
	format, formatWarning, err := reportFormat(c.format, fs.Changed("format"), c.out, c.client != "")
	var b *bench.Bench
	var objective report.Measure
	if err == nil {
		b, objective, err = c.bench(fs.Args())
	}
	if err == nil && c.shard != "" {
		b.Shard, err = c.parseShard(fs)
	}
	for _, o := range c.splitOutputs() {
		if err == nil && o[1] != "" && b.Target.Client != "" {
			err = fmt.Errorf("%s is not available with --client: dsbench cannot simulate an external client's runs again; keep their logs (--keep-logs DIR) and give them to dsview %s", o[0], o[0])
		}
	}
	if err == nil && fs.Changed("baselines") {
		err = checkBaselines(c.baselines, b.Columns())
	}
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: %v\n", err)
		return nil, 0, "", ExitUsage
	}
	for _, d := range c.duplicates {
		fmt.Fprintln(stderr, "dsbench:", d)
	}
	warnings := sources.ConfigWarnings(b.Sources, swfRun(b.Target))
	if formatWarning != "" && b.Shard.N == 0 { // a shard's piece is JSON whatever its name
		warnings = append(warnings, formatWarning)
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "dsbench: warning:", w)
	}
	for _, l := range sources.ConversionReports(b.Sources) {
		fmt.Fprintln(stderr, "dsbench:", l)
	}
	if err := b.Target.CheckClient(); err != nil {
		fmt.Fprintf(stderr, "dsbench: %v\n", err) // nothing of the client could run
		return nil, 0, "", ExitFailure
	}
	if err := c.checkOutputs(b); err != nil {
		fmt.Fprintf(stderr, "dsbench: %v\n", err)
		return nil, 0, "", ExitUsage
	}
	return b, objective, format, proceed
}

func where(t bench.Target) string {
	switch {
	case t.Client != "" && t.Server == "":
		return "(client over TCP against the built-in simulator, " + "ds-server " + t.Year.String() + ")"
	case t.Server == "":
		return "(in-process, " + "ds-server " + t.Year.String() + ")"
	case t.Server == bench.ServerDsmock:
		return "(over TCP against the built-in simulator, " + "ds-server " + t.Year.String() + ")"
	}
	return "(against " + t.Server + ")"
}

// bench turns the flags and arguments into a Bench.
func (c *cliConfig) bench(args []string) (*bench.Bench, report.Measure, error) {
	objective, err := report.ParseMeasure(c.objective)
	if err != nil {
		return nil, 0, objectiveHint(c.objective, err)
	}
	var baseVariants []columns.Variant
	var baseDups []columns.Duplicate
	if c.baselines, baseVariants, baseDups, err = parseBaselines(c.baselines); err != nil {
		return nil, 0, err
	}
	if c.parallel < 0 {
		return nil, 0, fmt.Errorf("-j %d: want 1 or more runs at once (or 0, the default: one per CPU)", c.parallel)
	}
	if c.timeout <= 0 {
		return nil, 0, errors.New("--timeout must be positive")
	}
	if c.progress != "auto" && c.progress != "always" && c.progress != "never" {
		return nil, 0, fmt.Errorf("--progress %q: want auto, always or never%s", c.progress, didyoumean.Hint(c.progress, []string{"auto", "always", "never"}))
	}
	if strings.TrimSpace(c.client) == "" && c.client != "" {
		return nil, 0, errors.New("--client: empty command")
	}
	var variants []columns.Variant
	switch {
	case len(c.algos) > 0:
		// -a "" with --client runs the client alone; without one it
		// would run nothing.
		if variants, c.duplicates, err = columns.ParseColumns(c.algos); err == nil && len(variants) == 0 && c.client == "" {
			err = fmt.Errorf("-a %q: names no strategy (dsbench --list shows them)", strings.Join(c.algos, " "))
		}
	case c.client != "":
		variants = baseVariants
	default:
		variants = columns.AllVariants()
	}
	if err == nil && c.client != "" {
		err = checkClientLabel(c.label)
	}
	if err != nil {
		return nil, 0, err
	}
	c.duplicates = append(c.duplicates, baseDups...)
	c.baselines = baselineColumns(c.baselines, baseVariants, variants)
	srcs, err := c.inputs(args)
	if err != nil {
		return nil, 0, err
	}
	if srcs, err = c.transform(srcs); err != nil {
		return nil, 0, err
	}
	if c.server != "" && c.server != bench.ServerDsmock {
		if _, err := os.Stat(c.server); err != nil {
			return nil, 0, fmt.Errorf("--server: %w", err)
		}
		// The server runs in a private folder: a relative path would be
		// looked up there.
		if c.server, err = filepath.Abs(c.server); err != nil {
			return nil, 0, err
		}
	}
	if st, err := os.Stat(c.clientDir); err != nil || !st.IsDir() {
		return nil, 0, fmt.Errorf("--client-dir %s: not a folder", c.clientDir)
	}
	t, err := c.target()
	if err != nil {
		return nil, 0, err
	}
	if err := checkMemFail(srcs, t.MemFail); err != nil {
		return nil, 0, err
	}
	return &bench.Bench{
		Sources:  srcs,
		Variants: variants,
		Parallel: c.parallel,
		Target:   t,
	}, objective, nil
}

// objectiveHint adds to -o's error, when its value looks like a file name,
// that -o is not the output here: it is in dsswf and dsview, and
// "dsbench -f csv -o results.csv" is an easy slip.
func objectiveHint(value string, err error) error {
	if value == "-" || strings.ContainsAny(value, "/\\") || len(filepath.Ext(value)) > 1 {
		return fmt.Errorf("%w (-o is the objective; the output file is --out)", err)
	}
	return err
}

// parseBaselines reads -b values: the column labels, and the variants of
// those that are strategies (what --client without -a runs beside the
// client). Each -b value starts a column, and within one, a spec with
// parameters is one column however many commas it holds, as in -a, named
// by its label (keys in order, as the columns are): "-b
// thr:queue=gq,pmin=5" names the column thr:pmin=5,queue=gq, and a sweep
// names each of its columns. A bare word after a spec without parameters
// starts a new column; one that is no strategy (and holds none of
// ":=,[];") is kept as written, a --client column's label. pflag's comma
// list, which -b was, had split every spec with two parameters into
// pieces that named no column. Two writings of one column (Duplicate) are
// one baseline, under the first.
func parseBaselines(values []string) ([]string, []columns.Variant, []columns.Duplicate, error) {
	var bs baselineSet
	for _, piece := range baselinePieces(values) {
		specs, err := strategies.ParseSweeps("-b", []string{piece})
		if err != nil {
			return nil, nil, nil, err
		}
		vs, dups, err := columns.FromSweeps("-b", specs)
		switch {
		case err == nil:
			bs.dups = append(bs.dups, dups...)
			for _, v := range vs {
				bs.addVariant(v)
			}
		case !strings.ContainsAny(piece, strategies.SpecPunctuation):
			if !slices.Contains(bs.labels, piece) {
				bs.labels = append(bs.labels, piece) // a column no strategy makes: --client's
			}
		default:
			hint := ""
			if i := strings.LastIndexByte(piece, ','); i >= 0 && !strings.ContainsAny(piece[i+1:], ":=[]") {
				// A bare word after a spec with parameters is one of its
				// sweep values, as in -a.
				hint = fmt.Sprintf(" (if %s is a column of its own, give it its own -b)", piece[i+1:])
			}
			return nil, nil, nil, fmt.Errorf("-b %s: %w%s", piece, err, hint)
		}
	}
	return bs.labels, bs.variants, bs.dups, nil
}

// baselineSet gathers parseBaselines' columns across -b values.
type baselineSet struct {
	labels   []string
	variants []columns.Variant
	dups     []columns.Duplicate
	kept     map[string]string // identity → label, as in columns.FromSweeps
}

func (bs *baselineSet) addVariant(v columns.Variant) {
	id, _ := v.Identity() // columns.FromSweeps has made it
	if label, dup := bs.kept[id]; dup {
		bs.dups = append(bs.dups, columns.Duplicate{Flag: "-b", Kept: label, Dropped: v.Label()})
		return
	}
	if bs.kept == nil {
		bs.kept = map[string]string{}
	}
	bs.kept[id] = v.Label()
	bs.labels = append(bs.labels, v.Label())
	bs.variants = append(bs.variants, v)
}

// baselineColumns names each -b strategy by the label of the column it is
// (same strategies.Identity), which may be another writing of it: with -a
// frontier:weight=10.0, -b frontier:weight=10 is that column, and with -a
// cost-reduce:multiplier=4 (the default), -b cost-reduce is. A baseline
// no column is, and --client's label, are kept as written (checkBaselines
// refuses the first when the user wrote it).
func baselineColumns(labels []string, baseVariants, columns []columns.Variant) []string {
	byID := map[string]string{}
	for _, v := range columns {
		if id, err := v.Identity(); err == nil {
			byID[id] = v.Label()
		}
	}
	idOf := map[string]string{} // -b label → identity
	for _, bv := range baseVariants {
		if id, err := bv.Identity(); err == nil {
			idOf[bv.Label()] = id
		}
	}
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = l
		if col, ok := byID[idOf[l]]; ok && idOf[l] != "" {
			out[i] = col
		}
	}
	return out
}

// baselinePieces splits -b values into one spec each: a value's first
// token, a token with a colon, a strategy's name, or a bare word after a
// spec without parameters starts a new one; "key=value" and a sweep's
// further values continue the current one.
func baselinePieces(values []string) []string {
	var out []string
	params := false // the current piece has a key=value
	for _, value := range values {
		toks, err := strategies.SplitTop(value, ',')
		if err != nil {
			toks = []string{value} // unbalanced brackets: ParseVariants says so
		}
		first := true // each -b starts a column
		for _, tok := range toks {
			tok = strings.TrimSpace(tok)
			if tok == "" {
				continue
			}
			_, _, hasColon := strategies.CutTop(tok, ':')
			_, _, hasEq := strategies.CutTop(tok, '=')
			_, isName := strategies.Lookup(tok)
			if first || hasColon || isName || (!hasEq && !params) {
				first = false
				out = append(out, tok)
				params = hasColon
				continue
			}
			out[len(out)-1] += "," + tok
			params = params || hasEq
		}
	}
	return out
}

// checkBaselines refuses a -b the user wrote that is not a column: it
// would be dropped from the Normalised rows and the wins without a word.
// (The default baselines absent from -a are dropped quietly: nobody asked
// for them.)
func checkBaselines(bases, columns []string) error {
	for _, b := range bases {
		if slices.Contains(columns, b) {
			continue
		}
		if _, ok := strategies.Lookup(b); ok {
			return fmt.Errorf("-b %s: not among the strategies run: add it to -a (columns: %s)", b, strings.Join(columns, ", "))
		}
		return fmt.Errorf("-b %s: no such column (columns: %s)", b, strings.Join(columns, ", "))
	}
	return nil
}

// checkClientLabel refuses a --client column name that the report could
// not tell apart or -b could not name: a strategy's name (two columns "ff",
// and "Normalised (ff)" against either), or one holding the characters that
// separate specs in -a and -b (every column of -a is a strategy's name or
// holds a colon, so no other label can clash with one).
func checkClientLabel(label string) error {
	switch {
	case strings.TrimSpace(label) == "":
		return errors.New("--client-label: empty (the column needs a name)")
	case strings.ContainsAny(label, strategies.SpecPunctuation):
		return fmt.Errorf("--client-label %q: holds one of : = , [ ] ; which separate strategies in -a and -b, so -b could not name the column", label)
	}
	if _, ok := strategies.Lookup(label); ok {
		return fmt.Errorf("--client-label %s: the name of a strategy; choose another, so that its column and the client's are told apart", label)
	}
	return nil
}

// target is where the runs happen, from the flags.
func (c *cliConfig) target() (bench.Target, error) {
	t := bench.Target{Server: c.server, Client: c.client, ClientLabel: c.label, ClientDir: c.clientDir,
		Newline: c.newline, Timeout: c.timeout, KeepLogs: c.keepLogs}
	var err error
	if c.memFail != "" {
		if t.MemFail, err = mocksrv.ParseMemFailModel(c.memFail); err != nil {
			return t, fmt.Errorf("--mem-fail: %w", err)
		}
	}
	if c.year != "" { // "": a cliConfig not made by cliFlags, the default
		if t.Year, err = mocksrv.ParseYear(c.year); err != nil {
			return t, fmt.Errorf("--year: %w", err)
		}
	}
	what := "--ports"
	if c.ports != "" {
		t.Ports, err = ports.Parse(what, c.ports)
	} else {
		what = "$" + ports.Env
		t.Ports, err = ports.FromEnv()
	}
	if err == nil {
		err = t.CheckServerPorts(what)
	}
	if err != nil {
		return t, err
	}
	if c.keepLogs != "" {
		if err := os.MkdirAll(c.keepLogs, 0o755); err != nil {
			return t, fmt.Errorf("--keep-logs: %w", err)
		}
	}
	return t, nil
}

func (c *cliConfig) progressBar(stderr io.Writer, n int) *progressbar.ProgressBar {
	show := c.progress == "always"
	if c.progress == "auto" {
		f, ok := stderr.(*os.File)
		show = ok && term.IsTerminal(int(f.Fd()))
	}
	if !show || n < 2 {
		return nil
	}
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("runs"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, `Usage: dsbench [flags] [config.xml | folder | fixture-folder ...]
       dsbench --shard i/n --out PIECE.json [flags] [configs ...]
       dsbench merge [-f FORMAT] [--plots DIR] [--out FILE] PIECE.json ...

Runs strategies × configs against the ds-sim simulator and prints a summary:
the strategies ranked by configs finished, then the objective (-o), with their
mean turnaround, utilisation, cost and ratios to the physical bounds, and
which one to look at and why. -f table prints the course-style comparison
instead (the default with --client): turnaround, utilisation and cost per
config, the Average and Normalised rows against the baselines (-b), the
configs where each strategy beats every baseline, and each result against
its physical bound. With no config it runs the embedded suite (package
configs). A workload
trace in the Standard Workload Format (trace.swf or .swf.gz, options after a
colon, e.g. trace.swf:procs-per-core=4,time-scale=0.5; see dsswf -h) is
converted and run as a config, with servers derived from the trace; what
the conversion left out is said on stderr, once per trace. A trace option
takes one value: give the trace once per value to compare several.

A sweep can be split over machines: each runs --shard i/n (slices of the
run list that share every config and strategy) and writes a JSON piece; "dsbench merge" of all n pieces
prints the report the whole sweep would.

An output flag (--out, --html, --waits, --costs, --plots, --keep-logs), or a
--client-dir where ds-system.xml would be written, that would write over an
input (a config, its job or failure file, a trace, a piece), by its name or
through a hard or symbolic link, is refused before any run.

Flags:
%s
Environment: %s=LO-HI is the port range when --ports is not given.

Exit status: 0 report printed (runs without a result are listed in it),
1 nothing could be reported or no run produced a result, 2 usage error,
3 --strict and a run failed (with --shard: one of the shard's; the piece is
still written).
`, fs.FlagUsages(), ports.Env)
}

func listStrategies(w io.Writer) {
	fmt.Fprintln(w, "Strategies (set a parameter with -a NAME:KEY=VALUE; several values, VALUE1,VALUE2, are a sweep):")
	_ = strategies.WriteList(w)
}
