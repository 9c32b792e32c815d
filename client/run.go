// Package client is the scheduling loop: it reads server events, asks a
// strategy what to do and carries out its actions, over any Backend — a
// ds-server or dsmock over TCP (protocol.Client), or the in-process
// simulator (mocksrv). It owns the rules that are the same for every
// strategy: the handshake, REDY after each decision, retrying a refused SCHD
// without that server, the CHKQ guard and QUIT on NONE.
package client

import (
	"errors"
	"fmt"
	"slices"

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
}

// Result counts what a run did.
type Result struct {
	Events    int // events received (including NONE)
	Offers    int // JOBN/JOBP handled
	Actions   int // actions carried out (SCHD, ENQJ, …)
	Refusals  int // SCHD refused with ERR and retried elsewhere
	LastEvent int // simulation time of the last timed event
}

// Run drives one simulation from the handshake to QUIT. It returns nil after
// NONE and a clean QUIT. On any other end (a strategy error, an unexpected
// ERR, a broken connection) it sends QUIT when the connection still works
// and returns an error that says what happened.
func Run(s strategies.Strategy, b Backend, opt Options) (Result, error) {
	log := opt.Log
	if log == nil {
		log = zap.NewNop()
	}
	r := &runner{s: s, b: b, log: log}
	err := r.run(opt)
	return r.res, err
}

type runner struct {
	s   strategies.Strategy
	b   Backend
	log *zap.Logger
	res Result
	v   view
}

func (r *runner) run(opt Options) error {
	if err := r.b.Handshake(opt.User); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	sys, err := opt.System(r.b)
	if err != nil {
		return r.quit(fmt.Errorf("server types: %w", err))
	}
	r.v = view{Queries: r.b, sys: sys}
	chkq := 0
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
		switch e := ev.(type) {
		case *protocol.NoMoreJobs:
			if err := r.b.Quit(); err != nil {
				return fmt.Errorf("QUIT: %w", err)
			}
			return nil
		case *protocol.JobOffer:
			r.setNow(e.Submit)
			if err := r.offer(e.Job); err != nil {
				return r.quit(err)
			}
			continue
		case *protocol.JobCompleted:
			r.setNow(e.Time)
		case *protocol.ServerFailed:
			r.setNow(e.Time)
		case *protocol.ServerRecovered:
			r.setNow(e.Time)
		}
		acts, err := r.s.Event(&r.v, ev)
		if err != nil {
			return r.quit(fmt.Errorf("strategy, on %q: %w", ev.String(), err))
		}
		for _, a := range acts {
			if _, err := r.do(a); err != nil {
				return r.quit(fmt.Errorf("on %q: %w", ev.String(), err))
			}
		}
	}
}

func (r *runner) setNow(t int) {
	r.v.now = t
	r.res.LastEvent = t
}

// offer asks the strategy about one job until an action disposes of it.
func (r *runner) offer(job protocol.Job) error {
	r.res.Offers++
	r.v.excluded = r.v.excluded[:0]
	for {
		acts, err := r.s.Job(&r.v, job)
		if err != nil {
			if errors.Is(err, strategies.ErrNoServer) && len(r.v.excluded) > 0 {
				return fmt.Errorf("job %d: %w (refused by %s)", job.ID, err, refs(r.v.excluded))
			}
			return fmt.Errorf("job %d: %w", job.ID, err)
		}
		disposed, refused := false, false
		for _, a := range acts {
			if _, err := r.do(a); err != nil {
				sc, isSched := a.(protocol.Schedule)
				if isSched && sc.JobID == job.ID && protocol.IsServerError(err) && !slices.Contains(r.v.excluded, sc.Server) {
					r.res.Refusals++
					r.log.Debug("refused", zap.Stringer("server", sc.Server), zap.Error(err))
					r.v.excluded = append(r.v.excluded, sc.Server)
					refused = true
					break
				}
				return fmt.Errorf("job %d: %w", job.ID, err)
			}
			if protocol.DisposesJob(a) {
				disposed = true
			}
		}
		if refused {
			continue
		}
		if !disposed {
			return fmt.Errorf("job %d: the strategy returned %d action(s) but none schedules, enqueues or pushes the job (REDY would offer it again forever)", job.ID, len(acts))
		}
		return nil
	}
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

// view is the strategies.View the loop hands to the strategy.
type view struct {
	strategies.Queries
	sys      *servertypes.System
	now      int
	excluded []protocol.ServerRef
}

func (v *view) System() *servertypes.System    { return v.sys }
func (v *view) Now() int                       { return v.now }
func (v *view) Excluded() []protocol.ServerRef { return v.excluded }
