package dsbench

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dssim-go/dssim-go/harness/report"
)

// outFormats are the file name extensions that choose a format when -f is
// not given: "--out results.csv" writes CSV, not the text table.
var outFormats = map[string]report.Format{".csv": report.FormatCSV, ".json": report.FormatJSON, ".md": report.FormatMarkdown}

// reportFormat is the report's format: -f's value when given (set), else
// the one --out's extension names (.csv, .json, .md), else the summary
// (one ranked table and what to look at: the first screen) or, for a
// --client run (client), the course's tables, which a student compares. A
// -f that contradicts the extension wins, with a warning: the file name
// then says what the file is not. An empty -f (a script's unset
// variable) is not given.
func reportFormat(value string, set bool, out string, client bool) (report.Format, string, error) {
	byName, named := outFormats[strings.ToLower(filepath.Ext(out))]
	if !set || value == "" {
		switch {
		case named:
			return byName, "", nil
		case client:
			return report.FormatTable, "", nil
		}
		return report.FormatSummary, "", nil
	}
	f, err := report.ParseFormat(value)
	if err != nil || !named || f == byName {
		return f, "", err
	}
	return f, fmt.Sprintf("--out %s is written as -f %s, not the %s its name says", out, f, byName), nil
}
