//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package netspin

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func resetBackoff() { parkUntil.Store(0); failures.Store(0) }

// The backoff after failed polls: none after one failure alone, then 1 ms,
// doubling up to 64 ms; a poll that finds its data resets it; reads poll
// again once the time is up.
func TestBackoffSchedule(t *testing.T) {
	resetBackoff()
	t.Cleanup(resetBackoff)
	now := time.Unix(1000, 0)
	assert.False(t, backingOff(now), "no failure yet")
	pollFailed(now)
	assert.False(t, backingOff(now), "one failure alone")
	for _, want := range []time.Duration{1, 2, 4, 8, 16, 32, 64, 64, 64} {
		pollFailed(now)
		want *= time.Millisecond
		assert.True(t, backingOff(now.Add(want-time.Microsecond)), "parked just before %v", want)
		assert.False(t, backingOff(now.Add(want)), "polling again at %v", want)
	}
	pollSucceeded()
	pollFailed(now.Add(time.Second))
	assert.False(t, backingOff(now.Add(time.Second)), "after a success a failure alone does not park")
	pollFailed(now.Add(time.Second))
	assert.True(t, backingOff(now.Add(time.Second+time.Millisecond-time.Microsecond)))
	assert.False(t, backingOff(now.Add(time.Second+time.Millisecond)), "the second failure in a row parks 1 ms")
}

// While backing off, a read parks at once: it takes no polling slot, and
// still gets its data (from the poller) when the data comes.
func TestBackingOffReadParks(t *testing.T) {
	resetBackoff()
	t.Cleanup(resetBackoff)
	c, s := pair(t)
	w := Wrap(c, 50*time.Millisecond)
	parkUntil.Store(time.Now().Add(time.Hour).UnixNano())
	go func() {
		time.Sleep(30 * time.Millisecond)
		s.Write([]byte("OK"))
	}()
	got := make(chan error, 1)
	go func() {
		_, err := w.Read(make([]byte, 8))
		got <- err
	}()
	time.Sleep(10 * time.Millisecond)
	assert.Equal(t, int32(0), spinners.Load(), "no read polls while backing off")
	require.NoError(t, <-got)
}

// A poll that runs out its spin time without data counts as a failure (a
// success resetting the count is TestBackoffSchedule's).
func TestReadOutcomesDriveBackoff(t *testing.T) {
	resetBackoff()
	t.Cleanup(resetBackoff)
	c, s := pair(t)
	w := Wrap(c, 200*time.Microsecond)
	go func() {
		// The data comes once the poll has run out (a fixed pause let a
		// read that started late find the data at once, on a loaded
		// machine); if it is never counted, after 10 s, to fail below.
		for end := time.Now().Add(10 * time.Second); failures.Load() == 0 && time.Now().Before(end); {
			time.Sleep(time.Millisecond)
		}
		s.Write([]byte("A"))
	}()
	buf := make([]byte, 8)
	_, err := w.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, int32(1), failures.Load(), "a poll that found nothing is a failure")
}
