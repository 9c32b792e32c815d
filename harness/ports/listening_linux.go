//go:build linux

package ports

import "os"

// listeningOn reports whether a socket listens on the TCP port on any
// local address, read from the kernel's tables (/proc/net/tcp and tcp6),
// so that waiting for a server never binds the port itself: a probe by
// bind holds the port for an instant, and a server binding in that
// instant fails with "address already in use". ok is false when neither
// table can be read; the caller then probes by binding.
func listeningOn(port int) (listening, ok bool) {
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		ok = true
		if procListens(data, port) {
			return true, true
		}
	}
	return false, ok
}
