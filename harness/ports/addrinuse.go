//go:build !windows

package ports

import (
	"errors"
	"syscall"
)

// AddrInUse reports whether a listen failed because the address is in use.
func AddrInUse(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }
