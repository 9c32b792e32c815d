package ports

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// ds-server accepts ports in this range only (ds-server.md §8).
const (
	ServerLo = 49152
	ServerHi = 65535
)

// freePort finds a port in ds-server's range that nothing listens on now.
// It prefers ports above the system's ephemeral range (Linux: 32768-60999),
// which outgoing connections never take, so that a client's own socket can
// neither hold the port nor be mistaken for the server by WaitListening.
// Another process may still take the port before the server binds; callers
// retry a run whose server could not bind.
func freePort() (int, error) {
	lo := ServerLo
	if hi, ok := ephemeralHigh(); ok && hi+1 < ServerHi {
		lo = max(lo, hi+1)
	}
	for range 200 {
		p := lo + rand.IntN(ServerHi-lo+1)
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		l.Close()
		return p, nil
	}
	return 0, fmt.Errorf("no free TCP port in %d-%d", lo, ServerHi)
}

// ephemeralHigh is the top of the kernel's ephemeral port range, where it
// can be read (Linux).
func ephemeralHigh() (int, bool) {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) != 2 {
		return 0, false
	}
	hi, err := strconv.Atoi(f[1])
	return hi, err == nil
}
