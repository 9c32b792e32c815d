//go:build unix

package heldport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"syscall"

	"github.com/dssim-go/dssim-go/harness/ports"
)

// socket is a TCP socket bound to the port and not listening. It is bound
// without SO_REUSEADDR (which Go's listeners set): Linux lets two sockets
// with SO_REUSEADDR bind one port while neither listens, so another
// program's listener could still take the port from one that has it.
type socket struct {
	mu sync.Mutex
	fd int // -1 once listening or closed
}

func hold(r ports.Range) (*Port, error) {
	if r == (ports.Range{}) {
		return holdPort(0)
	}
	n := r.Hi - r.Lo + 1
	start := rand.IntN(n)
	var last error
	for i := range min(n, 500) {
		p, err := holdPort(r.Lo + (start+i)%n)
		if err == nil {
			return p, nil
		}
		last = err
	}
	return nil, fmt.Errorf("no free TCP port in %d-%d: %v", r.Lo, r.Hi, last)
}

// holdPort binds a new socket to 127.0.0.1:port (0: one the kernel picks).
func holdPort(port int) (*Port, error) {
	// As the net package does where sockets cannot be made close-on-exec
	// at once: no child process started meanwhile inherits it.
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("binding 127.0.0.1:%d: %w", port, os.NewSyscallError("bind", err))
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		syscall.Close(fd)
		return nil, os.NewSyscallError("getsockname", err)
	}
	return &Port{port: sa.(*syscall.SockaddrInet4).Port, held: &socket{fd: fd}}, nil
}

func (s *socket) listen(port int) (net.Listener, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fd < 0 {
		return nil, fmt.Errorf("port %d: already listening or closed", port)
	}
	fd := s.fd
	s.fd = -1
	if err := syscall.Listen(fd, syscall.SOMAXCONN); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("listening on port %d: %w", port, os.NewSyscallError("listen", err))
	}
	f := os.NewFile(uintptr(fd), "127.0.0.1:"+fmt.Sprint(port))
	defer f.Close() // FileListener has its own copy
	return net.FileListener(f)
}

func (s *socket) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fd < 0 {
		return nil
	}
	err := syscall.Close(s.fd)
	s.fd = -1
	return err
}
