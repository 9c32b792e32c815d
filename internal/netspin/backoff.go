//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package netspin

import (
	"sync/atomic"
	"time"
)

// Polling pays only while the peer can run at the same time. When other
// programs keep every CPU busy, a polling read holds a CPU that the peer
// (queued behind them) needs to compute the reply, the scheduler lets the
// poll run out its time slice, and each round trip costs a slice instead of
// a wake-up: measured on the 2-core VM of README's performance table, the
// config100-long-high pair went from about 0.3 s to 2–10 s with two
// CPU-bound processes running beside it. So polling backs off on evidence
// of contention, process-wide (contention is the machine's, not one
// connection's):
//
//   - a poll descheduled (two looks at the clock, 16 polls apart, further
//     apart than preemptGap) or one that ran out its spin time without data
//     is a failure; from the second failure in a row on, the following
//     reads park at once for a while: minBackoff, then twice as long after
//     each further failure, up to maxBackoff;
//   - a poll that finds its data resets the count.
//
// Under sustained load the reads then park like the blocking reads of the
// reference ds-server and ds-client, with one trial poll per maxBackoff. On
// a quiet machine failures come alone (measured: about 25 spins that ran
// out and 12 gaps of 50–90 µs, VM noise, in a 15,000-round-trip run) and
// cost nothing: a single failure does not park, and preemptGap is above
// such gaps, while a real preemption takes a time slice (milliseconds).
const (
	preemptGap = 250 * time.Microsecond
	minBackoff = time.Millisecond
	maxBackoff = 64 * time.Millisecond
)

var (
	// parkUntil is the time (UnixNano) before which reads do not poll.
	parkUntil atomic.Int64
	// failures counts the failed polls since the last successful one.
	failures atomic.Int32
)

// backingOff reports whether reads should park without polling now.
func backingOff(now time.Time) bool {
	return now.UnixNano() < parkUntil.Load()
}

// pollFailed records a poll that was descheduled or found nothing.
func pollFailed(now time.Time) {
	n := failures.Add(1)
	if n < 2 {
		return // a failure alone is the peer's slow reply, not contention
	}
	b := maxBackoff
	if shift := n - 2; shift < 6 {
		b = min(minBackoff<<shift, maxBackoff)
	}
	parkUntil.Store(now.Add(b).UnixNano())
}

// pollSucceeded records a poll that found its data.
func pollSucceeded() {
	if failures.Load() != 0 {
		failures.Store(0)
	}
}
