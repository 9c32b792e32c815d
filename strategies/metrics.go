package strategies

import (
	"fmt"

	"github.com/dssim-go/dssim-go/protocol"
)

// Client-side metrics: what a strategy measures beside ds-server's summary
// (ds-server.md §6.4 knows only waiting, execution and turnaround time,
// utilisation and cost). A strategy that implements MetricsReporter is
// asked once, after NONE (every job has completed) and before QUIT; dsbench
// shows the metrics as extra tables, columns and JSON/CSV fields, dsclient
// prints them at the end (and writes them with --metrics FILE). One
// facility for every family, so no strategy prints its results its own way.

// Metric is one named number.
type Metric struct {
	// Name is the key, as the design notes recommend ("deadlineMetPct",
	// "boots"); unique within one strategy's report.
	Name  string
	Value float64
	// Unit is "%", "s", "$", "jobs", "core-s" …, or "" for a plain number.
	Unit string
	// Approx marks a value computed without the simulator's knowledge (true
	// start times, actual runtimes): against a real server a strategy
	// approximates what Truth would have given, and says so here.
	Approx bool
	Help   string // one line, for dsclient's output and dsbench's tables
}

// JobTruth is what the simulator knows of one job and a client is never
// told: where and when it really ran.
type JobTruth struct {
	ID         int
	Start, End int                // the completed run's true start and end
	Server     protocol.ServerRef // where it completed
	Runs       int                // stays on servers, the completed one included (killed and failed runs before it)
}

// Truth is the simulator's record of a finished run, given to
// MetricsReporter in-process (dsbench, strattest); nil against a real
// server, where a strategy estimates instead and marks the metric Approx.
type Truth struct {
	End  int              // ds-server's actual simulation end time
	Jobs map[int]JobTruth // by job id: every completed job
}

// MetricsReporter is implemented by a strategy that reports metrics.
type MetricsReporter interface {
	Metrics(v View, truth *Truth) []Metric
}

// CheckMetrics reports the first problem with a strategy's metrics: an
// empty or repeated name. The client refuses such a report rather than show
// a table whose columns mean two things.
func CheckMetrics(ms []Metric) error {
	seen := make(map[string]bool, len(ms))
	for i, m := range ms {
		if m.Name == "" {
			return fmt.Errorf("metric %d has no name", i+1)
		}
		if seen[m.Name] {
			return fmt.Errorf("metric %q reported twice", m.Name)
		}
		seen[m.Name] = true
	}
	return nil
}
