package dsbench

import (
	"bytes"
	"fmt"
	"io"
	"os"

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

// writeSplitReport is dsbench --waits or --costs (flag) after the report:
// the table write makes goes to path ("-": stdout), written whole or not
// at all. It returns the exit status (ExitFailure when the table cannot be
// made, code otherwise).
func writeSplitReport(flag, path string, write func(io.Writer, *bench.Bench) error, stdout, stderr io.Writer, b *bench.Bench, code int) int {
	var buf bytes.Buffer
	err := write(&buf, b)
	if err == nil {
		if path == "-" {
			_, err = stdout.Write(buf.Bytes())
		} else {
			err = os.WriteFile(path, buf.Bytes(), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "dsbench: %s %s: %v\n", flag, path, err)
		return ExitFailure
	}
	return code
}
