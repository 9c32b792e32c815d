package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// A captured output streamed to its file: the file has every byte, the
// tail is whole lines from within its last tailBytes, and writes after
// Close are dropped (a timed-out run's goroutine may still be writing).
func TestStreamedLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.server.log")
	log, err := newCapture(path, true)
	require.NoError(t, err)
	all := writeLines(t, log, 5000)
	tail := log.Tail()
	assert.LessOrEqual(t, len(tail), tailBytes)
	assert.Greater(t, len(tail), tailBytes-60, "all but the cut line")
	assert.True(t, strings.HasSuffix(all, tail), "the log's end")
	assert.True(t, strings.HasPrefix(all[len(all)-len(tail)-1:], "\n"), "from a line's start")
	require.NoError(t, log.Close())
	n, err := log.Write([]byte("after close\n"))
	assert.Equal(t, 12, n)
	assert.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, all, string(data))
	assert.Equal(t, path, log.file())
	assert.NoError(t, log.Close(), "a second Close")
}

// writeLines writes n lines of varied length to w and returns them.
func writeLines(t *testing.T, w io.Writer, n int) string {
	var all strings.Builder
	for i := 0; i < n; i++ {
		line := fmt.Sprintf("%d %s line\n", i, strings.Repeat("x", i%50))
		all.WriteString(line)
		_, err := w.Write([]byte(line))
		require.NoError(t, err)
	}
	return all.String()
}

// What dsbench reads of an output it holds only the ends of: the whole
// text while it fits; past that, its first and last whole lines around a
// line saying how many bytes are left out and where they are, so that
// ds-server's version line and its summary are read as from the whole.
func TestCaptureText(t *testing.T) {
	c, err := newCapture("", false)
	require.NoError(t, err)
	small := writeLines(t, c, 100)
	assert.Equal(t, small, c.Text(), "whole while it fits")
	assert.Equal(t, small, c.Tail())

	c.reset()
	assert.Empty(t, c.Text(), "reset")
	big := "# ds-sim server 2-Apr, 2026 @ MQ\n" + writeLines(t, io.Discard, 20000) +
		"# ==================================== [ Summary ] ====================================\n" +
		"# actual simulation end time: 1778, #jobs: 10 (failed 0 times)\n" +
		"# total #servers used: 5, avg util: 100.00% (ef. usage: 99.50%), total cost: $0.69\n" +
		"# avg waiting time: 35, avg exec time: 728, avg turnaround time: 763\n"
	for rest := big; rest != ""; { // in pieces, as a pipe delivers them
		n := min(len(rest), 4093)
		_, err := c.Write([]byte(rest[:n]))
		require.NoError(t, err)
		rest = rest[n:]
	}
	text := c.Text()
	assert.Less(t, len(text), headBytes+2*tailBytes+200, "the ends only")
	head, tail, ok := strings.Cut(text, "[dsbench: ")
	require.True(t, ok, text[:200])
	marker, tail, _ := strings.Cut(tail, "\n")
	assert.True(t, strings.HasPrefix(big, head) && strings.HasSuffix(head, "\n"), "the start, whole lines")
	assert.True(t, strings.HasSuffix(big, tail) && strings.HasPrefix(big[len(big)-len(tail)-1:], "\n"), "the end, whole lines")
	assert.Equal(t, fmt.Sprintf("%d bytes left out here; --keep-logs keeps it whole]", len(big)-len(head)-len(tail)), marker)
	sum, err := ParseSummary(text)
	require.NoError(t, err)
	want, err := ParseSummary(big)
	require.NoError(t, err)
	assert.Equal(t, want, sum)
	assert.True(t, strings.HasPrefix(text, versionLine))

	c.reset()
	long := strings.Repeat("y", 4*tailBytes) + "\n" // one line longer than the tail
	_, err = c.Write([]byte(long))
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(c.Text(), "yyy\n"), "the line's end, not the marker, last")
	c.reset()
	long = strings.Repeat("z", headBytes+tailBytes*3/2) + "\n" // held whole, its end a window of one line
	_, err = c.Write([]byte(long))
	require.NoError(t, err)
	assert.Equal(t, long[len(long)-tailBytes:], c.Tail(), "the line's end, not nothing")

	path := filepath.Join(t.TempDir(), "x.server.stderr")
	c, err = newCapture(path, false)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	assert.NoFileExists(t, path, "an empty stderr is not kept")
	assert.Empty(t, c.file())
}

// slowPusher pushes every job back after a while: a run that times out
// having logged far less than the simulator's 64 KiB log buffer.
type slowPusher struct{ strategies.IgnoreEvents }

func (slowPusher) Job(strategies.View, protocol.Job) ([]protocol.Action, error) {
	time.Sleep(40 * time.Millisecond)
	return []protocol.Action{protocol.Push{}}, nil
}

// --keep-logs on an in-process run that times out: its log is on disk up
// to its last REDY (it was once kept in memory, and a timed-out run's file
// was written empty; the simulator's own buffer is written out at the
// REDY that stops the run), and the reason quotes its last lines. A
// folder that cannot take the file is named in the reason; the run still
// has its result.
func TestKeptLogOfATimedOutRun(t *testing.T) {
	cfg, err := fixtureSources(t, "sample-config01")[0].Load()
	require.NoError(t, err)
	dir := t.TempDir()
	b := &Bench{Target: Target{KeepLogs: dir}}
	r := Result{Config: "sample-config01", Variant: "slow"}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	out := b.withLogs(r, true, func(logs runLogs) runOutput {
		return b.runInProcessLogged(ctx, cfg, func() (strategies.Strategy, error) { return slowPusher{}, nil }, logs)
	})
	r.fill(out, 300*time.Millisecond)
	b.keptLogs(&r, out)
	require.Equal(t, StatusTimeout, r.Status)
	file := keptLogBase(dir, r) + ".server.log"
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(data), "SUBMITTED", "the run's log up to the timeout")
	last := strings.TrimSpace(string(data))
	last = last[strings.LastIndexByte(last, '\n')+1:]
	assert.Contains(t, r.Err, "the server's log ended: ")
	assert.Contains(t, r.Err, "logs: "+file)
	assert.True(t, strings.HasSuffix(strings.TrimSpace(out.logTail), last), "the tail ends where the file does")

	blocked := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocked, nil, 0o644))
	b = &Bench{Target: Target{KeepLogs: blocked}} // a file, not a folder
	r = Result{Config: "sample-config01", Variant: "ff"}
	ff, err := strategies.New("ff", nil)
	require.NoError(t, err)
	out = b.withLogs(r, true, func(logs runLogs) runOutput {
		return b.runInProcessLogged(context.Background(), cfg, func() (strategies.Strategy, error) { return ff, nil }, logs)
	})
	r.fill(out, time.Minute)
	b.keptLogs(&r, out)
	assert.Equal(t, StatusOK, r.Status, r.Err)
	assert.Contains(t, r.Err, "keeping the logs: ")
}

// An external client's stderr flood is held by its ends only: the text
// dsbench keeps of 20,000 lines is the first and last lines around the
// marker, not the 300 KB the client wrote (every output was once held
// whole, for as long as the run lasted).
func TestFloodedStderrIsHeldByItsEnds(t *testing.T) {
	cfg, err := fixtureSources(t, "sample-config01")[0].Load()
	require.NoError(t, err)
	b := &Bench{Target: Target{Client: script(t, `for i in $(seq 1 20000); do echo "stderr line $i of the client's chatter" >&2; done; exit 3
`), ClientDir: t.TempDir()}}
	stderr, err := newCapture("", false)
	require.NoError(t, err)
	text, err := b.runExternal(context.Background(), cfg, 1, stderr)
	require.ErrorContains(t, err, "exit status 3")
	assert.Less(t, len(text), headBytes+2*tailBytes+200)
	assert.Contains(t, text, "[dsbench: ")
	assert.True(t, strings.HasPrefix(text, "stderr line 1 of"))
	assert.True(t, strings.HasSuffix(text, "stderr line 20000 of the client's chatter\n"))
}
