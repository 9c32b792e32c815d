package harness

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Summary holds the numbers of a ds-server report's last three lines
// (ds-server.md §6.4), as printed: utilisation, efficiency and cost keep the
// printed two-decimal values.
type Summary struct {
	EndTime       int     `json:"end_time"`
	Jobs          int     `json:"jobs"`
	Failed        int     `json:"failed"`
	ServersUsed   int     `json:"servers_used"`
	AvgUtil       float64 `json:"avg_util"`
	EfUsage       float64 `json:"ef_usage"`
	TotalCost     float64 `json:"total_cost"`
	AvgWait       int     `json:"avg_wait"`
	AvgExec       int     `json:"avg_exec"`
	AvgTurnaround int     `json:"avg_turnaround"`
}

var summaryLines = [3]*regexp.Regexp{
	regexp.MustCompile(`^# actual simulation end time: (\d+), #jobs: (\d+) \(failed (\d+) times\)$`),
	regexp.MustCompile(`^# total #servers used: (\d+), avg util: ([-+0-9.naif]+)% \(ef\. usage: ([-+0-9.naif]+)%\), total cost: \$([-+0-9.naif]+)$`),
	regexp.MustCompile(`^# avg waiting time: (\d+), avg exec time: (\d+), avg turnaround time: (\d+)$`),
}

// ParseSummary reads the summary from a server's stdout: its last three
// non-empty lines, which is where the course harnesses look (harness.md §1
// step 5). It fails with a message quoting the line that does not match.
func ParseSummary(stdout string) (Summary, error) {
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	if len(lines) < 3 {
		return Summary{}, fmt.Errorf("no summary: the server printed %d line(s)", len(lines))
	}
	last := lines[len(lines)-3:]
	var f [3][]string
	for i, re := range summaryLines {
		line := strings.TrimRight(last[i], "\r")
		if f[i] = re.FindStringSubmatch(line); f[i] == nil {
			return Summary{}, fmt.Errorf("no summary: line %q is not a ds-server summary line", line)
		}
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	x := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	return Summary{
		EndTime: n(f[0][1]), Jobs: n(f[0][2]), Failed: n(f[0][3]),
		ServersUsed: n(f[1][1]), AvgUtil: x(f[1][2]), EfUsage: x(f[1][3]), TotalCost: x(f[1][4]),
		AvgWait: n(f[2][1]), AvgExec: n(f[2][2]), AvgTurnaround: n(f[2][3]),
	}, nil
}

var unscheduledRE = regexp.MustCompile(`^(\d+) jobs not scheduled!`)

// Unscheduled reads ds-server's "<n> jobs not scheduled!" from the start of
// its stderr (harness.md §2, the 2024/25 check); 0 when absent.
func Unscheduled(stderr string) int {
	m := unscheduledRE.FindStringSubmatch(strings.TrimLeft(stderr, "\n"))
	if m == nil {
		return 0
	}
	v, _ := strconv.Atoi(m[1])
	return v
}

// Metric is one of the three compared quantities (the course harnesses'
// objectives tt, ru and co).
type Metric int

// The metrics, in the order of the course tables.
const (
	Turnaround Metric = iota
	Utilisation
	Cost
)

// Metrics lists the three metrics in table order.
var Metrics = []Metric{Turnaround, Utilisation, Cost}

// Title is the table heading the course harnesses use.
func (m Metric) Title() string {
	return [...]string{"Turnaround time", "Resource utilisation", "Total rental cost"}[m]
}

// Objective is the harness name: tt, ru or co.
func (m Metric) Objective() string { return [...]string{"tt", "ru", "co"}[m] }

// Better reports whether a beats b on this metric, strictly (harness.md §3.4:
// lower turnaround and cost, higher utilisation).
func (m Metric) Better(a, b float64) bool {
	if m == Utilisation {
		return a > b
	}
	return a < b
}

// Of returns the metric's value in a summary.
func (m Metric) Of(s Summary) float64 {
	switch m {
	case Turnaround:
		return float64(s.AvgTurnaround)
	case Utilisation:
		return s.AvgUtil
	}
	return s.TotalCost
}

// ParseMetric accepts tt/ru/co and the words turnaround/util/utilisation/cost.
func ParseMetric(s string) (Metric, error) {
	switch strings.ToLower(s) {
	case "tt", "turnaround":
		return Turnaround, nil
	case "ru", "util", "utilisation", "utilization":
		return Utilisation, nil
	case "co", "cost":
		return Cost, nil
	}
	return 0, fmt.Errorf("unknown objective %q (want tt, ru or co)", s)
}
