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
// 14,000-round-trip Go ping-pong drops from about 1.0 s to 0.13–0.19 s
// with 100 µs of polling (raw system calls, one P). The cost is up to Spin of CPU per wait, and nothing
// when the reply comes quickly. At most GOMAXPROCS reads (one per P) poll
// at the same time in a process; the others park at once, so a server with
// many connections (dsmock --serve) never has more than its CPUs polling,
// while a client and server in one process (dsbench --server dsmock) can
// both poll.
//
// When other programs keep the CPUs busy, polling would hold a CPU the peer
// needs and cost a time slice per round trip; reads then back off and park
// at once for a while, process-wide (backoff.go).
//
// Polling uses raw read(2)/write(2) on the socket (Linux, macOS, the BSDs);
// on other systems (Windows, Solaris, AIX) Wrap returns the connection
// unchanged.
package netspin

import (
	"net"
	"os"
	"runtime"
	"time"
)

// DefaultSpin is the polling time used by dsclient and dsmock.
const DefaultSpin = 100 * time.Microsecond

// SequentialProcess sets GOMAXPROCS to 1 unless the user set the
// GOMAXPROCS environment variable. It is for a process that holds one
// conversation at a time (dsclient; dsmock serving one connection): a
// second P gains such a process nothing, while on a small machine the
// runtime's idle thread, woken at every reply, takes the CPU from the peer
// process that is about to answer. Measured on the 2-core VM of README's
// performance table: about 8,000 context switches per config100-long-high
// run in dsclient with two Ps, a few hundred with one.
func SequentialProcess() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// Wrapper is the connection option for a spin time, as the commands'
// --spin flag gives it: a function wrapping a connection with Wrap, or nil
// (the plain connection) when spin <= 0. 0 means off everywhere, so a flag,
// an option field and this function cannot disagree about it. The result
// fits protocol.DialOptions.WrapConn and mocksrv.Listener.WrapConn, which
// leave busy polling to the commands (library packages do not import
// internal/).
func Wrapper(spin time.Duration) func(net.Conn) net.Conn {
	if spin <= 0 {
		return nil
	}
	return func(c net.Conn) net.Conn { return Wrap(c, spin) }
}
