//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package netspin

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pair(t testing.TB) (client, server net.Conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	done := make(chan net.Conn)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(done)
			return
		}
		done <- c
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	server = <-done
	require.NotNil(t, server)
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

func TestReadWriteEOFAndDeadline(t *testing.T) {
	c, s := pair(t)
	w := Wrap(c, 50*time.Microsecond)
	require.IsType(t, &Conn{}, w)

	// Data that is there at once, and data that comes after the spin (the
	// second write waits for the first read: had both arrived before it,
	// that read would get them in one piece).
	firstRead := make(chan struct{})
	go func() {
		s.Write([]byte("OK"))
		<-firstRead
		time.Sleep(20 * time.Millisecond)
		s.Write([]byte("JOBN 0 1 2 3 4 5"))
	}()
	buf := make([]byte, 64)
	n, err := w.Read(buf)
	close(firstRead)
	require.NoError(t, err)
	assert.Equal(t, "OK", string(buf[:n]))
	n, err = w.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "JOBN 0 1 2 3 4 5", string(buf[:n]))

	// A read deadline is honoured.
	require.NoError(t, w.SetReadDeadline(time.Now().Add(30*time.Millisecond)))
	start := time.Now()
	_, err = w.Read(buf)
	assert.True(t, errors.Is(err, os.ErrDeadlineExceeded), "%v", err)
	assert.Less(t, time.Since(start), 2*time.Second)
	require.NoError(t, w.SetReadDeadline(time.Time{}))

	// The peer closing is io.EOF.
	s.Close()
	_, err = w.Read(buf)
	assert.ErrorIs(t, err, io.EOF)
}

func TestWrapKeepsPlainConns(t *testing.T) {
	c, _ := pair(t)
	assert.Same(t, c, Wrap(c, 0), "spin 0: no wrapping")
	p1, p2 := net.Pipe()
	defer p1.Close()
	defer p2.Close()
	assert.Same(t, p1, Wrap(p1, time.Millisecond), "no file descriptor: no wrapping")
}

// 0 means off for Wrapper as for the commands' --spin: no wrapper at all,
// so Dial and the listener use the plain connection.
func TestWrapperZeroMeansOff(t *testing.T) {
	assert.Nil(t, Wrapper(0))
	assert.Nil(t, Wrapper(-time.Microsecond))
	c, _ := pair(t)
	w := Wrapper(DefaultSpin)
	require.NotNil(t, w)
	sc, ok := w(c).(*Conn)
	require.True(t, ok, "a positive spin wraps a TCP connection")
	assert.Equal(t, DefaultSpin, sc.spin)
}

// BenchmarkPingPong: one tiny message each way over loopback, as the
// protocol does, with and without spinning reads on both sides.
func BenchmarkPingPong(b *testing.B) {
	for _, spin := range []time.Duration{0, DefaultSpin} {
		b.Run(spin.String(), func(b *testing.B) {
			c, s := pair(b)
			go func() {
				r := Wrap(s, spin)
				buf := make([]byte, 64)
				for {
					n, err := r.Read(buf)
					if err != nil {
						return
					}
					s.Write(buf[:n])
				}
			}()
			w := Wrap(c, spin)
			buf := make([]byte, 64)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				w.Write([]byte("REDY"))
				if _, err := w.Read(buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Many connections waiting at once: at most maxSpinners of them poll, the
// others park; every read still gets its data, and no polling slot leaks.
func TestSpinnersAreBounded(t *testing.T) {
	const n = 20
	var conns, peers []net.Conn
	for i := 0; i < n; i++ {
		c, s := pair(t)
		conns = append(conns, Wrap(c, 50*time.Millisecond))
		peers = append(peers, s)
	}
	done := make(chan error, n)
	peak := int32(0)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			default:
				if v := spinners.Load(); v > peak {
					peak = v
				}
			}
		}
	}()
	for _, c := range conns {
		go func() {
			buf := make([]byte, 8)
			_, err := c.Read(buf)
			done <- err
		}()
	}
	time.Sleep(20 * time.Millisecond)
	for _, s := range peers {
		s.Write([]byte("OK"))
	}
	for i := 0; i < n; i++ {
		require.NoError(t, <-done)
	}
	close(stop)
	<-stopped
	assert.LessOrEqual(t, peak, maxSpinners())
	assert.Equal(t, int32(0), spinners.Load(), "every polling slot is given back")
}

// A write larger than the socket buffers takes the poller path (EAGAIN)
// and still delivers every byte in order.
func TestWriteLargerThanSocketBuffer(t *testing.T) {
	c, s := pair(t)
	w := Wrap(c, DefaultSpin)
	data := make([]byte, 16<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(s, int64(len(data))))
		got <- b
	}()
	n, err := w.Write(data)
	require.NoError(t, err)
	assert.Equal(t, len(data), n)
	assert.True(t, bytes.Equal(data, <-got), "bytes arrive intact and in order")
}

// Write deadlines and a peer that has gone are errors, as from net.Conn.
func TestWriteDeadlineAndClosedPeer(t *testing.T) {
	c, s := pair(t)
	w := Wrap(c, DefaultSpin)
	require.NoError(t, w.SetWriteDeadline(time.Now().Add(50*time.Millisecond)))
	_, err := w.Write(make([]byte, 64<<20)) // nobody reads: the buffers fill
	assert.True(t, errors.Is(err, os.ErrDeadlineExceeded), "%v", err)
	require.NoError(t, w.SetWriteDeadline(time.Time{}))

	s.Close()
	time.Sleep(10 * time.Millisecond)
	var werr error
	for i := 0; i < 100 && werr == nil; i++ { // the first write may still be accepted
		_, werr = w.Write([]byte("REDY"))
	}
	var op *net.OpError
	require.ErrorAs(t, werr, &op)
	assert.Equal(t, "write", op.Op)

	w.Close()
	_, err = w.Write([]byte("REDY"))
	assert.ErrorIs(t, err, net.ErrClosed)
}

func TestSequentialProcess(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })

	runtime.GOMAXPROCS(2)
	t.Setenv("GOMAXPROCS", "2")
	SequentialProcess()
	assert.Equal(t, 2, runtime.GOMAXPROCS(0), "the user's GOMAXPROCS wins")

	os.Unsetenv("GOMAXPROCS")
	SequentialProcess()
	assert.Equal(t, 1, runtime.GOMAXPROCS(0))
}

// Concurrent writers, as net.Conn allows: every message arrives whole.
func TestConcurrentWrites(t *testing.T) {
	c, s := pair(t)
	w := Wrap(c, DefaultSpin)
	const writers, each = 8, 200
	msg := bytes.Repeat([]byte("x"), 1000)
	var wg sync.WaitGroup
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < each; j++ {
				if _, err := w.Write(msg); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	got := make(chan int)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(s, int64(writers*each*len(msg))))
		got <- len(b)
	}()
	wg.Wait()
	assert.Equal(t, writers*each*len(msg), <-got)
}
