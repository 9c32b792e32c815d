package dsmock

import (
	"context"
	"fmt"
	"net"
	"strconv"
)

// defaultListen is where dsmock listens unless --listen says otherwise: the
// loopback interface. ds-server listens on every interface (ds-server.md
// §1.1); a simulator that anyone on the network could drive, and make write
// files in its folder, should be reachable from elsewhere only when asked
// (--listen 0.0.0.0 is ds-server's choice, --listen :: every interface
// with IPv6 too).
const defaultListen = "127.0.0.1"

// listen opens the listening socket on host and port. Go's listeners set
// SO_REUSEADDR on Unix, so a port whose last connection of a dsmock run is
// still in TIME-WAIT binds at once (TestRebindRightAfterARun); after a
// ds-server run, whose TIME-WAIT connections carry SO_REUSEPORT alone, a
// second try with SO_REUSEPORT binds as ds-server would, when nothing else
// holds the port (rebind, listen_linux.go; TestRebindAfterDsServer).
func listen(host string, port int) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err == nil || port == 0 {
		return ln, err
	}
	return rebind(host, port, err)
}

// checkListen refuses a --listen value that is not a bare host: the port
// is -p's, and an empty host would silently mean every interface.
func checkListen(v string) error {
	if v == "" {
		return fmt.Errorf("--listen \"\": want an address such as 127.0.0.1, 0.0.0.0 (every IPv4 interface) or ::")
	}
	if _, _, err := net.SplitHostPort(v); err == nil {
		return fmt.Errorf("--listen %q: give the address alone; the port is -p's", v)
	}
	return nil
}

// sessionLabel names a --serve session in the log (before its report) and
// in the message of a session that ended badly; ServeOne never uses it, so
// a single run's output stays ds-server's.
func sessionLabel(n int, remote net.Addr) string {
	return fmt.Sprintf("session %d (client %s)", n, remote)
}
