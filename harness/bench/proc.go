package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// PortPlaceholder in a --client command is replaced by the run's port.
const PortPlaceholder = "{port}"

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
	stderr *capture
	done   chan struct{}
	err    error
}

func startProcess(dir string, args []string, env []string, stdout io.Writer, stderr *capture) (*process, error) {
	p := &process{cmd: exec.Command(args[0], args[1:]...), stderr: stderr, done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = stdout, stderr
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
	if tail := lastLines(p.stderr.Tail(), 3); tail != "" {
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
