//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package netspin

import (
	"net"
	"time"
)

// Wrap returns c itself: polling uses raw read(2)/write(2) on the socket,
// which exist as such on Linux, macOS and the BSDs; other systems (Windows,
// Solaris, AIX) keep the runtime's ordinary reads and writes.
func Wrap(c net.Conn, _ time.Duration) net.Conn { return c }
