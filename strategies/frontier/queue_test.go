package frontier

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// carry does what the client does with a decision's actions, with
// ds-server's replies: each accepted action goes to the ledger and then to
// Outcome, whose actions are carried at once. A DEQJ with the global queue
// empty is refused, as ds-server refuses it (ds-server.md §5.6), and
// fails the test. It returns every action carried, in order.
func carry(t *testing.T, f *frontier, v *strattest.FakeView, acts []protocol.Action) []protocol.Action {
	t.Helper()
	var done []protocol.Action
	for _, a := range acts {
		reply := "OK"
		switch a := a.(type) {
		case protocol.Dequeue:
			if a.QID >= len(v.Book.Queue()) {
				t.Fatalf("%s refused: no job in the queue ID of %d (current Q length: %d); carried so far: %v", a, a.QID, len(v.Book.Queue()), done)
			}
		case protocol.Terminate:
			m := mustMachine(t, v, a.Server)
			reply = fmt.Sprintf("%d jobs killed", m.Jobs())
		}
		require.NoError(t, v.Book.Applied(a, reply), a.String())
		done = append(done, a)
		o := strategies.Outcome{Action: a, Reply: reply}
		if _, ok := a.(protocol.Terminate); ok {
			o.Killed, _ = strategies.KilledCount(reply)
		}
		more, err := f.Outcome(v, o)
		require.NoError(t, err)
		done = append(done, carry(t, f, v, more)...)
	}
	return done
}

// The safety net at CHKQ: a job waiting on a server with nothing running
// never starts (ds-server starts waiting jobs only at a completion there),
// so the server is powered off (TERM: its jobs go to the global queue,
// waiting ones first come first served, §5.13) and TERM's outcome dequeues
// the whole queue, the job already there too. Nothing more: the Event's
// own dequeue of the queue as it stood before was a second DEQJ per job,
// the last ones refused by an empty queue; and KILJ, the earlier answer,
// left a server whose only jobs were killed and never powered off, on
// which the reference's end-of-run statistics abort (§5.12).
func TestUnstickTerminates(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 2, 10), ref("small", 0))
	schedule(t, v, jb(1, 1, 2, 10), ref("small", 0))
	complete(v, 0, 70, ref("small", 0)) // the ledger starts job 1 here
	m := mustMachine(t, v, ref("small", 0))
	m.Waiting, m.Running = m.Running, nil // as if ds-server had not started it
	offer(v, jb(2, 70, 1, 10))
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK")) // job 2 waits in the global queue

	acts, err := f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{
		protocol.Terminate{Server: ref("small", 0)},
		protocol.Dequeue{QID: 0}, protocol.Dequeue{QID: 0}, // TERM's outcome: job 2, then job 1
	}, carry(t, f, v, acts))
	assert.Empty(t, v.Book.Queue())
	assert.Equal(t, protocol.Inactive, m.State)
}

// Power-off at emptying waits while the global queue holds jobs: they are
// placed first (dequeued at once) and may want the server a completion
// emptied. The server is settled once its batch is over: left empty, with
// the queue empty, settle powers it off, before the decision places
// anything (the job then on offer does not go to it).
func TestNoPowerOffWhileQueued(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 2, 100), ref("small", 0))
	offer(v, jb(1, 100, 4, 1000)) // 4 cores: only big holds it
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))
	acts, err := f.Event(v, complete(v, 0, 160, ref("small", 0)))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, acts, "no TERM: job 1 comes back first")
	require.NoError(t, v.Book.Applied(acts[0], "OK"))

	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: ref("big", 0)}}, decide(t, f, v, jb(1, 160, 4, 1000)),
		"the same second: small 0 is still being settled")
	require.NoError(t, v.Book.Applied(protocol.Schedule{JobID: 1, Server: ref("big", 0)}, "OK"))

	acts = decide(t, f, v, jb(2, 200, 2, 100))
	require.NotEmpty(t, acts)
	assert.Equal(t, protocol.Action(protocol.Terminate{Server: ref("small", 0)}), acts[0], "settled: empty, nothing queued, off")
	assert.NotContains(t, acts, protocol.Action(protocol.Schedule{JobID: 2, Server: ref("small", 0)}))
}

// Parking before any failure has been seen is PSHJ, whatever runs: the
// ENQJ rule is for runs with failures (here the ledger knows big 0 failed,
// frontier was not told: no RESF through Event), so a run without failures
// is decided as it always was.
func TestParkWithoutFailuresPushes(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 1, 1000), ref("small", 0)) // runs: a completion is coming
	v.Book.Observe(&protocol.ServerFailed{Server: ref("big", 0), Time: 1})
	assert.Equal(t, []protocol.Action{protocol.Push{}}, decide(t, f, v, jb(1, 1, 4, 100)))
}
