package bench

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dssim-go/dssim-go/harness/filelabel"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies"
)

// acceptWatch is the built-in server's listener, noting its first
// accepted connection: when the client has ended and nothing connected,
// the run says so instead of the listener's "use of closed network
// connection". It keeps the connection, so that a run that times out can
// end its session (abort).
type acceptWatch struct {
	net.Listener
	accepted chan struct{} // closed at the first accepted connection
	once     sync.Once
	mu       sync.Mutex
	conn     net.Conn
	aborted  bool // the session was aborted, not ended by itself
}

func (a *acceptWatch) Accept() (net.Conn, error) {
	c, err := a.Listener.Accept()
	if err == nil {
		a.mu.Lock()
		a.conn = c
		a.mu.Unlock()
		a.once.Do(func() { close(a.accepted) })
	}
	return c, err
}

// abort closes the listener and the accepted connection: the session
// ends at its next read or write, flushing its log.
func (a *acceptWatch) abort() {
	a.Close()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.aborted = true
	if a.conn != nil {
		a.conn.Close()
	}
}

// session is the built-in server's one session; done is closed once tx
// and err are set.
type session struct {
	done chan struct{}
	tx   *mocksrv.Text
	err  error
}

// noConnectGrace is how long a connection may take to be accepted after
// the client process ended (it may have connected just before exiting).
const noConnectGrace = time.Second

// abortWait bounds the wait for an aborted session to end (it ends at
// once unless the machine is overloaded).
const abortWait = 5 * time.Second

// waitServed waits for the server's session after the client ended: up
// to grace (serverGrace, 0 when the client failed: the server may wait
// for a connection that never comes), then up to serverAfterClient for a
// session still reading what the client sent last. never reports that
// nothing ever connected (the listener is then closed after
// noConnectGrace, not after the whole grace). A session still running
// then, or at ctx's end, is aborted (a client's child may hold the
// connection open, the session waiting on it for its read timeout: the
// run must not wait out the timeout for a client that has already
// exited), and waited for up to abortWait, so that its log is kept; ended
// is false when it did not end, and only then.
func (a *acceptWatch) waitServed(ctx context.Context, s *session, grace time.Duration) (never, ended bool) {
	graceT := time.NewTimer(grace)
	defer graceT.Stop()
	noConn := time.After(noConnectGrace)
	for {
		select {
		case <-s.done:
			return false, true
		case <-ctx.Done():
			return false, a.abortAndWait(s)
		case <-noConn:
			if a.wasAccepted() {
				noConn = nil
				continue
			}
			return a.closeAndEnd(ctx, s)
		case <-graceT.C:
			return a.closeAndEnd(ctx, s)
		}
	}
}

// closeAndEnd closes the listener (unblocking Accept; a connection in
// progress ends at EOF) and ends the session.
func (a *acceptWatch) closeAndEnd(ctx context.Context, s *session) (never, ended bool) {
	a.Close()
	ended = a.waitEnd(ctx, s)
	return !a.wasAccepted(), ended
}

func (a *acceptWatch) wasAborted() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.aborted
}

func (a *acceptWatch) wasAccepted() bool {
	select {
	case <-a.accepted:
		return true
	default:
		return false
	}
}

// waitEnd waits up to serverAfterClient for the session to end, then
// aborts it (as a server binary is killed then).
func (a *acceptWatch) waitEnd(ctx context.Context, s *session) bool {
	t := time.NewTimer(serverAfterClient)
	defer t.Stop()
	select {
	case <-s.done:
		return true
	case <-ctx.Done():
	case <-t.C:
	}
	return a.abortAndWait(s)
}

// abortAndWait aborts the session and waits up to abortWait for it to end.
func (a *acceptWatch) abortAndWait(s *session) bool {
	a.abort()
	select {
	case <-s.done:
		return true
	case <-time.After(abortWait):
		return false
	}
}

// JoinReason appends a detail to a run's reason.
func JoinReason(reason, more string) string {
	switch {
	case reason == "":
		return more
	case more == "":
		return reason
	}
	return reason + "; " + more
}

// keptLogBase is dir's file name for r's logs, without the extension:
// CONFIG__STRATEGY (filelabel.RunBase: a label that is not plain gets a
// hash, so that no two runs share a file).
func keptLogBase(dir string, r Result) string {
	return filepath.Join(dir, filelabel.RunBase(r.Config, r.Variant))
}

// runLogs are a run's three outputs (see capture), in keptLogExts' order:
// the server's log (its stdout: the -v brief log and the summary), the
// server's stderr, the client's stderr.
type runLogs [3]*capture

// openLogs makes a run's captures, each streamed to its --keep-logs file
// when dsbench keeps logs: the server's log only for an in-process run
// (the simulator's stderr lines are in its report, and there is no client
// process). A file that cannot be created is returned as the error, and
// that output and the ones after it are kept in memory only: the run goes
// on, and its reason names the error (keptLogs).
func (b *Bench) openLogs(r Result, inProcess bool) (runLogs, error) {
	var logs runLogs
	var err error
	for i := range logs {
		path := ""
		if b.Target.KeepLogs != "" && err == nil && (i == 0 || !inProcess) {
			path = keptLogBase(b.Target.KeepLogs, r) + keptLogExts[i]
		}
		c, cerr := newCapture(path, i == 0)
		if cerr != nil {
			c, err = &capture{}, cerr
		}
		logs[i] = c
	}
	return logs, err
}

// close closes the captures and returns their files (an empty stderr has
// none) and the first error writing them.
func (logs runLogs) close() (files []string, err error) {
	for _, c := range logs {
		if e := c.Close(); e != nil && err == nil {
			err = e
		}
		if f := c.file(); f != "" {
			files = append(files, f)
		}
	}
	return files, err
}

// withLogs does a run with its outputs captured (openLogs), and notes the
// files kept and the first error keeping them.
func (b *Bench) withLogs(r Result, inProcess bool, run func(runLogs) runOutput) runOutput {
	logs, openErr := b.openLogs(r, inProcess)
	out := run(logs)
	kept, closeErr := logs.close()
	out.kept, out.logErr = kept, firstErr(openErr, closeErr)
	return out
}

// reset empties the captures for another attempt at the run.
func (logs runLogs) reset() {
	for _, c := range logs {
		c.reset()
	}
}

// runInProcessLogged is runInProcess with the server log streamed to its
// --keep-logs file when dsbench keeps logs (the simulator writes no log
// otherwise).
func (b *Bench) runInProcessLogged(ctx context.Context, cfg *mocksrv.Config, newStrategy func() (strategies.Strategy, error), logs runLogs) runOutput {
	if logs[0].f == nil { // no --keep-logs, or its file could not be made
		return runInProcess(ctx, cfg, newStrategy, b.Target, nil)
	}
	out := runInProcess(ctx, cfg, newStrategy, b.Target, logs[0])
	logs[0].Close() // first: a timed-out run may still be writing, and the tail is then the file's end
	out.logTail, out.logStreamed = logs[0].Tail(), true
	return out
}

// keptLogExts end the names openLogs writes: the server log, the
// server's stderr, the client's stderr.
var keptLogExts = []string{".server.log", ".server.stderr", ".client.stderr"}

// IsKeptLog reports whether --keep-logs may write a file of this name.
func IsKeptLog(name string) bool {
	for _, ext := range keptLogExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// keptLogs points to the run's kept logs (runOutput.kept) from the
// reason of a run without a result, or says why they could not be kept.
func (b *Bench) keptLogs(r *Result, out runOutput) {
	switch {
	case b.Target.KeepLogs == "":
	case out.logErr != nil:
		r.Err = JoinReason(r.Err, fmt.Sprintf("keeping the logs: %v", out.logErr))
	case !r.OK():
		r.Err = JoinReason(r.Err, "logs: "+strings.Join(out.kept, ", "))
	}
}
