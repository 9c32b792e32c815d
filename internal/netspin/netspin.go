// Package netspin reads from a TCP connection with a short busy-poll before
// the goroutine parks.
//
// Why: the ds-sim protocol is a strict ping-pong of tiny messages (about
// seven round trips per job, 14,000 for a 2,000-job run). On a virtual
// machine the time to wake a thread blocked in the kernel dominates each
// round trip (measured here: about 70 µs, for C's blocking read() and Go's
// netpoller alike), while the peer's reply is usually computed within a few
// microseconds. Polling the non-blocking socket for a little while before
// parking catches the reply without the wake-up: on this machine a
// 14,000-round-trip ping-pong drops from about 1.0 s to about 0.25 s with
// 100 µs of polling. The cost is up to Spin of CPU per wait, and nothing
// when the reply comes quickly. At most GOMAXPROCS reads (one per P) poll
// at the same time in a process; the others park at once, so a server with
// many connections (dsmock --serve) never has more than its CPUs polling,
// while a client and server in one process (dsbench --server dsmock) can
// both poll.
package netspin

import (
	"io"
	"net"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultSpin is the polling time used by dsclient and dsmock.
const DefaultSpin = 100 * time.Microsecond

// spinners counts the reads polling right now, in the whole process.
var spinners atomic.Int32

func maxSpinners() int32 { return int32(runtime.GOMAXPROCS(0)) }

// takeSlot claims one of the process's polling slots, never exceeding
// maxSpinners even for an instant.
func takeSlot() bool {
	limit := maxSpinners()
	for {
		cur := spinners.Load()
		if cur >= limit {
			return false
		}
		if spinners.CompareAndSwap(cur, cur+1) {
			return true
		}
	}
}

// Conn is a net.Conn whose Read polls for up to Spin before parking. Read
// deadlines (SetReadDeadline) are honoured as by the underlying conn. Like a
// net.Conn it allows one Read at a time.
type Conn struct {
	net.Conn
	raw  syscall.RawConn
	spin time.Duration

	// State of the Read in progress, kept here (not captured by a closure)
	// so that a Read does not allocate.
	readFn   func(fd uintptr) bool
	p        []byte
	n        int
	err      error
	until    time.Time
	spinning bool // holds one of the process's polling slots
}

// Wrap returns c with spinning reads, or c itself when spin <= 0 or c does
// not expose its file descriptor (not a TCP or Unix socket).
func Wrap(c net.Conn, spin time.Duration) net.Conn {
	if spin <= 0 {
		return c
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	w := &Conn{Conn: c, raw: raw, spin: spin}
	w.readFn = w.tryRead
	return w
}

// tryRead is called by the runtime with the socket: it reads, polling while
// nothing is there until the spin time is up, then asks to be parked
// (false) until the poller reports the socket readable.
func (c *Conn) tryRead(fd uintptr) bool {
	for {
		c.n, c.err = syscall.Read(int(fd), c.p)
		if c.err == syscall.EINTR {
			continue
		}
		if c.err != syscall.EAGAIN {
			c.release()
			return true
		}
		now := time.Now()
		if c.until.IsZero() {
			c.until = now.Add(c.spin)
			if !takeSlot() {
				return false // enough reads are polling: park at once
			}
			c.spinning = true
		}
		if now.After(c.until) {
			c.release()
			return false
		}
	}
}

func (c *Conn) release() {
	if c.spinning {
		spinners.Add(-1)
		c.spinning = false
	}
}

// Read reads into p, polling the socket for up to the spin time when no
// data is ready, then waiting in the runtime's poller as usual.
func (c *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.p, c.until = p, time.Time{}
	err := c.raw.Read(c.readFn)
	c.p = nil
	n, rerr := c.n, c.err
	if err != nil {
		return 0, err // deadline exceeded or closed, as net.Conn reports them
	}
	if rerr != nil {
		return 0, &net.OpError{Op: "read", Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: rerr}
	}
	if n <= 0 {
		return 0, io.EOF
	}
	return n, nil
}
