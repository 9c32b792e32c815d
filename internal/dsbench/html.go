package dsbench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/viewpage"
)

// writeHTMLReport is dsbench --html after the report: it returns the exit
// status (ExitFailure when the page cannot be written, code otherwise).
func writeHTMLReport(path string, stderr io.Writer, b *bench.Bench, rp benchReport, results []bench.Result, code int) int {
	cmp := report.Compare(results, rp.configs, rp.columns, rp.baselines, rp.objective)
	if err := viewpage.Write(path, b, report.Output{Results: results, Comparison: cmp}); err != nil {
		fmt.Fprintf(stderr, "dsbench: --html %s: %v\n", path, err)
		return ExitFailure
	}
	fmt.Fprintf(stderr, "dsbench: run viewer written to %s\n", path)
	return code
}

// writeSplitReports is dsbench --waits and --costs after the report: the
// runs are simulated again once for both tables (viewpage.WriteSplits),
// and each table goes to its path ("-": stdout), written whole or not at
// all. It returns the exit status (ExitFailure when a table cannot be made
// or written, code otherwise).
func writeSplitReports(c *cliConfig, stdout, stderr io.Writer, b *bench.Bench, code int) int {
	var bufs [2]bytes.Buffer
	var ws [2]io.Writer
	var named []string // "--waits FILE", for an error of the simulation both share
	for i, o := range c.splitOutputs() {
		if o[1] != "" {
			ws[i] = &bufs[i]
			named = append(named, o[0]+" "+o[1])
		}
	}
	if err := viewpage.WriteSplits(b, ws[0], ws[1]); err != nil {
		fmt.Fprintf(stderr, "dsbench: %s: %v\n", strings.Join(named, ", "), err)
		return ExitFailure
	}
	for i, o := range c.splitOutputs() {
		if o[1] == "" {
			continue
		}
		var err error
		if o[1] == "-" {
			_, err = stdout.Write(bufs[i].Bytes())
		} else {
			err = os.WriteFile(o[1], bufs[i].Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "dsbench: %s %s: %v\n", o[0], o[1], err)
			return ExitFailure
		}
	}
	return code
}

// splitOutputs are the flags of the split tables and their paths, in the
// order the tables are written ("" when not asked for).
func (c *cliConfig) splitOutputs() [2][2]string {
	return [2][2]string{{"--waits", c.waits}, {"--costs", c.costs}}
}
