// Package client is the scheduling loop: it reads server events, asks a
// strategy what to do and carries out its actions, over any Backend — a
// ds-server or dsmock over TCP (protocol.Client), or the in-process
// simulator (mocksrv). It owns the rules that are the same for every
// strategy: the handshake, REDY after each decision, retrying a refused SCHD
// without that server, the CHKQ and stuck-time guards and QUIT on NONE.
package client

import (
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// Backend is a simulation the loop talks to. Every method is one protocol
// exchange; an ERR reply is a *protocol.ServerError.
type Backend interface {
	strategies.Queries
	// Handshake sends HELO and AUTH user.
	Handshake(user string) error
	// Ready sends REDY and returns the event.
	Ready() (protocol.Event, error)
	// Do sends one action and returns the server's reply ("OK", or
	// "<n> jobs killed" for TERM).
	Do(a protocol.Action) (string, error)
	// Quit sends QUIT and waits for the server's QUIT.
	Quit() error
}

// MaxCHKQ is how many consecutive CHKQ replies, with nothing else in
// between, the loop accepts before it gives up (baselines.md decision 5:
// two in a row already mean nothing is running and nothing will come, so the
// guard never cuts a run the reference client completes).
const MaxCHKQ = 10

// ErrGaveUp is in the error of a run ds-server gave up on (errors.Is): it
// refused a PSHJ, which it does only when the job would be offered again
// past 1.5 × the end time with nothing left to release, as when a failure
// model keeps every server that can hold the job down for that long. A
// caller may tell such a run from other errors (frontier's fuzz target
// skips it when the config's failures leave the job no room).
var ErrGaveUp = errors.New("ds-server gave up on the run")

// MaxReoffers is how many times the loop accepts the same job offered again
// at one simulation time with nothing else happening in between (only
// JOBP and CHKQ: no completion, failure, recovery or new job) before it
// ends the run: the simulation clock has stopped. ds-server does this with
// failure models when every server able to run a queued job is failed for
// long (failure-models.md §6: it and the reference ffq exchange REDY and
// JOBP forever at one time). No reference run that completes re-offers a
// job more than a few times at one time, so 100 cuts nothing that ends.
const MaxReoffers = 100

// stallGuard counts the offers of each job at one simulation time since
// the last event of another kind.
type stallGuard struct {
	t      int
	offers map[int]int
}

// see records one event and returns an error once a job has been offered
// MaxReoffers times at the same time with nothing else happening.
func (g *stallGuard) see(ev protocol.Event) error {
	switch e := ev.(type) {
	case *protocol.CheckQueue:
		return nil
	case *protocol.JobOffer:
		if e.Submit != g.t {
			g.t = e.Submit
			g.reset()
		}
		if g.offers == nil {
			g.offers = map[int]int{}
		}
		if g.offers[e.ID]++; g.offers[e.ID] >= MaxReoffers {
			return fmt.Errorf("simulation time stopped advancing at %d: job %d offered %d times with nothing completing, failing or recovering in between (%d jobs going round); the simulator will never end this run",
				g.t, e.ID, g.offers[e.ID], len(g.offers))
		}
		return nil
	}
	g.reset()
	return nil
}

// reset forgets the counts. A job pushed back while others wait out a
// failure is offered again a second later, every second, so the map is
// emptied and kept, not made again at each new time (a fresh map an offer
// was an eighth of such a run). One that grew past 64 jobs is let go:
// emptying it would cost its whole size at every event.
func (g *stallGuard) reset() {
	if len(g.offers) > 64 {
		g.offers = nil
		return
	}
	clear(g.offers)
}

// Options configure a run.
type Options struct {
	// User is the AUTH name.
	User string
	// System returns the server types once the handshake is done (dsclient
	// reads ds-system.xml, falling back to GETS All; the in-process
	// simulator knows them).
	System func(b Backend) (*servertypes.System, error)
	// Log receives one debug line per event and action; nil for none.
	Log *zap.Logger
	// Truth returns the simulator's record of the run for a strategy's
	// metrics (strategies.MetricsReporter); nil against a real server,
	// which never tells a client when its jobs really ran.
	Truth func() *strategies.Truth
}

// Result counts what a run did.
type Result struct {
	Events   int // events received (including NONE)
	Offers   int // JOBN/JOBP handled
	Actions  int // actions carried out (SCHD, ENQJ, …)
	Refusals int // SCHD refused with ERR and retried elsewhere
	// LedgerMismatches counts accepted actions the ledger could not take
	// into account (each also logged as a warning): 0 unless the ledger
	// and the server disagree, which a strategy's test can assert without
	// a logger (dsbench and strattest run with none).
	LedgerMismatches int
	// RateMismatches counts server types whose hourly rate in the
	// server's GETS records (ds-server 2026) differs from the System's
	// (each also logged as a warning): 0 unless ds-system.xml is not the
	// server's.
	RateMismatches int
	LastEvent      int // simulation time of the last timed event
	// Metrics is what a strategies.MetricsReporter reported after NONE.
	Metrics []strategies.Metric
}

// Run drives one simulation from the handshake to QUIT. It returns nil after
// NONE and a clean QUIT. On any other end (a strategy error or panic, an
// unexpected ERR, a broken connection) it sends QUIT when the connection
// still works and returns an error that says what happened.
func Run(s strategies.Strategy, b Backend, opt Options) (Result, error) {
	log := opt.Log
	if log == nil {
		log = zap.NewNop()
	}
	r := &runner{s: s, b: b, log: log, truth: opt.Truth}
	err := r.runRecovered(opt)
	return r.res, err
}

// runRecovered is run with a panic turned into the run's error: a strategy
// that writes to a nil map, say, ends its own run with a message naming the
// line, QUIT sent, and not a whole dsbench sweep or dsclient with a stack
// trace. (The stack goes to the debug log.)
func (r *runner) runRecovered(opt Options) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Debug("panic", zap.Any("value", p), zap.ByteString("stack", debug.Stack()))
			err = r.quit(strategies.PanicError(p))
		}
	}()
	return r.run(opt)
}

type runner struct {
	s     strategies.Strategy
	obs   strategies.OutcomeObserver // nil: the strategy has no outcome hook
	depth int                        // how deeply outcome answers may nest (strategies.OutcomeDepthOf)
	truth func() *strategies.Truth
	b     Backend
	log   *zap.Logger
	res   Result
	v     view
}

// RateMismatchWarning is the warning logged for each server type whose
// rate in the server's GETS records is not the System's (see
// Result.RateMismatches); the wire tests look for it in the log.
const RateMismatchWarning = "ds-system.xml and the server disagree"

func (r *runner) run(opt Options) error {
	if err := r.b.Handshake(opt.User); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	sys, err := opt.System(r.b)
	if err != nil {
		return r.quit(fmt.Errorf("server types: %w", err))
	}
	r.v = view{Queries: r.b, sys: sys}
	r.obs, _ = r.s.(strategies.OutcomeObserver)
	r.depth = strategies.OutcomeDepthOf(r.s)
	if _, ok := r.s.(strategies.LedgerUser); ok {
		r.v.ledger = strategies.NewLedger(sys)
	}
	r.v.rates = newRateNotes(sys, r.v.ledger, func(err error) {
		r.res.RateMismatches++
		r.log.Warn(RateMismatchWarning, zap.Error(err))
	})
	if st, ok := r.s.(strategies.Starter); ok {
		if err := st.Start(&r.v); err != nil {
			return r.quit(fmt.Errorf("strategy start: %w", err))
		}
	}
	chkq := 0
	var stall stallGuard
	for {
		ev, err := r.b.Ready()
		if err != nil {
			if protocol.IsServerError(err) {
				return r.quit(fmt.Errorf("REDY: %w", err)) // the connection still works
			}
			return fmt.Errorf("REDY: %w", err)
		}
		r.res.Events++
		r.log.Debug("event", zap.Stringer("msg", ev))
		if _, ok := ev.(*protocol.CheckQueue); ok {
			if chkq++; chkq >= MaxCHKQ {
				return r.quit(fmt.Errorf("%d consecutive CHKQ with nothing running: jobs are stuck in the global queue and the strategy does not dequeue them", chkq))
			}
		} else {
			chkq = 0
		}
		if err := stall.see(ev); err != nil {
			return r.quit(err)
		}
		if done, err := r.handle(ev); done || err != nil {
			return err
		}
	}
}

// handle passes one event to the ledger and the strategy and carries out
// the strategy's actions; done is true after NONE and QUIT.
func (r *runner) handle(ev protocol.Event) (done bool, err error) {
	if r.v.ledger != nil {
		r.v.ledger.Observe(ev)
	}
	switch e := ev.(type) {
	case *protocol.NoMoreJobs:
		if err := r.report(); err != nil {
			return true, r.quit(err)
		}
		if err := r.b.Quit(); err != nil {
			return true, fmt.Errorf("QUIT: %w", err)
		}
		return true, nil
	case *protocol.JobOffer:
		r.setNow(e.Submit)
		if err := r.offer(e.Job); err != nil {
			return true, r.quit(err)
		}
		return false, nil
	case *protocol.JobCompleted:
		r.setNow(e.Time)
	case *protocol.ServerFailed:
		r.setNow(e.Time)
	case *protocol.ServerRecovered:
		r.setNow(e.Time)
	}
	acts, err := r.s.Event(&r.v, ev)
	if err != nil {
		return true, r.quit(fmt.Errorf("strategy, on %q: %w", ev.String(), err))
	}
	var b batch
	if err := r.carry(acts, &b, 0); err != nil {
		return true, r.quit(fmt.Errorf("on %q: %w", ev.String(), err))
	}
	return false, nil
}

// report asks a MetricsReporter for its metrics, once every job has
// completed and before QUIT (queries still work then).
func (r *runner) report() error {
	mr, ok := r.s.(strategies.MetricsReporter)
	if !ok {
		return nil
	}
	var truth *strategies.Truth
	if r.truth != nil {
		truth = r.truth()
	}
	ms := mr.Metrics(&r.v, truth)
	if err := strategies.CheckMetrics(ms); err != nil {
		return fmt.Errorf("strategy metrics: %w", err)
	}
	r.res.Metrics = ms
	return nil
}

func (r *runner) setNow(t int) {
	r.v.now = t
	r.res.LastEvent = t
}

// offer asks the strategy about one job until an action disposes of it.
// Without an outcome hook a refused SCHD of the job is the only reason to
// ask again; with one, any refusal is (Job then sees the state the refusal
// left), at most MaxOutcomeDepth times without a new server excluded.
func (r *runner) offer(job protocol.Job) error {
	r.res.Offers++
	r.v.excluded = r.v.excluded[:0]
	stale := 0
	var last error // the latest refusal, for the message when asking again ends
	for {
		acts, err := r.s.Job(&r.v, job)
		if err != nil {
			if errors.Is(err, strategies.ErrNoServer) && len(r.v.excluded) > 0 {
				return fmt.Errorf("job %d: %w (refused by %s)", job.ID, err, refs(r.v.excluded))
			}
			return fmt.Errorf("job %d: %w", job.ID, err)
		}
		excluded := len(r.v.excluded)
		b := batch{job: &job}
		if err := r.carry(acts, &b, 0); err != nil {
			return fmt.Errorf("job %d: %w", job.ID, err)
		}
		if b.last != nil {
			last = b.last
		}
		switch {
		case b.disposed:
			return nil
		case b.refusals == 0:
			return fmt.Errorf("job %d: the strategy returned %d action(s) but none schedules, enqueues or pushes the job (REDY would offer it again forever)", job.ID, len(acts))
		case len(r.v.excluded) == excluded:
			if stale++; stale > strategies.MaxOutcomeDepth {
				return fmt.Errorf("job %d: still not scheduled after %d refused attempts that excluded no new server (the last: %w)", job.ID, stale, last)
			}
		}
	}
}

// batch is what carrying out one decision's actions did.
type batch struct {
	job      *protocol.Job // the job on offer; nil for other events
	disposed bool          // an action scheduled, enqueued or pushed it
	refusals int           // actions refused with ERR
	last     error         // the last of them
}

// carry carries out actions in order. An accepted action updates the ledger
// and is reported to the outcome hook, whose actions are carried out at
// once. A refused one ends the list: it is reported to the outcome hook, or,
// without one, is the job's SCHD to retry elsewhere or the end of the run.
func (r *runner) carry(acts []protocol.Action, b *batch, depth int) error {
	if depth > r.depth {
		return fmt.Errorf("outcome hook answers nested more than %d deep", r.depth)
	}
	for _, a := range acts {
		if b.disposed && disposesOffered(a, b.job) {
			// ds-server would refuse it (the job is no longer waiting to
			// be placed), and the refusal would be taken for a full server.
			return fmt.Errorf("%q after an earlier action of this decision disposed of the job: exactly one action may schedule, enqueue or push the job on offer", a.String())
		}
		reply, err := r.do(a)
		if err != nil {
			return r.refused(a, err, b, depth)
		}
		if disposesOffered(a, b.job) {
			b.disposed = true
		}
		if r.v.ledger != nil {
			if err := r.v.ledger.Applied(a, reply); err != nil {
				r.res.LedgerMismatches++
				r.log.Warn("ledger out of step with the server", zap.Error(err))
			}
		}
		if r.obs != nil {
			o := strategies.Outcome{Action: a, Reply: reply}
			if _, isTerm := a.(protocol.Terminate); isTerm {
				o.Killed, _ = strategies.KilledCount(reply)
			}
			if err := r.outcome(o, b, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// disposesOffered says whether a disposes of the job on offer (nil for
// other events): ENQJ or PSHJ (both act on it), or a SCHD of that job. A
// SCHD of another job does not: ds-server accepts a SCHD of any job waiting
// in its submission queue, such as one a DEQJ before it brought back.
func disposesOffered(a protocol.Action, job *protocol.Job) bool {
	return job != nil && protocol.DisposesOffer(a, job.ID)
}

// refused handles an ERR (or a broken exchange) in reply to a.
func (r *runner) refused(a protocol.Action, err error, b *batch, depth int) error {
	var se *protocol.ServerError
	if !errors.As(err, &se) {
		return err // the exchange itself broke
	}
	if _, push := a.(protocol.Push); push {
		// ds-server refuses PSHJ only to give up on the run: the job pushed
		// past 1.5 × the end time with nothing left to release (§5.14). The
		// job has left the submission queue, so nothing can be asked again.
		return fmt.Errorf("%w (%s): it refuses PSHJ when the job would be offered again past 1.5 × the end time with nothing left to release", ErrGaveUp, strings.TrimSpace(se.Text))
	}
	sc, isSched := a.(protocol.Schedule)
	jobSched := isSched && b.job != nil && sc.JobID == b.job.ID
	if jobSched {
		if slices.Contains(r.v.excluded, sc.Server) {
			// Chosen again after refusing: asking again would loop.
			return fmt.Errorf("%w; %s had refused the job before (it is in View.Excluded, which a strategy must skip)", err, sc.Server)
		}
		r.res.Refusals++
		r.log.Debug("refused", zap.Stringer("server", sc.Server), zap.Error(err))
		r.v.excluded = append(r.v.excluded, sc.Server)
	}
	if r.obs == nil && !jobSched {
		return err
	}
	b.refusals++
	b.last = fmt.Errorf("%s: %s", a.String(), strings.TrimSpace(se.Text))
	if r.obs == nil {
		return nil
	}
	return r.outcome(strategies.Outcome{Action: a, Err: se}, b, depth)
}

// outcome reports one outcome to the hook and carries out its answer.
func (r *runner) outcome(o strategies.Outcome, b *batch, depth int) error {
	more, err := r.obs.Outcome(&r.v, o)
	if err != nil {
		return fmt.Errorf("strategy, on the outcome of %q: %w", o.Action.String(), err)
	}
	return r.carry(more, b, depth+1)
}

func (r *runner) do(a protocol.Action) (string, error) {
	r.log.Debug("action", zap.Stringer("cmd", a))
	reply, err := r.b.Do(a)
	if err == nil {
		r.res.Actions++
	}
	return reply, err
}

// quit sends QUIT after a failure, best effort, and returns the failure.
func (r *runner) quit(cause error) error {
	if err := r.b.Quit(); err != nil {
		r.log.Debug("QUIT after failure", zap.Error(err))
	}
	return cause
}

func refs(rs []protocol.ServerRef) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += ", "
		}
		s += r.String()
	}
	return s
}

// view is the strategies.View the loop hands to the strategy. Its GETS
// queries pass their records by the rate notes (rates.go).
type view struct {
	strategies.Queries
	sys      *servertypes.System
	now      int
	excluded []protocol.ServerRef
	ledger   *strategies.Ledger
	rates    *rateNotes
}

func (v *view) servers(recs []protocol.Server, err error) ([]protocol.Server, error) {
	if err == nil {
		v.rates.records(recs)
	}
	return recs, err
}

func (v *view) GetsAll() ([]protocol.Server, error) { return v.servers(v.Queries.GetsAll()) }
func (v *view) GetsType(t string) ([]protocol.Server, error) {
	return v.servers(v.Queries.GetsType(t))
}
func (v *view) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	return v.servers(v.Queries.GetsCapable(r))
}
func (v *view) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	return v.servers(v.Queries.GetsAvail(r))
}
func (v *view) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	return v.servers(v.Queries.GetsBounded(r))
}
func (v *view) GetsOne(s protocol.ServerRef) (protocol.Server, error) {
	rec, err := v.Queries.GetsOne(s)
	if err == nil {
		v.rates.records([]protocol.Server{rec})
	}
	return rec, err
}

func (v *view) System() *servertypes.System    { return v.sys }
func (v *view) Now() int                       { return v.now }
func (v *view) Excluded() []protocol.ServerRef { return v.excluded }
func (v *view) Ledger() *strategies.Ledger     { return v.ledger }
