package bench

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// How a run's reason is told: what the server said, the client's exit
// after a complete session, the last lines of a hung run's log.

// clientExit is an external client that ran and exited unsuccessfully on
// its own (not killed at the timeout).
type clientExit struct {
	detail string // exitDetail: the status and the tail of stderr
	err    error  // exec's error: *exec.ExitError for an exit status
}

func (e *clientExit) Error() string { return e.detail }

// status is "exited N" or, for a client killed by a signal, exec's words.
func (e *clientExit) status() string {
	var xe *exec.ExitError
	if errors.As(e.err, &xe) && xe.ExitCode() >= 0 {
		return fmt.Sprintf("exited %d", xe.ExitCode())
	}
	return "ended (" + e.err.Error() + ")"
}

// clientAfterQuit keeps a run whose client exited unsuccessfully after a
// complete session (QUIT received, the report printed): the course
// harnesses read only the server's summary (harness.md §1 step 5), so
// such a run is marked; its reason becomes a note.
func (out *runOutput) clientAfterQuit() {
	var ce *clientExit
	if !errors.As(out.err, &ce) {
		return
	}
	out.err = nil
	out.note = "client " + ce.status() + " after QUIT"
	if tail := lastLines(out.clientStderr, 1); tail != "" {
		out.note += "; " + clientStderrLabel + tail
	}
}

// binaryEnd is what a server binary said of its session's end, from its
// stderr: the last of the lines that end a session (mocksrv.EndsSession;
// a Refusal only when no line of the server follows it),
// else its last line. Neither warnings nor the count of unscheduled jobs,
// which the reason gives apart, say why a session ended; nor does the
// first line, often a refused command long before.
func binaryEnd(stderr string) string {
	var end, last string
	for _, line := range mocksrv.SplitStderr(stderr) {
		switch {
		case mocksrv.EndsSession(line):
			end = line
		case strings.TrimSpace(line) == "", strings.HasPrefix(line, "dsmock: warning:"), Unscheduled(line) > 0:
		default:
			last = strings.TrimRight(line, "\r")
			if mocksrv.Refusal(end) && !strings.HasPrefix(line, "dsmock: ") {
				end = "" // a refusal after AUTH, the session going on; dsmock's lines are its hint
			}
		}
	}
	if end != "" {
		return end
	}
	return last
}

// serverEnd sets what the server said (its newlines written \n) and the
// hint for it.
func (out *runOutput) serverEnd(said, hint string) {
	out.serverSaid = strings.ReplaceAll(said, "\n", `\n`)
	out.serverHint = hint
}

// errorReason is the reason of a run that failed: what the server said
// as the session ended (it often explains the client's failure, which
// follows), unless the error already says it, and the hint for it.
func (out runOutput) errorReason() string {
	reason := oneLine(out.err.Error())
	if out.serverSaid == "" {
		return reason
	}
	said := out.serverSaid
	if out.serverHint != "" {
		said += "; " + out.serverHint
	}
	if strings.Contains(reason, out.serverSaid) {
		return strings.Replace(reason, out.serverSaid, said, 1)
	}
	return "server: " + said + "; " + reason
}

// logTailLines is how many lines of a hung run's log its reason quotes.
const logTailLines = 5

// timeoutReason says a run hung, with the last lines of the server's log:
// the dialogue's last messages show where.
func (out runOutput) timeoutReason(timeout time.Duration) string {
	reason := fmt.Sprintf("no result within %v", timeout)
	text := out.stdout
	if out.logStreamed {
		text = out.logTail
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return reason
	}
	return reason + "; the server's log ended: " + strings.Join(lines[max(0, len(lines)-logTailLines):], " | ")
}

// status is the run's status and reason.
func (out runOutput) status(sumErr error, unscheduled int, timeout time.Duration) (Status, string) {
	switch {
	case errors.Is(out.err, context.DeadlineExceeded):
		return StatusTimeout, out.timeoutReason(timeout)
	case errors.Is(out.err, context.Canceled):
		return StatusError, "interrupted"
	case out.err != nil:
		reason := out.errorReason()
		if unscheduled > 0 {
			reason += fmt.Sprintf(" (%d jobs not scheduled)", unscheduled)
		}
		return StatusError, reason
	case sumErr != nil:
		return StatusNoResult, sumErr.Error()
	case unscheduled > 0:
		return StatusUnscheduled, out.note
	}
	return StatusOK, out.note
}
