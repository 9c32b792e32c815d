package ports

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"
)

// WaitListening polls until something listens on the port, the process
// exits, or ctx ends (harness.md decision 3: poll instead of sleeping 4 s).
// It must not connect: ds-server accepts exactly one connection, so a probe
// would take the client's place. Where the kernel's socket tables can be
// read (Linux) it looks there; elsewhere it tries to bind the port itself,
// "address in use" meaning the server is listening. A bind probe holds the
// port for an instant, and a server binding in that instant fails with
// "address already in use" (a run then retried on another port), which is
// why it is the fallback only.
func WaitListening(ctx context.Context, port int, exited <-chan struct{}) error {
	for {
		up, err := listenerSeen(port)
		if err != nil || up {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("nothing listens on port %d: %w", port, ctx.Err())
		case <-exited:
			return fmt.Errorf("the server exited before listening on port %d", port)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// listenerSeen: the kernel's tables when readable, else a bind probe.
func listenerSeen(port int) (bool, error) {
	if up, ok := listeningOn(port); ok {
		return up, nil
	}
	return bindProbe(port)
}

// bindProbe reports whether binding 127.0.0.1:port fails with "address in
// use". A variable so that a test can tell that it is not used where the
// kernel's tables are read.
var bindProbe = func(port int) (bool, error) {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		if AddrInUse(err) {
			return true, nil
		}
		return false, fmt.Errorf("checking port %d: %w", port, err)
	}
	l.Close()
	return false, nil
}
