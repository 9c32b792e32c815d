package strattest

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// Metrics is what one in-process run measured: the simulator's summary
// (ds-server.md §6, the numbers of its last three report lines, with the
// simulator's float32 values widened, not rounded) and the client loop's
// counts.
type Metrics struct {
	EndTime       int // actual simulation end time
	Jobs          int // jobs completed
	Failed        int // failed-job records
	ServersUsed   int
	AvgUtil       float64 // percent
	EfUsage       float64 // percent
	TotalCost     float64 // dollars
	AvgWait       int
	AvgExec       int
	AvgTurnaround int
	Unscheduled   int // jobs never run at QUIT (ds-server.md §7.6); 0 after a whole run
	// Unbilled is the server time the report's cost left out (ds-server.md
	// §6.1, §6.2; mocksrv.Unbilled): a strategy that profits from ds-server's
	// accounting shows it here.
	Unbilled mocksrv.Unbilled
	// ResetSeconds is the powered time (after each boot) of the periods a
	// recovery ended while the server was up, as a failure model's
	// overlapping records make it: the report leaves such a period out
	// (mocksrv.Unbilled), and no strategy can prevent it, so of Unbilled's
	// seconds this many are not the strategy's doing.
	ResetSeconds int64

	// Reported is what the strategy reported as a MetricsReporter, with
	// the simulator's Truth.
	Reported []strategies.Metric

	Offers   int // JOBN/JOBP handled
	Actions  int // actions the server accepted
	Refusals int // SCHD refused and retried elsewhere
	// LedgerMismatches counts accepted actions the ledger could not take
	// into account (client.Result): a ledger strategy's test wants 0.
	LedgerMismatches int
}

// Run simulates one config file in-process with strategy s, from the
// handshake to QUIT, and returns its metrics. The path may name a config
// (its job list generated as ds-server generates it) or a fixture folder
// holding config.xml (with the jobs.xml it names); files the config names
// are looked up beside it.
func Run(path string, s strategies.Strategy) (Metrics, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "config.xml")
	}
	cfg, err := mocksrv.LoadConfig(path, mocksrv.LoadOptions{BaseDir: filepath.Dir(path)})
	if err != nil {
		return Metrics{}, err
	}
	return simulate(path, cfg, s)
}

// RunFS is Run for a config inside a file system (such as the embedded
// suite, configs.FS()).
func RunFS(fsys fs.FS, path string, s strategies.Strategy) (Metrics, error) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return Metrics{}, err
	}
	cfg, err := mocksrv.ParseConfig(path, data, mocksrv.LoadOptions{FS: fsys})
	if err != nil {
		return Metrics{}, err
	}
	return simulate(path, cfg, s)
}

// RunLoaded is Run for a config already loaded (mocksrv.LoadConfig), so
// that several strategies run on one load, as dsbench runs them: loading a
// config under a failure model draws its failures, up to a second. A
// simulation only reads the config.
func RunLoaded(cfg *mocksrv.Config, s strategies.Strategy) (Metrics, error) {
	return simulate(cfg.Path, cfg, s)
}

// RunNamed is Run for a registered strategy with "key=value" settings.
func RunNamed(path, name string, settings map[string]string) (Metrics, error) {
	s, err := strategies.New(name, settings)
	if err != nil {
		return Metrics{}, err
	}
	return Run(path, s)
}

func simulate(path string, cfg *mocksrv.Config, s strategies.Strategy) (Metrics, error) {
	sess, err := mocksrv.NewSession(cfg, mocksrv.Options{Stderr: io.Discard})
	if err != nil {
		return Metrics{}, fmt.Errorf("%s: %w", path, err)
	}
	// One timeline serves the strategy's Truth (asked once every job has
	// completed) and ResetSeconds: the reset periods it sums are over by
	// then, and a frontier run asked for both built it twice.
	var tl *mocksrv.Timeline
	timeline := func() *mocksrv.Timeline {
		if tl == nil {
			tl = sess.Engine().Timeline()
		}
		return tl
	}
	res, err := client.Run(s, sess, client.Options{User: "strattest",
		System: func(client.Backend) (*servertypes.System, error) { return sess.System() },
		Truth:  func() *strategies.Truth { return TruthOf(timeline()) }})
	if err != nil {
		return Metrics{}, fmt.Errorf("%s: %w", path, err)
	}
	rep := sess.Report()
	if rep == nil {
		return Metrics{}, fmt.Errorf("%s: the run ended without a report", path)
	}
	return Metrics{
		EndTime: rep.EndTime, Jobs: rep.Jobs, Failed: rep.Failed, ServersUsed: rep.ServersUsed,
		AvgUtil: float64(rep.AvgUtil), EfUsage: float64(rep.EfUsage), TotalCost: float64(rep.TotalCost),
		AvgWait: rep.AvgWait, AvgExec: rep.AvgExec, AvgTurnaround: rep.AvgTurnaround, Unscheduled: rep.Unscheduled,
		Unbilled: rep.Unbilled,
		Reported: res.Metrics, Offers: res.Offers, Actions: res.Actions, Refusals: res.Refusals,
		LedgerMismatches: res.LedgerMismatches,
		ResetSeconds:     resetSeconds(timeline()),
	}, nil
}

// resetSeconds sums the powered seconds of the periods a recovery reset.
func resetSeconds(tl *mocksrv.Timeline) int64 {
	var n int64
	for _, srv := range tl.Servers {
		for _, p := range srv.Power {
			if p.Reset {
				n += int64(max(0, p.Off-p.BootEnd))
			}
		}
	}
	return n
}

// TruthOf is the simulator's record of a run as strategies.Truth: for
// every completed job its true start, end and server, and how many stays
// on servers it had (a killed or failed run counts; a migrated job's stay
// on its source leaves no trace, as in ds-server's own statistics). Call it
// once every job has completed (client.Options.Truth is called after NONE).
func TruthOf(tl *mocksrv.Timeline) *strategies.Truth {
	t := &strategies.Truth{End: tl.End, Jobs: map[int]strategies.JobTruth{}}
	for _, srv := range tl.Servers {
		for _, j := range srv.Jobs {
			jt := t.Jobs[j.ID]
			jt.ID = j.ID
			jt.Runs++
			if j.Outcome == mocksrv.JobCompleted {
				jt.Start, jt.End = j.Start, j.End
				jt.Server = protocol.ServerRef{Type: srv.Type, ID: srv.ID}
			}
			t.Jobs[j.ID] = jt
		}
	}
	return t
}
