package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// SimulateOne loads the config and runs the variant on it in-process with
// opt, for the timeline plot and the run viewer. Its errors name the run
// ("ff on flaky-servers: …"), so callers do not.
func SimulateOne(src sources.Source, v columns.Variant, opt mocksrv.Options) (*mocksrv.Config, *mocksrv.Session, error) {
	fail := func(err error) (*mocksrv.Config, *mocksrv.Session, error) {
		return nil, nil, fmt.Errorf("%s on %s: %w", v.Label(), src.Name, err)
	}
	cfg, err := src.Load()
	if err != nil {
		return fail(err)
	}
	s, err := v.New()
	if err != nil {
		return fail(err)
	}
	sess, err := Simulate(context.Background(), cfg, s, opt, "dsbench")
	if err != nil {
		return fail(err)
	}
	return cfg, sess, nil
}

// Simulate runs one strategy on one config in-process, from the handshake
// to QUIT, and returns the session (its Report and Engine hold the results)
// with the client loop's error. It stops at the next REDY once ctx is done.
// This is the whole in-process path: dsbench's runs and the timeline use it.
func Simulate(ctx context.Context, cfg *mocksrv.Config, s strategies.Strategy, opt mocksrv.Options, user string) (*mocksrv.Session, error) {
	sess, _, err := SimulateMetrics(ctx, cfg, s, opt, user)
	return sess, err
}

// SimulateMetrics is Simulate that also returns what the strategy reported
// as a strategies.MetricsReporter, computed with the simulator's truth (true
// start and end times), so none of it is an approximation.
func SimulateMetrics(ctx context.Context, cfg *mocksrv.Config, s strategies.Strategy, opt mocksrv.Options, user string) (*mocksrv.Session, []strategies.Metric, error) {
	sess, err := mocksrv.NewSession(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	res, err := client.Run(s, ctxBackend{sess, ctx}, client.Options{User: user,
		System: func(client.Backend) (*servertypes.System, error) { return sess.System() },
		Truth:  func() *strategies.Truth { return strattest.TruthOf(sess.Engine().Timeline()) }})
	return sess, res.Metrics, err
}

// runInProcess is one dsbench run in-process. A run that outlives ctx is
// reported at once; its goroutine stops at its next REDY.
func runInProcess(ctx context.Context, cfg *mocksrv.Config, newStrategy func() (strategies.Strategy, error), t Target, log io.Writer) runOutput {
	done := make(chan runOutput, 1)
	go func() {
		s, err := newStrategy()
		if err != nil {
			done <- runOutput{err: err}
			return
		}
		// The stderr lines are not needed: the Report holds the count of
		// "<n> jobs not scheduled!". The log is written for --keep-logs only
		// (log, a capture streamed to its file: see runInProcessLogged).
		opt := mocksrv.Options{Stderr: io.Discard, Newline: t.Newline, MemFail: t.MemFail, Year: t.Year}
		if log != nil {
			opt.Level, opt.Log = mocksrv.LevelBrief, log
		}
		sess, metrics, runErr := SimulateMetrics(ctx, cfg, s, opt, t.user())
		typed := &typedOutput{summaryErr: errNoQuit}
		var unbilled *mocksrv.Unbilled
		if sess != nil {
			if rep := sess.Report(); rep != nil {
				typed = &typedOutput{summary: SummaryOf(rep), unscheduled: rep.Unscheduled}
				unbilled = &rep.Unbilled
			}
		}
		done <- runOutput{typed: typed, err: runErr, metrics: metrics, unbilled: unbilled}
	}()
	select {
	case out := <-done:
		return out
	case <-ctx.Done():
		// The run stops at its next REDY, where it writes out its log
		// (ctxBackend): wait a moment for it, so that a kept log reaches
		// that REDY, but not for a strategy stuck in a decision.
		select {
		case <-done:
		case <-time.After(stopGrace):
		}
		return runOutput{err: ctx.Err()}
	}
}

// stopGrace is how long a timed-out in-process run is given to reach its
// next REDY.
const stopGrace = time.Second

// ctxBackend stops a run at the next REDY once ctx is done: a strategy
// that pushes or refuses forever cannot outlive its timeout.
type ctxBackend struct {
	*mocksrv.Session
	ctx context.Context
}

func (b ctxBackend) Ready() (protocol.Event, error) {
	if err := b.ctx.Err(); err != nil {
		// The run ends here without QUIT: write out the log the simulator
		// holds (up to 64 KiB), the part that shows where the run hung.
		b.Session.Flush()
		return nil, err
	}
	return b.Session.Ready()
}
