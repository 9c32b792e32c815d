package harness

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A session whose connection stays open after the client exited (a child
// of the client holds it) is aborted at the run's end, after the grace
// as within it, not left to its read timeout.
func TestWaitServedAbortsAfterTheGrace(t *testing.T) {
	for _, grace := range []time.Duration{0, 20 * time.Millisecond, time.Minute} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		aw := &acceptWatch{Listener: ln, accepted: make(chan struct{})}
		s := &session{done: make(chan struct{})}
		go func() { // a session that ends when its connection does
			defer close(s.done)
			c, err := aw.Accept()
			if err != nil {
				return
			}
			c.Read(make([]byte, 1))
		}()
		held, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		defer held.Close()
		<-aw.accepted
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		type result struct{ never, ended bool }
		got := make(chan result, 1)
		go func() {
			never, ended := aw.waitServed(ctx, s, grace)
			got <- result{never, ended}
		}()
		select {
		case r := <-got:
			assert.Equal(t, result{never: false, ended: true}, r, "grace %v", grace)
		case <-time.After(10 * time.Second):
			t.Fatalf("grace %v: the session was not aborted at the run's end", grace)
		}
	}
}
