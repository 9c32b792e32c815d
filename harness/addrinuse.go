//go:build !windows

package harness

import (
	"errors"
	"syscall"
)

// addrInUse reports whether a listen failed because the address is in use.
func addrInUse(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }
