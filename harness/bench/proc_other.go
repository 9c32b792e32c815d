//go:build !unix

package bench

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no Unix process groups (Windows).
func ownGroup(*exec.Cmd) {}

// killGroup kills p alone: without process groups a client command's own
// children may outlive a timeout there.
func killGroup(p *os.Process) { _ = p.Kill() }
