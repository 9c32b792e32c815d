package dsmock

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// signalCause is the cause of a run cut short by a signal.
type signalCause struct{ sig os.Signal }

func (s signalCause) Error() string { return "interrupted by " + s.sig.String() }

// onSignal returns a context cancelled, with a signalCause, by SIGINT or
// SIGTERM, and the function that releases it. A signal the process was
// started with ignored (SIGINT of a job that a script put in the
// background) stays ignored: ds-server, which has no handler, is not
// stopped by it either.
func onSignal() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(s) {
			signal.Notify(sigs, s)
		}
	}
	go func() {
		select {
		case s := <-sigs:
			cancel(signalCause{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel(nil) }
}

// interruptedBy reports the signal that cut the run short, if one did.
func interruptedBy(err error) (os.Signal, bool) {
	var sc signalCause
	if errors.As(err, &sc) {
		return sc.sig, true
	}
	return nil, false
}

// dieOf ends dsmock as the signal sig ends ds-server, once the log
// written so far is out: the whole process dies of sig (a shell shows
// status 128+n and a script that ran it stops, as after ds-server); run
// inside a test, it returns that status.
func dieOf(sig os.Signal, wholeProcess bool) int {
	status := 128 + 2 // SIGINT's, where signals have no numbers
	if s, ok := sig.(syscall.Signal); ok {
		status = 128 + int(s)
	}
	if wholeProcess {
		signal.Reset(sig)
		if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
			time.Sleep(time.Second) // the signal ends the process meanwhile
		}
	}
	return status
}
