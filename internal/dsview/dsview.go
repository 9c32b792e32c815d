// Package dsview is the dsview command: it reads a config and one or more
// ds-server or dsmock logs of runs of that config and writes the run
// viewer's page (harness/viewer), the runs one above the other on one
// time axis.
package dsview

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/dssim-go/dssim-go/harness/outputs"
	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/internal/flaghint"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// Exit statuses.
const (
	ExitOK      = 0
	ExitFailure = 1 // a file could not be read or is refused
	ExitUsage   = 2 // a bad command line, or an -o that is one of the inputs
)

// usageError is a command line refused for what its files are (an -o
// that is an input): ExitUsage, the status dsbench gives the same
// refusal.
type usageError struct{ error }

// Main runs dsview with args (without the program name).
func Main(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("dsview", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	config := fs.StringP("config", "c", "", "the configuration file the runs used, or the SWF trace dsmock --swf ran, as given to it (trace.swf[:key=value,...]; add servers=config.xml when dsmock had -c config.xml) (required: the log names servers and jobs, the config says what they are)")
	out := fs.StringP("out", "o", "", "write the page (or the --waits or --costs table) here, making missing folders; - for stdout (default: stdout, but a page goes to CONFIG.html when stdout is a terminal)")
	title := fs.String("title", "", "page title (default: the config's name)")
	waits := fs.Bool("waits", false, "write each run's wait split as a table instead of the page: what waiting adds to the TAT ratio, up to a boot and beyond")
	costs := fs.Bool("costs", false, "write each run's cost split as a table instead of the page: what the cost ratio is made of, from the work at the cheapest rates to servers billed empty")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "dsview: %v (see dsview -h)\n", flaghint.Error(fs, err))
		return ExitUsage
	}
	if *help {
		printHelp(stdout, fs)
		return ExitOK
	}
	if *config == "" || fs.NArg() == 0 {
		switch {
		case *config == "" && fs.NArg() == 0:
			fmt.Fprintln(stderr, "dsview: want -c config.xml and at least one log (see dsview -h)")
		case *config == "":
			fmt.Fprintf(stderr, "dsview: no -c: give the config the runs used, dsview -c config.xml %s (see dsview -h)\n", strings.Join(fs.Args(), " "))
		default:
			fmt.Fprintf(stderr, "dsview: no log given: dsview -c %s run.log, a log ds-server or dsmock wrote with -v brief or -v all (see dsview -h)\n", *config)
		}
		return ExitUsage
	}
	chosen := false // the page's file was chosen here: say which
	if *waits && *costs {
		fmt.Fprintln(stderr, "dsview: --waits and --costs: one table at a time (run dsview once for each)")
		return ExitUsage
	}
	if *out == "" && !*waits && !*costs && isTerminal(stdout) {
		// 200 KB of HTML is no use on a terminal: the page goes to a file
		// named after the config, said on stderr (a pipe still gets it).
		*out, chosen = defaultPage(*config), true
	}
	if *out == "-" {
		*out = ""
	}
	for _, w := range configWarnings(*config) {
		fmt.Fprintln(stderr, "dsview: warning:", w)
	}
	page, err := readInputs(*config, *out, *title, fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "dsview: %v\n", err)
		if errors.As(err, new(usageError)) {
			return ExitUsage
		}
		return ExitFailure
	}
	for _, n := range page.Notes { // runs left out: on the page, and said here
		fmt.Fprintf(stderr, "dsview: %s\n", n)
	}
	render := page.Render
	switch {
	case *waits:
		render = func(w io.Writer) error { return writeWaits(w, page.Groups[0].Runs) }
	case *costs:
		render = func(w io.Writer) error { return writeCosts(w, page.Groups[0].Runs) }
	}
	if err := write(render, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "dsview: %v\n", err)
		return ExitFailure
	}
	if chosen {
		fmt.Fprintf(stderr, "dsview: page written to %s (stdout is a terminal; -o - writes it there)\n", *out)
	}
	return ExitOK
}

// printHelp is dsview -h.
func printHelp(stdout io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(stdout, "Usage: dsview -c config.xml [-o page.html] run.log [other-run.log ...]\n"+
		"       dsview -c config.xml --waits [-o waits.txt] run.log [other-run.log ...]\n"+
		"       dsview -c config.xml --costs [-o costs.txt] run.log [other-run.log ...]\n\n"+
		"Writes a self-contained HTML page showing each run (a ds-server or dsmock log at\n"+
		"-v all or -v brief; .gz accepted): servers and jobs over time, the global queue,\n"+
		"powered cores and the accumulated cost; several logs share one time axis.\n"+
		"A run that cannot be drawn (a log cut short, no job placed) is left out with a\n"+
		"note when another can be; a single log that cannot be drawn is refused.\n"+
		"With --waits, a table instead: per run, what its jobs' waits add to the TAT ratio,\n"+
		"split at the boot time of the type each job completed on; a run that ended with\n"+
		"jobs not completed (failed ones left in the global queue, offered ones not placed\n"+
		"when the client quit) has none and is left out of the mean, as in dsbench; when\n"+
		"no run has one, dsview fails.\n"+
		"With --costs, a table instead: per run, its cost ratio (cost over every job's\n"+
		"core-seconds at the cheapest rate per core that can hold it) split into that\n"+
		"work, dearer types, runs lost, cores unused on busy servers and servers billed\n"+
		"empty, which add up to it; then their mean, for two logs or more.\n\n"+
		"A log of dsmock --swf trace.swf[:options] is read with -c trace.swf[:options]\n"+
		"(the same options; servers=config.xml when dsmock was given -c config.xml).\n\nFlags:\n%s\n"+
		"Exit status: %d page or table written; %d a config or log that cannot be read or is\n"+
		"refused, an unwritable output, or --waits with no run that has a wait split;\n"+
		"%d bad command line (also an -o that is one of the inputs).\n", fs.FlagUsages(), ExitOK, ExitFailure, ExitUsage)
}

// isTerminal says whether w is a terminal (a variable: the tests have none).
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// defaultPage is the page's file when -o is not given and stdout is a
// terminal: the config's name with .html, in the current folder.
func defaultPage(config string) string {
	name, _, _ := strings.Cut(pageName(config), ":") // an SWF trace's options are no file name
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, name) + ".html"
}

// readInputs checks that -o is none of the inputs, then reads the config
// and the logs into the page. The files the config names are known only
// once it is loaded, and are checked then, still before anything is
// written.
func readInputs(config, out, title string, logs []string) (*viewer.Page, error) {
	inputs := configInputs(config)
	for _, l := range logs {
		inputs = append(inputs, outputs.InputFile{Path: l, What: "the log"})
	}
	if err := checkOutNotInput(out, inputs); err != nil {
		return nil, err
	}
	cfg, err := loadConfig(config)
	if err != nil {
		return nil, err
	}
	if err := checkOutNotInput(out, loadedInputs(config, cfg)); err != nil {
		return nil, err
	}
	return buildPage(cfg, config, title, logs)
}

// buildPage reads every log. Of several logs, one whose runs cannot be
// drawn (cut short, no job placed) is left out with a note, as a run of
// dsmock --serve's output is, and the page is refused only when no log
// has a run to draw; a single log is refused, and so is a log with a line
// no ds-server log has, or one that cannot be read.
func buildPage(cfg *mocksrv.Config, config, title string, logs []string) (*viewer.Page, error) {
	name := pageName(config)
	if title == "" {
		title = "dsview: " + name
	}
	g := viewer.Group{Title: name}
	page := &viewer.Page{Title: title}
	var left []string
	for _, path := range logs {
		read, err := readLog(path, cfg)
		switch {
		case err != nil && (len(logs) == 1 || len(read.Left) == 0):
			return nil, err
		case err != nil:
			for _, e := range read.Left {
				left = append(left, e.Error())
				page.Notes = append(page.Notes, e.Error()+" (left out; the other logs are drawn)")
			}
			continue
		}
		g.Runs = append(g.Runs, namedRuns(path, read)...)
		for _, e := range read.Left {
			page.Notes = append(page.Notes, e.Error()+" (left out; the other runs of the file are drawn)")
		}
	}
	if len(g.Runs) == 0 {
		return nil, fmt.Errorf("none of the %d logs has a run that can be drawn:\n  %s", len(logs), strings.Join(left, "\n  "))
	}
	page.Groups = []viewer.Group{g}
	return page, nil
}

// namedRuns names a log's runs after its file, with the part of the file
// each is when it holds several (dsmock --serve's output, a session each).
func namedRuns(path string, read viewer.Logs) []*viewer.Run {
	for _, r := range read.Runs {
		r.Name = filepath.Base(path)
		if r.Part != "" {
			r.Name += ", " + r.Part
		}
	}
	return read.Runs
}

func readLog(path string, cfg *mocksrv.Config) (viewer.Logs, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return viewer.Logs{}, err
	}
	if strings.HasSuffix(path, ".gz") {
		if data, err = gunzip(path, data); err != nil {
			return viewer.Logs{}, err
		}
	}
	return viewer.ParseLogs(path, bytes.NewReader(data), cfg)
}

// gunzip is a .gz log's text. gzip's own errors ("unexpected EOF", "gzip:
// invalid header") name neither the file nor what is wrong with it; a
// file too short for a header, or that is not gzip at all, is said here,
// and a fault in the stream as dsswf and dsmock --swf say it of a trace.
func gunzip(path string, data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	switch {
	case errors.Is(err, gzip.ErrHeader):
		return nil, fmt.Errorf("%s: not a gzip file, though its name ends in .gz (%v)", path, err)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%s: truncated or invalid gzip file: %d bytes, shorter than a gzip header", path, len(data))
	case err != nil:
		return nil, fmt.Errorf("%s: invalid gzip file: %v", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, swf.GzipError(path, err)
	}
	return out, nil
}

// writeWaits is --waits: a row per run, then their mean. A run with jobs
// that never completed has no split (its waits would leave out the jobs
// that waited longest): it is named below the table and left out of the
// mean, as dsbench --waits leaves out a run that failed that way. No run
// with a split is an error: there is nothing to show.
func writeWaits(w io.Writer, runs []*viewer.Run) error {
	var rows []viewer.WaitRow
	var missing []string
	for _, r := range runs {
		if why := noSplit(r); why != "" {
			missing = append(missing, r.Name+": "+why)
			continue
		}
		rows = append(rows, viewer.WaitRow{Name: r.Name, Waits: r.Waits()})
	}
	if len(rows) == 0 { // a table of no rows and a mean of none would pass for a result
		return fmt.Errorf("--waits: no run has a wait split:\n  %s", strings.Join(missing, "\n  "))
	}
	if err := viewer.WriteWaits(w, viewer.WithMean(fmt.Sprintf("mean of %d", len(rows)), rows)); err != nil {
		return err
	}
	for _, m := range missing {
		if _, err := fmt.Fprintf(w, "no wait split for %s\n", m); err != nil {
			return err
		}
	}
	return nil
}

// writeCosts is --costs: a row per run, then their mean (viewer.Costs).
// Every run has a split: a run whose jobs did not all complete shows it
// as work below 1, which is what a user looking at its cost wants to see.
func writeCosts(w io.Writer, runs []*viewer.Run) error {
	rows := make([]viewer.CostRow, 0, len(runs))
	for _, r := range runs {
		rows = append(rows, viewer.CostRow{Name: r.Name, Costs: r.Costs()})
	}
	return viewer.WriteCosts(w, viewer.WithMeanOf(fmt.Sprintf("mean of %d", len(rows)), rows, viewer.MeanCosts))
}

// noSplit says why r has no wait split, "" when it has one. The jobs a
// client left unplaced when it quit are not said to be in the global
// queue: the log does not show whether it queued them.
func noSplit(r *viewer.Run) string {
	var why []string
	if r.Stuck > 0 {
		why = append(why, jobsWere(r.Stuck)+" still in the global queue when the run ended (the strategy did not take them back)")
	}
	if r.Unplaced > 0 {
		why = append(why, jobsWere(r.Unplaced)+" offered and not placed when the client quit (queued with ENQJ, or the offer left unanswered)")
	}
	return strings.Join(why, "; ")
}

func jobsWere(n int) string {
	if n == 1 {
		return "1 job was"
	}
	return fmt.Sprintf("%d jobs were", n)
}

// write renders into a buffer first, so a failed page leaves no file
// (and no folder).
func write(render func(io.Writer) error, out string, stdout io.Writer) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	if out == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	// Missing folders are made, as dsbench makes its outputs' (a page for
	// a report's folder that is not there yet).
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("-o %s: cannot make its folder: %w", out, err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	return nil
}
