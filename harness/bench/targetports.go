package bench

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/dssim-go/dssim-go/harness/ports"
)

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
		case err == nil || !ports.AddrInUse(err):
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
func (t Target) portRange() ports.Range {
	if t.Ports != (ports.Range{}) {
		return t.Ports
	}
	r, _ := ports.FromEnv()
	return r
}

// serverPort is a free port for a server binary: one of portRange
// narrowed to ds-server's 49152-65535, which both ds-server and dsmock
// refuse to leave (dsbench refuses a range outside it up front:
// CheckServerPorts).
func (t Target) serverPort() (int, error) {
	r := t.portRange()
	if r == (ports.Range{}) {
		return r.FreePort() // the zero range: its default is inside
	}
	n := ports.Range{Lo: max(r.Lo, ports.ServerLo), Hi: min(r.Hi, ports.ServerHi)}
	if n.Lo > n.Hi {
		return 0, fmt.Errorf("ports %d-%d: a server binary takes ports %d-%d only", r.Lo, r.Hi, ports.ServerLo, ports.ServerHi)
	}
	return n.FreePort()
}

// CheckServerPorts refuses, before any run, a port range that a server
// binary cannot listen in; what names where the range came from.
func (t Target) CheckServerPorts(what string) error {
	if t.Server == "" || t.Server == ServerDsmock || t.Ports == (ports.Range{}) {
		return nil
	}
	if t.Ports.Hi < ports.ServerLo {
		return fmt.Errorf("%s %d-%d: the server %s takes ports %d-%d only, as ds-server does; give a range within it",
			what, t.Ports.Lo, t.Ports.Hi, t.Server, ports.ServerLo, ports.ServerHi)
	}
	return nil
}
