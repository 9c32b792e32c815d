//go:build linux

package dsmock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// rebind is listen's second try on Linux, once a plain bind failed with
// "address already in use": when every socket on the port is a connection
// in TIME-WAIT, it binds again with SO_REUSEPORT as well. ds-server sets
// SO_REUSEPORT alone on its listener (it ORs the two option numbers, and
// on Linux SO_REUSEADDR | SO_REUSEPORT is 2 | 15 = 15), so its connections
// left in TIME-WAIT carry reuse-port and not reuse-address, and Linux
// refuses a socket that sets only SO_REUSEADDR (Go's default) for a
// minute; one that sets SO_REUSEPORT, as the user's next ds-server does,
// binds. The option is set only then, so that a live listener on the port
// (a ds-server or a dsmock still running, whose listener the kernel would
// let share the port and split its clients) is never shared: a port with
// a listener, or with connections not yet closed, keeps the first error,
// with what holds the port. After binding, a listener that came in between
// makes dsmock give the port up too.
func rebind(host string, port int, first error) (net.Listener, error) {
	if !errors.Is(first, syscall.EADDRINUSE) {
		return nil, first
	}
	o, ok := portTable(port)
	switch {
	case !ok:
		return nil, first
	case o.listening > 0:
		return nil, fmt.Errorf("%w (a program listens on it: a ds-server or a dsmock still running?)", first)
	case o.other > 0 || o.timeWait == 0:
		return nil, fmt.Errorf("%w (%d connections on it are not yet closed)", first, o.other)
	}
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
		}); err != nil {
			return err
		}
		return serr
	}}
	ln, err := lc.Listen(context.Background(), "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, first
	}
	if o, ok := portTable(port); ok && o.listening > 1 {
		ln.Close()
		return nil, fmt.Errorf("%w (another program began listening on it at the same moment)", first)
	}
	return ln, nil
}

// portTable counts what holds the port in the kernel's tables; ok is
// false when neither can be read.
func portTable(port int) (o occupants, ok bool) {
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		ok = true
		o.add(portOccupants(data, port))
	}
	return o, ok
}
