package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// PortPlaceholder in a --client command is replaced by the run's port.
const PortPlaceholder = "{port}"

// ds-server accepts ports in this range only (ds-server.md §8).
const (
	minPort = 49152
	maxPort = 65535
)

// freePort finds a port in ds-server's range that nothing listens on now.
// It prefers ports above the system's ephemeral range (Linux: 32768-60999),
// which outgoing connections never take, so that a client's own socket can
// neither hold the port nor be mistaken for the server by waitListening.
// Another process may still take the port before the server binds; callers
// retry a run whose server could not bind.
func freePort() (int, error) {
	lo := minPort
	if hi, ok := ephemeralHigh(); ok && hi+1 < maxPort {
		lo = max(lo, hi+1)
	}
	for range 200 {
		p := lo + rand.IntN(maxPort-lo+1)
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		l.Close()
		return p, nil
	}
	return 0, fmt.Errorf("no free TCP port in %d-%d", lo, maxPort)
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

// waitListening polls until something listens on the port, the process
// exits, or ctx ends (harness.md decision 3: poll instead of sleeping 4 s).
// It must not connect: ds-server accepts exactly one connection, so a probe
// would take the client's place. Where the kernel's socket tables can be
// read (Linux) it looks there; elsewhere it tries to bind the port itself,
// "address in use" meaning the server is listening. A bind probe holds the
// port for an instant, and a server binding in that instant fails with
// "address already in use" (a run then retried on another port), which is
// why it is the fallback only.
func waitListening(ctx context.Context, port int, exited <-chan struct{}) error {
	for {
		up, err := listenerSeen(port)
		if err != nil || up {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("nothing listens on port %d: %w", port, ctx.Err())
		case <-exited:
			return fmt.Errorf("the server exited before listening on port %d", port)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// listenerSeen: the kernel's tables when readable, else a bind probe.
func listenerSeen(port int) (bool, error) {
	if up, ok := listeningOn(port); ok {
		return up, nil
	}
	return bindProbe(port)
}

// bindProbe reports whether binding 127.0.0.1:port fails with "address in
// use". A variable so that a test can tell that it is not used where the
// kernel's tables are read.
var bindProbe = func(port int) (bool, error) {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		if addrInUse(err) {
			return true, nil
		}
		return false, fmt.Errorf("checking port %d: %w", port, err)
	}
	l.Close()
	return false, nil
}

// serverGrace is how long a server may take to finish after its client
// exited successfully (it prints the report after QUIT).
const serverGrace = 10 * time.Second

// SplitCommand splits a client command on white space, with no shell, as
// the course harnesses do (harness.md §1 step 3), and substitutes the port
// placeholder.
func SplitCommand(cmd string, port int) ([]string, error) {
	args := strings.Fields(strings.ReplaceAll(cmd, PortPlaceholder, strconv.Itoa(port)))
	if len(args) == 0 {
		return nil, errors.New("empty client command")
	}
	return args, nil
}

// process is a child process with captured output, killed with its whole
// process group on timeout so that a client's own children die too.
type process struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr bytes.Buffer
	done   chan struct{}
	err    error
}

func startProcess(dir string, args []string, env []string) (*process, error) {
	p := &process{cmd: exec.Command(args[0], args[1:]...), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	ownGroup(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", args[0], err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// kill stops the process group and waits for the process.
func (p *process) kill() {
	if p.cmd.Process != nil {
		killGroup(p.cmd.Process)
	}
	<-p.done
}

// wait waits for the process until ctx ends; on ctx's end it kills it and
// returns ctx's error.
func (p *process) wait(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		p.kill()
		return ctx.Err()
	}
}

// exitDetail describes how a process ended, with the tail of its stderr.
func (p *process) exitDetail(name string) string {
	msg := name
	if p.err != nil {
		msg += ": " + p.err.Error()
	}
	if tail := lastLines(p.stderr.String(), 3); tail != "" {
		msg += ": " + tail
	}
	return msg
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
