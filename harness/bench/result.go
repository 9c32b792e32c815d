package bench

import (
	"fmt"
	"strings"
	"time"

	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies"
)

// Status says how a run ended.
type Status string

// Run statuses. Only StatusOK runs enter the comparison tables.
const (
	StatusOK            Status = "ok"
	StatusUnscheduled   Status = "unscheduled"    // a summary, but jobs were left unscheduled
	StatusNoResult      Status = "no-result"      // the server printed no summary
	StatusTimeout       Status = "timeout"        // killed after --timeout
	StatusInvalidConfig Status = "invalid-config" // the config failed validation
	StatusError         Status = "error"          // the client or server failed
)

// Result is one run: one variant on one config.
type Result struct {
	Config      string        `json:"config"`
	Variant     string        `json:"strategy"`
	Status      Status        `json:"status"`
	Err         string        `json:"error,omitempty"`
	Summary     Summary       `json:"summary"` // the JSON report writes it for a run with a result only (jsonRun)
	Unscheduled int           `json:"unscheduled,omitempty"`
	Bounds      Bounds        `json:"bounds"`
	Wall        time.Duration `json:"wall_ns"`
	// Base, ArrivalFactor and Inaccuracy say which workload transform made
	// the config (Expand); empty for a plain config.
	Base          string   `json:"base_config,omitempty"`
	ArrivalFactor *float64 `json:"arrival_factor,omitempty"`
	Inaccuracy    *float64 `json:"inaccuracy,omitempty"`
	// Metrics is what the strategy reported (strategies.MetricsReporter):
	// its own measures beside ds-server's summary, shown as extra tables.
	Metrics Reported `json:"metrics,omitempty"`
	// ResourceFailures: the config has resource failures (a trace or a
	// failure model), which only a strategy using the global queue can
	// finish (NeedsQueue).
	ResourceFailures bool `json:"resource_failures,omitempty"`
	// Unbilled is the server time ds-server's cost left out of the run
	// (mocksrv.Unbilled; zero when none was): nil without a result, or when
	// the server was not dsmock (a server process says nothing of it).
	Unbilled *mocksrv.Unbilled `json:"unbilled,omitempty"`
	// SWF says what the config, an SWF trace, kept of the trace's lines
	// (dsbench also says it on stderr); nil for a config file.
	SWF *sources.SWFConversion `json:"swf_conversion,omitempty"`
	// ServerVersion is the version a server binary printed on its log's
	// first line ("2-Apr, 2026 @ MQ": which ds-server year ran); empty for
	// the built-in simulator, whose year is the Target's.
	ServerVersion string `json:"server_version,omitempty"`
}

// OK reports whether the run produced comparable numbers.
func (r Result) OK() bool { return r.Status == StatusOK }

// Reason is why the run has no result, as the reports show it: its error,
// after the count of jobs an unscheduled run left.
func (r Result) Reason() string {
	if r.Status == StatusUnscheduled {
		return JoinReason(fmt.Sprintf("%d jobs not scheduled", r.Unscheduled), r.Err)
	}
	return r.Err
}

// ShownStatus is the run's status as the reports show it: "expected" for a
// run that cannot finish by design (NeedsQueue), else its Status.
func (r Result) ShownStatus() string {
	if r.NeedsQueue() {
		return "expected"
	}
	return string(r.Status)
}

// NeedsQueue reports whether the run failed the way a strategy without the
// global queue fails on a config with resource failures: a failed server
// kills its jobs, ds-server resubmits them, and a strategy that never
// takes jobs back from the global queue (ENQJ/DEQJ) either leaves them
// stuck there or finds no server its rule allows. The reason text is the
// client loop's (client.Run, strategies.ErrNoServer), which a run over TCP
// also leaves.
func (r Result) NeedsQueue() bool {
	return r.Status == StatusError && r.ResourceFailures &&
		(strings.Contains(r.Err, "stuck in the global queue") || strings.Contains(r.Err, strategies.ErrNoServer.Error()))
}
