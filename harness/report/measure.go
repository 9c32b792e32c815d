package report

import (
	"fmt"
	"strings"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// Measure is one of the three compared quantities of ds-server's summary
// (the course harnesses' objectives tt, ru and co). What a strategy reports
// of its own is a strategies.Metric (bench.Result.Metrics), a different thing.
type Measure int

// The measures, in the order of the course tables.
const (
	Turnaround Measure = iota
	Utilisation
	Cost
)

// Measures lists the three measures in table order.
var Measures = []Measure{Turnaround, Utilisation, Cost}

// Title is the table heading the course harnesses use.
func (m Measure) Title() string {
	return [...]string{"Turnaround time", "Resource utilisation", "Total rental cost"}[m]
}

// Objective is the harness name: tt, ru or co.
func (m Measure) Objective() string { return [...]string{"tt", "ru", "co"}[m] }

// Better reports whether a beats b on this measure, strictly (harness.md §3.4:
// lower turnaround and cost, higher utilisation).
func (m Measure) Better(a, b float64) bool {
	if m == Utilisation {
		return a > b
	}
	return a < b
}

// Of returns the measure's value in a summary.
func (m Measure) Of(s bench.Summary) float64 {
	switch m {
	case Turnaround:
		return float64(s.AvgTurnaround)
	case Utilisation:
		return s.AvgUtil
	}
	return s.TotalCost
}

// ParseMeasure accepts tt/ru/co and the words turnaround/util/utilisation/cost.
func ParseMeasure(s string) (Measure, error) {
	switch strings.ToLower(s) {
	case "tt", "turnaround":
		return Turnaround, nil
	case "ru", "util", "utilisation", "utilization":
		return Utilisation, nil
	case "co", "cost":
		return Cost, nil
	}
	return 0, fmt.Errorf("unknown objective %q (want tt (turnaround), ru (utilisation) or co (cost))%s", s,
		didyoumean.Hint(strings.ToLower(s), []string{"tt", "ru", "co", "turnaround", "utilisation", "utilization", "cost"}))
}
