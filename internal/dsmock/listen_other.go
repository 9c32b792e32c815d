//go:build !linux

package dsmock

import "net"

// rebind has no second try here: the TIME-WAIT that ds-server's socket
// options leave in the way is Linux's (listen_linux.go), and elsewhere no
// table tells a live listener from connections closing.
func rebind(_ string, _ int, first error) (net.Listener, error) { return nil, first }
