// Package heldport gives tests a loopback TCP port that refuses connections
// until the test starts its server there, and that nothing else can take
// in the meantime: for tests of a client that retries refused connections
// (protocol.Dial, dsclient --connect-timeout).
//
// Why not listen on port 0, close, and listen on the same port later? In
// between the port is free, and the kernel may give it to any program's
// listener on port 0 (a test package running beside this one); the
// client then connects to that program, or the server cannot listen.
// Where the socket API allows it (Unix), the port stays bound to a socket
// that is not listening: connections to it are refused, binds of it fail,
// and the kernel picks it for no one; Listen then makes that same socket
// listen. Elsewhere the port is left free in between, as before.
//
// Only tests import it.
package heldport

import (
	"net"
	"strconv"

	"github.com/dssim-go/dssim-go/harness/ports"
)

// Port is a held loopback port.
type Port struct {
	port int
	held holder // the system's way of holding it
}

// Hold takes a free port on 127.0.0.1 (in DSSIM_PORTS when it is set, as
// ports.TestListen does) and holds it; Close or Listen releases it.
func Hold() (*Port, error) {
	r, err := ports.FromEnv()
	if err != nil {
		return nil, err
	}
	return hold(r)
}

// Number is the port.
func (p *Port) Number() int { return p.port }

// Addr is "127.0.0.1:port".
func (p *Port) Addr() string { return "127.0.0.1:" + strconv.Itoa(p.port) }

// Listen starts listening on the port; the Port is used up.
func (p *Port) Listen() (net.Listener, error) { return p.held.listen(p.port) }

// Close releases the port without listening on it (a no-op after Listen).
func (p *Port) Close() error { return p.held.close() }

// holder is how a system keeps the port from others until listen.
type holder interface {
	listen(port int) (net.Listener, error)
	close() error
}
