package viewer

import (
	"encoding/json"
	"math"
)

// Comparison is dsbench's comparison as the page's script draws it: a
// summary (the cost–turnaround frontier, the plot of every column, the
// wins), one HTML table per metric and the runs without a result. It is
// data, built by the caller (harness/viewpage from dsbench's report);
// every text in it is shown as is, so the caller decides the numbers'
// precision (the text report's).
type Comparison struct {
	Objective string   `json:"objective"` // the objective's table heading
	Baselines []string `json:"baselines"`
	// Frontier is the columns no other column beats on both average
	// turnaround and average cost (over the configs every column finished).
	Frontier []string `json:"frontier"`
	Plot     Tradeoff `json:"plot"`
	Wins     *Table   `json:"wins,omitempty"`
	Tables   []Table  `json:"tables"`
	// ZeroMetrics are the strategy metrics that are 0 in every run: named
	// once, not drawn as tables of zeros.
	ZeroMetrics []string `json:"zeroMetrics,omitempty"`
	// Missing is each run without a result, once, with its reason.
	Missing []Missing `json:"missing"`
}

// Tradeoff is the cost-against-turnaround plot: one point per column.
type Tradeoff struct {
	XLabel string          `json:"xLabel"`
	YLabel string          `json:"yLabel"`
	Points []TradeoffPoint `json:"points"`
	Note   string          `json:"note,omitempty"` // e.g. the configs the averages leave out
}

// TradeoffPoint is a column's averages; XText and YText as the tables
// print them.
type TradeoffPoint struct {
	Column   string  `json:"column"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	XText    string  `json:"xText"`
	YText    string  `json:"yText"`
	Frontier bool    `json:"frontier,omitempty"`
}

// Table is one comparison table: rows of configs × columns, then footer
// rows (Average, Normalised) that sorting leaves in place.
type Table struct {
	ID      string   `json:"id"` // stable, for links and tests: "turnaround", "bound-cost", "metric-boots"
	Kind    string   `json:"kind"`
	Heading string   `json:"heading"`
	Corner  string   `json:"corner"` // the first column's heading
	Columns []string `json:"columns"`
	// Better says which way is better: "lower", "higher", or "" (a
	// strategy's own metric: no best cell, no colours).
	Better string   `json:"better"`
	Rows   []Row    `json:"rows"`
	Footer []Row    `json:"footer"`
	Notes  []string `json:"notes"`
}

// Row is a labelled row of cells.
type Row struct {
	Label string `json:"label"`
	Cells []Cell `json:"cells"`
}

// Cell is one table cell: its text, its value for sorting (none without a
// result), its marks, and the run whose timeline it opens.
type Cell struct {
	Text  string `json:"t"`
	Value Value  `json:"v"`
	// Class: space-separated marks, "best" (the best of its row), and
	// against the baselines "win" (better than every baseline), "some"
	// (than some) or "lose" (than none); "base" on a baseline's cell.
	Class string `json:"c,omitempty"`
	// Run is the index+1 of the run's timeline on the page (0: none).
	Run int `json:"r,omitempty"`
}

// Value is a cell's number; NaN (no result) is JSON null.
type Value float64

// MarshalJSON writes NaN and infinities as null.
func (v Value) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// Missing is a run without a result.
type Missing struct {
	Config string `json:"config"`
	Column string `json:"column"`
	Status string `json:"status"` // "expected" when it cannot finish by design, else the run's status
	Reason string `json:"reason"`
}
