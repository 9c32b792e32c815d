package mocksrv

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// spoolInMemory is how much of a Serve session's log is kept in memory:
// a small session's log never touches the disk, a larger one goes to a
// temporary file, so that a session's memory stays this size whatever its
// log grows to (a client looping on junk at -v all wrote 120 MB a second,
// all of it held until the session ended).
const spoolInMemory = 64 << 10

// ErrLogTooLarge is the cause when a Serve session's log passes
// Listener.SessionLogMax: the session is ended, its log so far kept.
var ErrLogTooLarge = errors.New("the session's log passed its limit")

// spool holds one Serve session's log until the session ends, when it is
// written to the listener's Log in one piece (concurrent logs never
// interleave): in memory up to spoolInMemory, then in a temporary file.
// Past max bytes (0: no limit) it keeps nothing more and calls over once,
// which ends the session. Not safe for concurrent use, as the log is not.
type spool struct {
	mem  bytes.Buffer
	file *os.File
	w    *bufio.Writer
	n    int64 // bytes written to it
	max  int64
	over func() // called when n passes max
	err  error  // the first error of the temporary file, or ErrLogTooLarge
}

func (s *spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return len(p), nil // the log stops; the session is ending
	}
	if s.max > 0 && s.n+int64(len(p)) > s.max {
		s.write(p[:s.max-s.n]) // the log up to the limit, to the byte
		if s.err == nil {
			s.err = fmt.Errorf("%w of %d bytes (dsmock --session-log-max)", ErrLogTooLarge, s.max)
			if s.over != nil {
				s.over()
			}
		}
		return len(p), nil
	}
	s.write(p)
	return len(p), nil
}

// write keeps p: in memory, or in the temporary file once the log has
// outgrown spoolInMemory.
func (s *spool) write(p []byte) {
	s.n += int64(len(p))
	if s.w == nil && s.mem.Len()+len(p) > spoolInMemory {
		if err := s.toFile(); err != nil {
			s.fail(err)
			return
		}
	}
	if s.w == nil {
		s.mem.Write(p)
	} else if _, err := s.w.Write(p); err != nil {
		s.fail(fmt.Errorf("the session's log file: %w", err))
	}
}

// fail ends the session on the log's error.
func (s *spool) fail(err error) {
	if s.err == nil {
		s.err = err
		if s.over != nil {
			s.over()
		}
	}
}

// toFile moves the log so far to a temporary file, which is removed at
// once where the system allows it (Unix: the file lives while it is open)
// and at the end elsewhere.
func (s *spool) toFile() error {
	f, err := os.CreateTemp("", "dsmock-session-*.log")
	if err != nil {
		return fmt.Errorf("the session's log file: %w", err)
	}
	os.Remove(f.Name()) // Unix: nothing is left behind, whatever happens next
	s.file, s.w = f, bufio.NewWriterSize(f, 32<<10)
	if _, err := s.w.Write(s.mem.Bytes()); err != nil {
		return fmt.Errorf("the session's log file: %w", err)
	}
	s.mem = bytes.Buffer{}
	return nil
}

// writeTo writes the log to w and releases the spool.
func (s *spool) writeTo(w io.Writer) error {
	if s.file == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	defer s.close()
	if err := s.w.Flush(); err != nil {
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.file)
	return err
}

// close releases the temporary file, if any.
func (s *spool) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name()) // (already gone on Unix)
		s.file = nil
	}
}

// sessionGate counts a Serve listener's live sessions against a limit.
type sessionGate struct {
	mu      sync.Mutex
	running int
	max     int // 0: no limit
}

// enter takes a place; ok is false (and running the count) when all are
// taken.
func (g *sessionGate) enter() (running int, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.max > 0 && g.running >= g.max {
		return g.running, false
	}
	g.running++
	return g.running, true
}

func (g *sessionGate) leave() {
	g.mu.Lock()
	g.running--
	g.mu.Unlock()
}

// count is the number of live sessions.
func (g *sessionGate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.running
}

// acceptBackoff is Serve's wait after a failed accept: 5 ms, doubling to a
// second, said on stderr at the first failure of a run of them and when
// accepting works again.
type acceptBackoff struct {
	delay    time.Duration
	failures int
}

const (
	acceptBackoffFirst = 5 * time.Millisecond
	acceptBackoffMax   = time.Second
)

// wait sleeps the next delay, or until ctx is done.
func (b *acceptBackoff) wait(ctx context.Context, err error, stderr io.Writer, running int) {
	if b.failures == 0 && stderr != nil {
		fmt.Fprintf(stderr, "dsmock: accepting a connection failed: %v; retrying, at most a second apart, while the %d sessions go on\n", err, running)
	}
	b.failures++
	if b.delay == 0 {
		b.delay = acceptBackoffFirst
	} else {
		b.delay = min(2*b.delay, acceptBackoffMax)
	}
	t := time.NewTimer(b.delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// recovered ends a run of failures, saying so.
func (b *acceptBackoff) recovered(stderr io.Writer) {
	if b.failures > 0 && stderr != nil {
		fmt.Fprintf(stderr, "dsmock: accepting connections again after %d failed tries\n", b.failures)
	}
	b.failures, b.delay = 0, 0
}
