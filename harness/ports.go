package harness

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// PortsEnv names the environment variable that sets the ports dsbench
// (without --ports) and the project's tests listen on: "LO-HI", e.g. on a
// shared machine where each user has a block of ports.
const PortsEnv = "DSSIM_PORTS"

// PortRange is an inclusive range of TCP ports; the zero value is the
// default: ds-server's range above the kernel's ephemeral ports for a
// server binary (freePort), any free port for the built-in simulator.
type PortRange struct{ Lo, Hi int }

// ParsePorts reads "LO-HI" (1 ≤ LO ≤ HI ≤ 65535); what names the flag or
// variable in the error.
func ParsePorts(what, s string) (PortRange, error) {
	los, his, ok := strings.Cut(s, "-")
	lo, lerr := strconv.Atoi(strings.TrimSpace(los))
	hi, herr := strconv.Atoi(strings.TrimSpace(his))
	switch {
	case !ok || lerr != nil || herr != nil:
		return PortRange{}, fmt.Errorf("%s %q: want LO-HI, e.g. 50000-50999", what, s)
	case lo < 1 || hi > 65535 || lo > hi:
		return PortRange{}, fmt.Errorf("%s %q: want 1 ≤ LO ≤ HI ≤ 65535", what, s)
	}
	return PortRange{Lo: lo, Hi: hi}, nil
}

// EnvPorts is the range DSSIM_PORTS sets, the zero range when it is unset.
func EnvPorts() (PortRange, error) {
	s, ok := os.LookupEnv(PortsEnv)
	if !ok || strings.TrimSpace(s) == "" {
		return PortRange{}, nil
	}
	return ParsePorts(PortsEnv, s)
}

// Listen listens on 127.0.0.1 on a free port of the range (the zero range:
// one the kernel picks). This is the one port picker of dsbench's built-in
// server and of the tests (TestListen).
func (r PortRange) Listen() (net.Listener, error) {
	if r == (PortRange{}) {
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
func (r PortRange) FreePort() (int, error) {
	if r == (PortRange{}) {
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
	r, err := EnvPorts()
	if err != nil {
		return nil, err
	}
	return r.Listen()
}

// listen is the built-in server's listener for one run: the fixed port of
// a client that cannot be told its port, else one of Target.Ports.
func (t Target) listen(ctx context.Context) (net.Listener, error) {
	if p := t.fixedPort(); p != 0 {
		return listenFixed(ctx, p, fixedPortWait)
	}
	return t.portRange().Listen()
}

// fixedPortWait is how long a run waits for its fixed port to be free.
// Something else can hold it for a moment: ds-server's 50000 lies inside
// Linux's ephemeral range (32768-60999), so the kernel may give it to an
// outgoing loopback connection, or to another program's listener on port
// 0, such as a test package running beside dsbench's tests. (A previous
// run's connections closing are not a cause: Go sets SO_REUSEADDR, so
// TIME-WAIT does not block a listener.) A port held for longer is still an
// error, naming the port and the way around it.
const fixedPortWait = 5 * time.Second

// listenFixed listens on 127.0.0.1:port, retrying while the port is in use
// for up to wait (or until ctx ends). Any other error is returned at once.
func listenFixed(ctx context.Context, port int, wait time.Duration) (net.Listener, error) {
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(wait)
	for {
		l, err := net.Listen("tcp", addr)
		switch {
		case err == nil || !addrInUse(err):
			return l, err
		case !time.Now().Before(deadline):
			return nil, fmt.Errorf("port %d stayed in use for %v (a client command with %s runs on any free port): %w",
				port, wait, PortPlaceholder, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// portRange is Target.Ports, or DSSIM_PORTS when Ports is zero (so that
// the tests' benches honour it too; dsbench refuses a bad value up front).
func (t Target) portRange() PortRange {
	if t.Ports != (PortRange{}) {
		return t.Ports
	}
	r, _ := EnvPorts()
	return r
}

// serverPort is a free port for a server binary: one of portRange
// narrowed to ds-server's 49152-65535, which both ds-server and dsmock
// refuse to leave (dsbench refuses a range outside it up front:
// checkServerPorts).
func (t Target) serverPort() (int, error) {
	r := t.portRange()
	if r == (PortRange{}) {
		return freePort() // its default is inside
	}
	n := PortRange{Lo: max(r.Lo, minPort), Hi: min(r.Hi, maxPort)}
	if n.Lo > n.Hi {
		return 0, fmt.Errorf("ports %d-%d: a server binary takes ports %d-%d only", r.Lo, r.Hi, minPort, maxPort)
	}
	return n.FreePort()
}

// checkServerPorts refuses, before any run, a port range that a server
// binary cannot listen in; what names where the range came from.
func (t Target) checkServerPorts(what string) error {
	if t.Server == "" || t.Server == ServerDsmock || t.Ports == (PortRange{}) {
		return nil
	}
	if t.Ports.Hi < minPort {
		return fmt.Errorf("%s %d-%d: the server %s takes ports %d-%d only, as ds-server does; give a range within it",
			what, t.Ports.Lo, t.Ports.Hi, t.Server, minPort, maxPort)
	}
	return nil
}
