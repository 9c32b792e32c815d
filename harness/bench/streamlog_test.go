package bench

import (
	"context"
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

// A streamed log's tail is whole lines from within its last tailBytes,
// the file has every byte, and writes after Close are dropped (a timed-out
// run's goroutine may still be writing).
func TestStreamedLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.server.log")
	log, err := createStreamedLog(path)
	require.NoError(t, err)
	var all strings.Builder
	for i := 0; i < 1000; i++ {
		line := strings.Repeat("x", i%50) + " line\n"
		all.WriteString(line)
		_, err := log.Write([]byte(line))
		require.NoError(t, err)
	}
	tail := log.Tail()
	assert.LessOrEqual(t, len(tail), tailBytes)
	assert.Greater(t, len(tail), tailBytes-60, "all but the cut line")
	assert.True(t, strings.HasSuffix(all.String(), tail), "the log's end")
	assert.True(t, strings.HasPrefix(all.String()[all.Len()-len(tail)-1:], "\n"), "from a line's start")
	require.NoError(t, log.Close())
	n, err := log.Write([]byte("after close\n"))
	assert.Equal(t, 12, n)
	assert.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, all.String(), string(data))
	assert.NoError(t, log.Close(), "a second Close")
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
	out := b.runInProcessLogged(ctx, cfg, func() (strategies.Strategy, error) { return slowPusher{}, nil }, r)
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
	out = b.runInProcessLogged(context.Background(), cfg, func() (strategies.Strategy, error) { return ff, nil }, r)
	r.fill(out, time.Minute)
	b.keptLogs(&r, out)
	assert.Equal(t, StatusOK, r.Status, r.Err)
	assert.Contains(t, r.Err, "keeping the logs: ")
}
