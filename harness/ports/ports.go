// Package ports picks the TCP ports dsbench's runs listen on and waits for
// a server to listen: a range (Range, from --ports or $DSSIM_PORTS, Env),
// ds-server's own range (ServerLo-ServerHi), a free port in either, and
// WaitListening, which watches the kernel's socket tables rather than
// connecting (ds-server accepts one connection only). The project's tests
// listen through TestListen, in the same range.
package ports

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// Env names the environment variable that sets the ports dsbench
// (without --ports) and the project's tests listen on: "LO-HI", e.g. on a
// shared machine where each user has a block of ports.
const Env = "DSSIM_PORTS"

// Range is an inclusive range of TCP ports; the zero value is the
// default: ds-server's range above the kernel's ephemeral ports for a
// server binary (freePort), any free port for the built-in simulator.
type Range struct{ Lo, Hi int }

// Parse reads "LO-HI" (1 ≤ LO ≤ HI ≤ 65535); what names the flag or
// variable in the error.
func Parse(what, s string) (Range, error) {
	los, his, ok := strings.Cut(s, "-")
	lo, lerr := strconv.Atoi(strings.TrimSpace(los))
	hi, herr := strconv.Atoi(strings.TrimSpace(his))
	switch {
	case !ok || lerr != nil || herr != nil:
		return Range{}, fmt.Errorf("%s %q: want LO-HI, e.g. 50000-50999", what, s)
	case lo < 1 || hi > 65535 || lo > hi:
		return Range{}, fmt.Errorf("%s %q: want 1 ≤ LO ≤ HI ≤ 65535", what, s)
	}
	return Range{Lo: lo, Hi: hi}, nil
}

// FromEnv is the range DSSIM_PORTS sets, the zero range when it is unset.
func FromEnv() (Range, error) {
	s, ok := os.LookupEnv(Env)
	if !ok || strings.TrimSpace(s) == "" {
		return Range{}, nil
	}
	return Parse(Env, s)
}

// Listen listens on 127.0.0.1 on a free port of the range (the zero range:
// one the kernel picks). This is the one port picker of dsbench's built-in
// server and of the tests (TestListen).
func (r Range) Listen() (net.Listener, error) {
	if r == (Range{}) {
		return net.Listen("tcp", "127.0.0.1:0")
	}
	n := r.Hi - r.Lo + 1
	start := rand.IntN(n)
	var last error
	for i := range min(n, 500) {
		p := r.Lo + (start+i)%n
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err == nil {
			return l, nil
		}
		last = err
	}
	return nil, fmt.Errorf("no free TCP port in %d-%d: %v", r.Lo, r.Hi, last)
}

// FreePort is a port of the range nothing listens on now, for a server
// process to bind (another process may take it first: callers retry).
func (r Range) FreePort() (int, error) {
	if r == (Range{}) {
		return freePort()
	}
	l, err := r.Listen()
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// TestListen is the tests' listener: on 127.0.0.1, in DSSIM_PORTS when it
// is set. A bad DSSIM_PORTS is an error naming it.
func TestListen() (net.Listener, error) {
	r, err := FromEnv()
	if err != nil {
		return nil, err
	}
	return r.Listen()
}
