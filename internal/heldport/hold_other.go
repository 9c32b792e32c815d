//go:build !unix

package heldport

import (
	"net"
	"strconv"

	"github.com/dssim-go/dssim-go/harness/ports"
)

// free is a port left free until listen: the race the package's comment
// describes remains on these systems.
type free struct{}

func hold(r ports.Range) (*Port, error) {
	l, err := r.Listen()
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return nil, err
	}
	return &Port{port: port, held: free{}}, nil
}

func (free) listen(port int) (net.Listener, error) {
	return net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
}

func (free) close() error { return nil }
