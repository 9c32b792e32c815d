package ports

import (
	"errors"
	"syscall"
)

// wsaeaddrinuse is Winsock's "address already in use" (WSAEADDRINUSE),
// which Go's net package returns as is: syscall.EADDRINUSE, an errno Go
// invents on Windows, does not match it.
const wsaeaddrinuse = syscall.Errno(10048)

// AddrInUse reports whether a listen failed because the address is in use.
func AddrInUse(err error) bool {
	return errors.Is(err, wsaeaddrinuse) || errors.Is(err, syscall.EADDRINUSE)
}
