package frontier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// stuckBehind puts on small 0, running job 0 (2 cores), a waiting job the
// server could never hold (3 cores: the ledger can list one, since
// ds-server's SCHD checks the capability of the job at position = id,
// ds-server.md §2.7) and job 2 (2 cores) behind it: the forecast gives
// both no start (-1).
func stuckBehind(t *testing.T) (*frontier, *strattest.FakeView) {
	f, v := cluster(t, nil)
	f.perCoreSecond = 0.1 / 3600
	schedule(t, v, jb(0, 0, 2, 5000), ref("small", 0))
	v.Book.Observe(&protocol.JobCompleted{Time: 100, JobID: -1, Server: ref("big", 0)}) // time passes: small 0 runs job 0
	m := mustMachine(t, v, ref("small", 0))
	m.Waiting = append(m.Waiting, strategies.Placement{Job: jb(1, 100, 3, 100), Start: -1})
	schedule(t, v, jb(2, 100, 2, 100), ref("small", 0))
	f.fc.run(v.Book, m, nil, &f.learn)
	require.Equal(t, []int{-1, -1}, f.fc.starts)
	return f, v
}

// A waiting job the forecast says never starts where it is counts as
// waiting a day there (a start of -1 priced no wait at all): a server a
// completion frees takes it (migrateOnto), and replan moves it.
func TestNeverStartsCountsADay(t *testing.T) {
	f, v := stuckBehind(t)
	schedule(t, v, jb(3, 100, 2, 10), ref("small", 1)) // boots, runs 160..170
	complete(v, 3, 170, ref("small", 1))
	assert.Equal(t, []protocol.Action{protocol.Migrate{JobID: 2, From: ref("small", 0), To: ref("small", 1)}},
		f.migrateOnto(v.Book, mustMachine(t, v, ref("small", 1)), false, nil), "migrateOnto: job 2, the one small 1 holds")

	f, v = stuckBehind(t)
	moves, _ := f.replan(v.Book, nil, nil, nil)
	assert.Equal(t, []protocol.Action{protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("big", 0)}}, moves,
		"replan: job 1, to the only type that holds it, then no more from small 0 this decision")
}

// replan reconsiders at most replanMax waiting jobs a decision: here big 0
// runs an overrun job and eight 8-core jobs wait behind it (no other
// server holds them: no escape), then a 2-core job, which booting a small
// server would rescue; it is the ninth considered, past the cap, so it
// stays; with seven 8-core jobs it is the eighth and moves.
func TestReplanCap(t *testing.T) {
	for _, tc := range []struct {
		blocking int
		want     []protocol.Action
	}{
		{replanMax, nil},
		{replanMax - 1, []protocol.Action{protocol.Migrate{JobID: 99, From: ref("big", 0), To: ref("small", 0)}}},
	} {
		f, v := cluster(t, nil)
		f.perCoreSecond = 0.1 / 3600
		schedule(t, v, jb(0, 0, 8, 1000), ref("big", 0)) // runs 300..1300 by its estimate
		for id := 1; id <= tc.blocking; id++ {
			schedule(t, v, jb(id, 1, 8, 100), ref("big", 0))
		}
		schedule(t, v, jb(99, 2, 2, 100), ref("big", 0))
		v.Book.Observe(&protocol.JobCompleted{Time: 1400, JobID: -1, Server: ref("small", 1)}) // job 0 overruns
		moves, _ := f.replan(v.Book, nil, nil, nil)
		assert.Equal(t, tc.want, moves, "%d jobs of 8 cores ahead", tc.blocking)
	}
}

// replan runs once per second of the clock: a second decision at the
// same second (the move proposed at the first not made: say another
// member's proposal was taken) does not propose it again; the next
// second does.
func TestReplanOncePerSecond(t *testing.T) {
	f, v := cluster(t, nil)
	f.perCoreSecond = 0.1 / 3600
	schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
	schedule(t, v, jb(1, 1, 2, 100), ref("small", 0))
	schedule(t, v, jb(2, 2, 2, 100), ref("small", 0))
	v.Book.Observe(&protocol.JobCompleted{Time: 1100, JobID: -1, Server: ref("big", 0)}) // job 0 overruns
	moved := func(acts []protocol.Action, job int) bool {
		for _, a := range acts {
			if m, ok := a.(protocol.Migrate); ok && m.JobID == job {
				return true
			}
		}
		return false
	}
	offer(v, jb(3, 1100, 1, 10))
	first, _ := f.replan(v.Book, nil, nil, nil)
	require.True(t, moved(first, 1), "the first replan at 1100 moves job 1: %v", first)
	require.False(t, moved(first, 2), "one move from small 0 a decision: %v", first)
	apply(t, f, v, first) // the server does it: replan is done for this second
	second, _ := f.replan(v.Book, nil, nil, nil)
	assert.Empty(t, second, "the second at 1100 does not replan")
	offer(v, jb(4, 1101, 1, 10))
	third, _ := f.replan(v.Book, nil, nil, nil)
	assert.True(t, moved(third, 2), "at 1101 job 2 moves: %v", third)
}

// An escape starts the job at once or boots a server for it: a powered
// server where it would queue again is none, even one whose short queue
// scores better than the boot. Here small 1 frees its cores 10 s from now
// (job 5), which place would score at 100 weighted seconds against big's
// 300 s boot; the job escapes to big.
func TestEscapeIsNotAnotherQueue(t *testing.T) {
	f, v := cluster(t, nil)
	f.perCoreSecond = 0.1 / 3600
	schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
	schedule(t, v, jb(1, 1, 2, 100), ref("small", 0))
	schedule(t, v, jb(5, 2, 2, 1048), ref("small", 1))                                   // boots 2..62, runs to 1110
	v.Book.Observe(&protocol.JobCompleted{Time: 1100, JobID: -1, Server: ref("big", 0)}) // job 0 overruns
	moves, _ := f.replan(v.Book, nil, nil, nil)
	assert.Equal(t, []protocol.Action{protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("big", 0)}}, moves)
	queued, ok := f.score(v.Book, mustMachine(t, v, ref("small", 1)), jb(1, 1, 2, 100))
	require.True(t, ok)
	boot, _ := f.score(v.Book, mustMachine(t, v, ref("big", 0)), jb(1, 1, 2, 100))
	assert.Less(t, queued.score, boot.score, "small 1 would have won on score")
}
