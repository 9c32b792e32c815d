package frontier

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// clusterOf is cluster with the given types.
func clusterOf(t *testing.T, settings map[string]string, types ...servertypes.Type) (*frontier, *strattest.FakeView) {
	t.Helper()
	sys := strattest.System(types...)
	s, err := strategies.New("frontier", settings)
	require.NoError(t, err)
	current = s.(*frontier)
	return current, &strattest.FakeView{Sys: sys, Book: strategies.NewLedger(sys)}
}

// A job no server type can hold (job files are not checked against the
// servers, ds-server.md §2.7) ends the run at its first offer, with an
// error naming the job, what it needs and the largest type; pushed back
// (PSHJ), it went round until ds-server gave up at 1.5 × the end time.
func TestJobNoTypeCanHold(t *testing.T) {
	for _, tc := range []struct {
		what string
		job  protocol.Job
		msg  string
	}{
		{"too many cores", protocol.Job{ID: 3, Cores: 64, Memory: 100, Disk: 100, EstRunTime: 10},
			"frontier: no server can take the job: job 3 (cores 64, memory 100, disk 100) fits no server type (the largest, big, has cores 8, memory 32000, disk 64000)"},
		{"too much memory, on the type with the most cores too", protocol.Job{ID: 4, Cores: 1, Memory: 40000, Disk: 100, EstRunTime: 10},
			"frontier: no server can take the job: job 4 (cores 1, memory 40000, disk 100) fits no server type (the largest, big, has cores 8, memory 32000, disk 64000)"},
	} {
		f, v := cluster(t, nil)
		offer(v, tc.job)
		_, err := f.Job(v, tc.job)
		assert.ErrorIs(t, err, strategies.ErrNoServer, tc.what)
		assert.EqualError(t, err, tc.msg, tc.what)
	}
}

// With no rate above 0 (GETS All gives none; ds-system.xml prints a rate
// below 0.005 as 0.00) delay keeps a price, a unit per core-hour: every
// server costs the same, so delay decides, and three long jobs start on
// three servers instead of queueing behind the first (a price of 0 tied
// every score and the tie went to the powered server). Migration is on:
// the unit is set, and a server freed takes a job that waits. No server is
// kept on: its idle time has no price to bet with.
func TestUnpricedRates(t *testing.T) {
	f, v := clusterOf(t, map[string]string{"warm": "on"},
		servertypes.Type{Name: "small", Limit: 2, BootupTime: 60, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 300, Cores: 8, Memory: 32000, Disk: 64000},
	)
	var got []protocol.Action
	for id := range 3 {
		j := jb(id, id, 2, 10000)
		acts := decide(t, f, v, j)
		require.Len(t, acts, 1)
		require.NoError(t, v.Book.Applied(acts[0], "OK"))
		_, err := f.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "OK"})
		require.NoError(t, err)
		got = append(got, acts...)
	}
	assert.Equal(t, []protocol.Action{
		protocol.Schedule{JobID: 0, Server: ref("small", 0)},
		protocol.Schedule{JobID: 1, Server: ref("small", 1)},
		protocol.Schedule{JobID: 2, Server: ref("big", 0)},
	}, got)
	assert.InDelta(t, servertypes.UnpricedPerCore/3600, f.perCoreSecond, 1e-15)
	assert.Zero(t, f.hold(mustMachine(t, v, ref("small", 0))), "no bet on a server whose idle time has no price")
}

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
