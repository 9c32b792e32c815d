//go:build !unix

package netspin

import (
	"net"
	"time"
)

// Wrap returns c itself: polling needs a Unix file descriptor, and other
// systems (Windows) keep the runtime's ordinary blocking reads.
func Wrap(c net.Conn, _ time.Duration) net.Conn { return c }
