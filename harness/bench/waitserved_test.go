package bench

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A session whose connection stays open after the client exited (a child
// of the client holds it) is aborted at the run's end within the grace,
// and serverAfterClient after the grace even when the run has long to
// go, not left to its read timeout.
func TestWaitServedAbortsAfterTheGrace(t *testing.T) {
	for _, tc := range []struct {
		grace, ctx time.Duration
		within     time.Duration
	}{
		{0, 300 * time.Millisecond, 2 * time.Second},
		{20 * time.Millisecond, 300 * time.Millisecond, 2 * time.Second},
		{time.Minute, 300 * time.Millisecond, 2 * time.Second},
		{0, time.Minute, serverAfterClient + 2*time.Second},
		{20 * time.Millisecond, time.Minute, serverAfterClient + 2*time.Second},
	} {
		aw, s := heldSession(t)
		ctx, cancel := context.WithTimeout(context.Background(), tc.ctx)
		defer cancel()
		type result struct{ never, ended bool }
		got := make(chan result, 1)
		go func() {
			never, ended := aw.waitServed(ctx, s, tc.grace)
			got <- result{never, ended}
		}()
		select {
		case r := <-got:
			assert.Equal(t, result{never: false, ended: true}, r, "%+v", tc)
		case <-time.After(tc.within):
			t.Fatalf("%+v: the session was not aborted", tc)
		}
	}
}

// heldSession is a session on a loopback listener whose connection the
// test holds open until it ends; the session ends when its connection
// does.
func heldSession(t *testing.T) (*acceptWatch, *session) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	aw := &acceptWatch{Listener: ln, accepted: make(chan struct{})}
	s := &session{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		c, err := aw.Accept()
		if err != nil {
			return
		}
		c.Read(make([]byte, 1))
	}()
	held, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { held.Close() })
	<-aw.accepted
	return aw, s
}
