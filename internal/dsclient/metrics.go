package dsclient

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/dssim-go/dssim-go/strategies"
)

// The strategy's own metrics (strategies.MetricsReporter), printed after a
// successful run and written as JSON with --metrics FILE. Against a server
// the client never learns when its jobs really started or how long they
// really ran: a strategy that needs those approximates them and marks the
// metric Approx, which both outputs say.

// printMetrics writes one line per metric: name, value, unit, "≈" and a
// note when approximate, and the metric's help.
func printMetrics(w io.Writer, ms []strategies.Metric) {
	if len(ms) == 0 {
		return
	}
	approx := false
	for _, m := range ms {
		mark := " "
		if m.Approx {
			mark, approx = "≈", true
		}
		fmt.Fprintf(w, "# metric %-30s %s%14s %-5s %s\n", m.Name, mark, strconv.FormatFloat(m.Value, 'f', 4, 64), m.Unit, m.Help)
	}
	if approx {
		fmt.Fprintln(w, "# ≈ approximate: the server does not tell a client its jobs' true start times or runtimes")
	}
}

type jsonMetric struct {
	Name   string   `json:"name"`
	Value  *float64 `json:"value"` // null for NaN or ±Inf
	Unit   string   `json:"unit,omitempty"`
	Approx bool     `json:"approx"`
	Help   string   `json:"help,omitempty"`
}

// checkMetricsFile refuses a --metrics path that cannot be written before
// connecting, so a run is never made only to lose its metrics at the end.
// An existing file is opened without truncating it; otherwise one is
// created and removed. "" (no --metrics) passes.
func checkMetricsFile(path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("--metrics %s: is a folder, not a file", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("--metrics: %w", err)
		}
		return f.Close()
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("--metrics: %w", err)
	}
	f.Close()
	return os.Remove(path)
}

// writeMetrics writes the metrics as a JSON array to path.
func writeMetrics(path, strategy string, ms []strategies.Metric) error {
	out := struct {
		Strategy string       `json:"strategy"`
		Metrics  []jsonMetric `json:"metrics"`
	}{Strategy: strategy, Metrics: []jsonMetric{}}
	for _, m := range ms {
		jm := jsonMetric{Name: m.Name, Unit: m.Unit, Approx: m.Approx, Help: m.Help}
		if !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0) {
			v := m.Value
			jm.Value = &v
		}
		out.Metrics = append(out.Metrics, jm)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("--metrics: %w", err)
	}
	return nil
}
