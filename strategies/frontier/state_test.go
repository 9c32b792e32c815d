package frontier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The tests of this file hold frontier's private state (freed servers,
// kept servers and the bet's accounting, replannedAt, demand's
// placements) to what the server confirmed (Outcome of frontier's own
// actions) and what the ledger shows (another member's actions in a
// composite), never to an action merely returned.

// apply carries out acts as the client would: each is applied to the
// ledger and its outcome told to f; the actions Outcome answers with are
// carried out at once, before the rest.
func apply(t *testing.T, f *frontier, v *strattest.FakeView, acts []protocol.Action) {
	t.Helper()
	for _, a := range acts {
		reply := "OK"
		if term, ok := a.(protocol.Terminate); ok {
			m := mustMachine(t, v, term.Server)
			reply = itoa(m.Jobs()) + " jobs killed"
		}
		require.NoError(t, v.Book.Applied(a, reply), "%s", a)
		o := strategies.Outcome{Action: a, Reply: reply}
		o.Killed, _ = strategies.KilledCount(reply)
		more, err := f.Outcome(v, o)
		require.NoError(t, err)
		apply(t, f, v, more)
	}
}

// other carries out acts as another member of a composite: the ledger
// sees them, frontier is told nothing.
func other(t *testing.T, v *strattest.FakeView, acts ...protocol.Action) {
	t.Helper()
	for _, a := range acts {
		reply := "OK"
		if term, ok := a.(protocol.Terminate); ok {
			reply = itoa(mustMachine(t, v, term.Server).Jobs()) + " jobs killed"
		}
		require.NoError(t, v.Book.Applied(a, reply), "%s", a)
	}
}

func itoa(n int) string { return protocol.ServerRef{ID: n}.String()[1:] }

// Review finding 7: a server another member powers off, below the lowest
// id frontier had seen inactive, is found again (frontier kept a hint of
// its own, lowered only at its own TERMs: it sent the 2-core job to the
// 8-core server, 8× the price, with small 0 off).
func TestFindsAServerAnotherMemberPoweredOff(t *testing.T) {
	f, v := cluster(t, nil)
	offer(v, jb(0, 0, 2, 1000))
	other(t, v, protocol.Schedule{JobID: 0, Server: ref("small", 0)}) // boots small 0
	acts := decide(t, f, v, jb(1, 0, 2, 1000))
	require.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: ref("small", 1)}}, acts)
	apply(t, f, v, acts)
	other(t, v, protocol.Terminate{Server: ref("small", 0)}) // job 0 back to the global queue
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 2, Server: ref("small", 0)}}, decide(t, f, v, jb(2, 0, 2, 1000)),
		"small 0 is off again: a boot of 60 s, not big 0's 300 s or a wait behind job 1")
}

// A server another member of a composite powered on is scored (see
// index.follow): frontier noted only the servers its own actions used, so
// beside small 0, booting under another member's 1-core job with a core
// to spare, it proposed booting small 1. Table: the other member's job,
// the job offered, where it goes.
func TestSeesServersAnotherMemberPoweredOn(t *testing.T) {
	for _, tc := range []struct {
		what       string
		otherCores int
		want       protocol.ServerRef
	}{
		{"a core to spare on small 0: beside the other member's job", 1, ref("small", 0)},
		{"small 0 full: a boot of small 1", 2, ref("small", 1)},
	} {
		f, v := cluster(t, nil)
		_, err := f.Event(v, &protocol.CheckQueue{}) // a decision first: follow then reads the ledger's changes since it
		require.NoError(t, err)
		offer(v, jb(0, 0, tc.otherCores, 1000))
		other(t, v, protocol.Schedule{JobID: 0, Server: ref("small", 0)}) // boots small 0
		assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: tc.want}}, decide(t, f, v, jb(1, 0, 1, 1000)), tc.what)
	}
}

// Review finding 8's nit: jobs a TERM put in the global queue are
// dequeued at once from Outcome, except while a job is on offer (a DEQJ
// there puts the dequeued job ahead of the offered one); the next event
// dequeues them then.
func TestNoDequeueWhileAJobIsOnOffer(t *testing.T) {
	deq := []protocol.Action{protocol.Dequeue{QID: 0}}
	for _, tc := range []struct {
		what    string
		act     protocol.Action
		offered bool
		want    []protocol.Action
	}{
		{"TERM that killed a job, in an event", protocol.Terminate{Server: ref("small", 0)}, false, deq},
		{"TERM that killed a job, in a Job decision", protocol.Terminate{Server: ref("small", 0)}, true, nil},
	} {
		f, v := cluster(t, nil)
		schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
		if tc.offered {
			offer(v, jb(1, 10, 2, 100))
		}
		reply := "1 jobs killed"
		require.NoError(t, v.Book.Applied(tc.act, reply))
		o := strategies.Outcome{Action: tc.act, Reply: reply}
		o.Killed, _ = strategies.KilledCount(reply)
		got, err := f.Outcome(v, o)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, tc.what)
		if tc.offered {
			apply(t, f, v, []protocol.Action{protocol.Schedule{JobID: 1, Server: ref("small", 1)}})
			acts, err := f.Event(v, &protocol.CheckQueue{})
			require.NoError(t, err)
			assert.Equal(t, deq, acts, "%s: the next event dequeues it", tc.what)
		}
	}
}

// A job waiting on big 0 behind a long one is moved once in a decision
// (see moving: two freed servers both took it, or replan moved it again
// after settle had, and ds-server refused the second MIGJ, dropping every
// action after it).
func TestNoJobMovedTwice(t *testing.T) {
	mig := protocol.Migrate{JobID: 1, From: ref("big", 0), To: ref("small", 0)}
	for _, tc := range []struct {
		what  string
		freed []protocol.ServerRef // completions at 400
		job   bool                 // the decision at 401 is a job's, where replan runs
		want  []protocol.Action
	}{
		{"two freed servers", []protocol.ServerRef{ref("small", 0), ref("small", 1)}, false,
			[]protocol.Action{mig, protocol.Terminate{Server: ref("small", 1)}}},
		{"settle, then replan", []protocol.ServerRef{ref("small", 0)}, true,
			[]protocol.Action{mig, protocol.Schedule{JobID: 9, Server: ref("small", 1)}}},
	} {
		f, v := cluster(t, nil)
		f.perCoreSecond = 0.1 / 3600
		schedule(t, v, jb(0, 0, 8, 10000), ref("big", 0)) // runs 300..10300
		schedule(t, v, jb(1, 0, 2, 100), ref("big", 0))   // waits behind it
		for i, s := range tc.freed {
			schedule(t, v, jb(2+i, 0, 2, 300), s)
		}
		for i, s := range tc.freed {
			acts, err := f.Event(v, complete(v, 2+i, 400, s))
			require.NoError(t, err)
			require.Empty(t, acts, "%s: %s is freed, settled once the batch is over", tc.what, s)
		}
		var acts []protocol.Action
		if tc.job {
			acts = decide(t, f, v, jb(9, 401, 2, 100))
		} else {
			v.Book.Observe(&protocol.JobCompleted{Time: 401, JobID: -1, Server: ref("big", 1)}) // time passes
			var err error
			acts, err = f.Event(v, &protocol.CheckQueue{})
			require.NoError(t, err)
		}
		assert.Equal(t, tc.want, acts, tc.what)
	}
}

// Review finding 3: a server freed by a completion while the global queue
// held a job is powered off at a later decision; when that proposal is not
// taken (another member's is, in a portfolio), the next decision powers it
// off again: before, the freed entry was dropped as the TERM was returned,
// and small 0 stayed on, idle, for good.
func TestFreedServerSettledAgain(t *testing.T) {
	for _, sent := range []bool{true, false} {
		f, v := cluster(t, nil)
		f.perCoreSecond = 0.1 / 3600
		schedule(t, v, jb(0, 0, 2, 100), ref("small", 0)) // runs 60..160
		offer(v, jb(1, 100, 4, 100))
		other(t, v, protocol.Enqueue{}) // job 1 (4 cores: big 0 only) in the global queue
		acts, err := f.Event(v, complete(v, 0, 160, ref("small", 0)))
		require.NoError(t, err)
		require.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}}, acts, "small 0 freed, not off: the queue holds a job")
		apply(t, f, v, acts)
		acts = decide(t, f, v, jb(1, 160, 4, 100))
		require.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: ref("big", 0)}}, acts)
		apply(t, f, v, acts)

		acts = decide(t, f, v, jb(2, 170, 2, 100))
		require.Equal(t, protocol.Terminate{Server: ref("small", 0)}, acts[0], "the batch is over: small 0, empty, off")
		if sent {
			apply(t, f, v, acts)
		} else {
			other(t, v, protocol.Schedule{JobID: 2, Server: ref("small", 1)}) // another member's proposal is taken
		}
		v.Book.Observe(&protocol.JobCompleted{Time: 180, JobID: -1, Server: ref("big", 1)}) // time passes
		acts, err = f.Event(v, &protocol.CheckQueue{})
		require.NoError(t, err)
		if sent {
			assert.Empty(t, acts, "small 0 is off: nothing left to settle")
			assert.Empty(t, f.freed)
		} else {
			// Settled again: frontier sees small 1, booted by the other
			// member (index.follow), and job 2 waiting for its boot moves
			// to small 0, which starts it now, instead of the TERM.
			assert.Equal(t, []protocol.Action{protocol.Migrate{JobID: 2, From: ref("small", 1), To: ref("small", 0)}}, acts,
				"its TERM was not sent: small 0 settled again")
		}
	}
}

// Review finding 3, the bet: a kept server past its hold whose TERM is not
// sent (dropped after a refusal, or a proposal not taken) stays kept, and
// its idle time is charged once, when a TERM of it is done.
func TestKeptServerPoweredOffAgain(t *testing.T) {
	f, v := cluster(t, map[string]string{"weight": "100", "warm": "on"})
	f.perCoreSecond = 0.1 / 3600
	j := jb(0, 0, 2, 100)
	f.warm.offered(j)
	schedule(t, v, j, ref("small", 0)) // a boot of type small at 0
	acts, err := f.Event(v, complete(v, 0, 200, ref("small", 0)))
	require.NoError(t, err)
	require.Empty(t, acts, "kept on")

	term := []protocol.Action{protocol.Terminate{Server: ref("small", 0)}}
	v.Book.Observe(&protocol.JobCompleted{Time: 6200, JobID: -1, Server: ref("big", 0)}) // its hold, 6000 s, is over
	acts, err = f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	require.Equal(t, term, acts)
	assert.Zero(t, f.warm.net, "not sent: nothing lost yet")
	assert.Len(t, f.warm.kept.inOrder(), 1, "still kept on")
	assert.False(t, f.keep(mustMachine(t, v, ref("small", 1)), 6200), "its open bet counts against a new one")

	v.Book.Observe(&protocol.JobCompleted{Time: 6300, JobID: -1, Server: ref("big", 0)})
	acts, err = f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	require.Equal(t, term, acts, "asked again")
	apply(t, f, v, acts)
	assert.InDelta(t, -6100*0.2/3600, f.warm.net, 1e-12, "its 6100 s idle, charged once")
	assert.Empty(t, f.warm.kept.inOrder())
	assert.Empty(t, f.warm.kept.on)
}

// Review finding 3, the bet's gain and the demand forecast: a job that
// takes a kept server credits the bet, and the forecast notes where it
// went, once its SCHD is done, not when it is proposed.
func TestBetCreditedOnTheSCHDDone(t *testing.T) {
	for _, sent := range []bool{true, false} {
		f, v := keptAt200(t)
		acts := decide(t, f, v, jb(1, 300, 2, 100))
		require.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: ref("small", 0)}}, acts)
		assert.Zero(t, f.warm.net, "proposed: nothing credited")
		assert.Empty(t, f.dem.ring, "proposed: the forecast has not seen it")
		if !sent {
			other(t, v, protocol.Schedule{JobID: 1, Server: ref("small", 1)})
			assert.Zero(t, f.warm.net, "another member's placement: nothing credited")
			assert.Zero(t, f.warm.uses)
			continue
		}
		apply(t, f, v, acts)
		assert.Greater(t, f.warm.net, 0.0, "done: the boot it did not wait for")
		assert.Equal(t, 1, f.warm.uses)
		assert.Len(t, f.dem.ring, 1)
	}
}

// Review finding 3, replan: replan runs once a second, counted from a run
// that found nothing to move or from its move done; a move not done (a
// proposal not taken) is looked for again within the second.
func TestReplanAgainWhenItsMoveIsNotDone(t *testing.T) {
	mig := protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("small", 1)}
	for _, sent := range []bool{true, false} {
		f, v := cluster(t, nil)
		f.perCoreSecond = 0.1 / 3600
		schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
		schedule(t, v, jb(1, 1, 2, 100), ref("small", 0))
		v.Book.Observe(&protocol.JobCompleted{Time: 1100, JobID: -1, Server: ref("big", 0)}) // job 0 overruns
		acts := decide(t, f, v, jb(2, 1100, 2, 100))
		require.Equal(t, []protocol.Action{mig, protocol.Schedule{JobID: 2, Server: ref("big", 0)}}, acts)
		if sent {
			apply(t, f, v, acts)
		} else {
			other(t, v, protocol.Schedule{JobID: 2, Server: ref("big", 0)})
		}
		acts = decide(t, f, v, jb(3, 1100, 2, 100))
		if sent {
			assert.NotContains(t, acts, protocol.Action(mig), "moved: no second replan this second")
		} else {
			assert.Contains(t, acts, protocol.Action(mig), "its move was not taken: looked for again")
		}
	}
}

// A MIGJ ds-server refused inside a Job decision is not asked for again
// when the client asks Job again at the same second (it would be refused
// again, dropping the SCHD after it, until the client gave up on the
// run); at the next second it may be.
func TestRefusedMoveNotAskedAgain(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
	schedule(t, v, jb(1, 1, 2, 1000), ref("small", 0)) // waits behind job 0 until ~1060
	schedule(t, v, jb(2, 2, 2, 100), ref("small", 1))
	f.perCoreSecond = 0.1 / 3600
	_, err := f.Event(v, complete(v, 2, 170, ref("small", 1)))
	require.NoError(t, err)
	v.Book.Observe(&protocol.JobCompleted{Time: 171, JobID: -1, Server: ref("big", 0)}) // time passes
	mig := protocol.Action(protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("small", 1)})
	acts := decide(t, f, v, jb(3, 171, 1, 10))
	require.Contains(t, acts, mig, "the batch is over: job 1 moves to small 1")
	_, err = f.Outcome(v, strategies.Outcome{Action: mig, Err: &protocol.ServerError{Command: mig.String(), Text: "ERR: No such waiting job"}})
	require.NoError(t, err)
	again := decide(t, f, v, jb(3, 171, 1, 10)) // the client's retry: the same offer
	assert.NotContains(t, again, mig, "refused at 171: not asked again at 171")
	assert.IsType(t, protocol.Schedule{}, again[len(again)-1], "the job is still placed: %v", again)
	assert.Equal(t, []protocol.Action{mig}, f.refused.drop(172, []protocol.Action{mig}), "at 172 it may be asked again")
}
