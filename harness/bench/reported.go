package bench

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/dssim-go/dssim-go/strategies"
)

// Reported is one run's strategy metrics (strategies.MetricsReporter),
// in the strategy's order: what a strategy measures beside ds-server's
// summary (deadlines met, revenue, boots …). A value computed without the
// simulator's truth (a run against a server over TCP) is marked
// approximate.
type Reported []strategies.Metric

type jsonMetric struct {
	Name   string   `json:"name"`
	Value  *float64 `json:"value"` // null for NaN or ±Inf
	Unit   string   `json:"unit,omitempty"`
	Approx bool     `json:"approx,omitempty"`
	Help   string   `json:"help,omitempty"`
}

// MarshalJSON writes lower-case keys and null for a value JSON cannot hold.
func (r Reported) MarshalJSON() ([]byte, error) {
	out := make([]jsonMetric, len(r))
	for i, m := range r {
		out[i] = jsonMetric{Name: m.Name, Unit: m.Unit, Approx: m.Approx, Help: m.Help}
		if !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0) {
			v := m.Value
			out[i].Value = &v
		}
	}
	return json.Marshal(out)
}

// get returns the named metric.
func (r Reported) Get(name string) (strategies.Metric, bool) {
	i := slices.IndexFunc(r, func(m strategies.Metric) bool { return m.Name == name })
	if i < 0 {
		return strategies.Metric{}, false
	}
	return r[i], true
}

// withNet adds libra.md Part C's "rentalCost" and "net" to a report that
// has a "revenue" (and neither yet): the strategy cannot know ds-server's
// rental cost, dsbench can (the summary's total cost).
func withNet(ms []strategies.Metric, sum Summary, haveSummary bool) Reported {
	rev, ok := Reported(ms).Get("revenue")
	_, hasNet := Reported(ms).Get("net")
	if !ok || !haveSummary || hasNet {
		return ms
	}
	out := slices.Clone(ms)
	return append(out,
		strategies.Metric{Name: "rentalCost", Value: sum.TotalCost, Unit: "$", Help: "ds-server's total rental cost"},
		strategies.Metric{Name: "net", Value: rev.Value - sum.TotalCost, Unit: "$", Approx: rev.Approx, Help: "revenue − rental cost"})
}
