//go:build unix

package heldport

import (
	"errors"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/ports"
)

// While held, the port refuses connections and no listener can take it
// (not even one with SO_REUSEADDR, as Go's are); once Listen is called the
// same port accepts; Close gives it back.
func TestHeldRefusesThenListens(t *testing.T) {
	p, err := Hold()
	require.NoError(t, err)
	defer p.Close()
	assert.Equal(t, "127.0.0.1:"+strconv.Itoa(p.Number()), p.Addr())

	_, err = net.DialTimeout("tcp", p.Addr(), 5*time.Second)
	assert.True(t, errors.Is(err, syscall.ECONNREFUSED), "a held port refuses: %v", err)
	_, err = net.Listen("tcp", p.Addr())
	assert.True(t, errors.Is(err, syscall.EADDRINUSE), "a held port cannot be taken: %v", err)

	ln, err := p.Listen()
	require.NoError(t, err)
	defer ln.Close()
	assert.Equal(t, p.Number(), ln.Addr().(*net.TCPAddr).Port)
	accepted := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Close()
		}
		accepted <- err
	}()
	c, err := net.DialTimeout("tcp", p.Addr(), 5*time.Second)
	require.NoError(t, err)
	c.Close()
	require.NoError(t, <-accepted)
	_, err = p.Listen()
	assert.ErrorContains(t, err, "already listening or closed")

	q, err := Hold()
	require.NoError(t, err)
	require.NoError(t, q.Close())
	l2, err := net.Listen("tcp", q.Addr())
	require.NoError(t, err, "a closed hold gives the port back")
	l2.Close()
}

// DSSIM_PORTS chooses the port, as for the tests' listeners; a bad value
// is an error naming it.
func TestHoldInEnvPorts(t *testing.T) {
	free, err := Hold()
	require.NoError(t, err)
	require.NoError(t, free.Close())
	n := strconv.Itoa(free.Number())
	t.Setenv(ports.Env, n+"-"+n)
	p, err := Hold()
	require.NoError(t, err)
	assert.Equal(t, free.Number(), p.Number())
	_, err = Hold()
	assert.ErrorContains(t, err, "no free TCP port in "+n+"-"+n)
	p.Close()

	t.Setenv(ports.Env, "x")
	_, err = Hold()
	assert.ErrorContains(t, err, `DSSIM_PORTS "x"`)
}
