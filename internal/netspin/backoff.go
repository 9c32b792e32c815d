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
//     makes the following reads park at once for a while: minBackoff, then
//     twice as long after each further failure, up to maxBackoff;
//   - a poll that finds its data resets the backoff.
//
// Under sustained load the reads then park like the blocking reads of the
// reference ds-server and ds-client, with one trial poll per maxBackoff;
// on a quiet machine a failure costs at most minBackoff of parked reads.
const (
	preemptGap = 50 * time.Microsecond
	minBackoff = time.Millisecond
	maxBackoff = 64 * time.Millisecond
)

var (
	// parkUntil is the time (UnixNano) before which reads do not poll.
	parkUntil atomic.Int64
	// backoff is the current park time after a failed poll (0: none yet).
	backoff atomic.Int64
)

// backingOff reports whether reads should park without polling now.
func backingOff(now time.Time) bool {
	return now.UnixNano() < parkUntil.Load()
}

// pollFailed records a poll that was descheduled or found nothing.
func pollFailed(now time.Time) {
	b := time.Duration(backoff.Load())
	switch {
	case b < minBackoff:
		b = minBackoff
	case b < maxBackoff:
		b *= 2
	}
	backoff.Store(int64(b))
	parkUntil.Store(now.Add(b).UnixNano())
}

// pollSucceeded records a poll that found its data.
func pollSucceeded() {
	if backoff.Load() != 0 {
		backoff.Store(0)
	}
}
