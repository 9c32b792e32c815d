package frontier

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The prior the rehome tests learn: half the completions at 128 s, half at
// 8192 s, est/act balanced over its quarters (64 completions, minFit).
// They are fed to the posterior directly (same package) and the tables
// refreshed with no job running, so the tables are exactly that prior:
// the completions a test then drives through Event add to the counts but
// do not refresh the tables (2 < 16, see refreshEvery).
func readyPrior(p *posterior) {
	addBalanced(p.add, 128, 8)
	addBalanced(p.add, 8192, 8)
	p.refresh(0, nil)
}

// An SWF-like stream (est ≥ act always): the model does not fit and the
// posterior stays not ready.
func swfPrior(p *posterior) {
	addQuarter(p.add, 128, 2, 32)
	addQuarter(p.add, 8192, 3, 32)
	p.refresh(0, nil)
}

// scene is one run of the situation rehome is for, at weight 3: big (8
// cores, 1.6 $/h) runs job 2 (2 cores, estimate est) from its boot end at
// 300, alone once job 1 has completed there at 400 (when bigDone; else
// job 2 is its first job) unless crowd adds job 5 (2 cores, estimate
// 8192 s) beside it; small 0 (2 cores, 0.2 $/h) runs job 3 from 60 until
// it completes at 300 + ran, when job 2 has run ran seconds.
type scene struct {
	ran, est       int
	bigDone, crowd bool
	prior          func(*posterior)
}

// run drives the scene and returns the actions of job 3's completion.
func (sc scene) run(t *testing.T) (*frontier, *strattest.FakeView, []protocol.Action) {
	t.Helper()
	require.Greater(t, sc.ran, 100, "job 1 completes at 400, before job 3")
	f, v := cluster(t, map[string]string{"weight": "3"})
	f.perCoreSecond = 0.1 / 3600 // small's rate per core, as place sets it at the first offer
	sc.prior(&f.learn.post)
	if sc.bigDone {
		schedule(t, v, jb(1, 0, 2, 100), ref("big", 0))
	}
	schedule(t, v, jb(2, 0, 2, sc.est), ref("big", 0))
	if sc.crowd {
		schedule(t, v, jb(5, 0, 2, 8192), ref("big", 0))
	}
	schedule(t, v, jb(3, 0, 2, 100), ref("small", 0))
	if sc.bigDone {
		_, err := f.Event(v, complete(v, 1, 400, ref("big", 0)))
		require.NoError(t, err)
	}
	acts, err := f.Event(v, complete(v, 3, 300+sc.ran, ref("small", 0)))
	require.NoError(t, err)
	return f, v, acts
}

// rehomeLimit is how long job 2 may have run for the move to pay, derived
// for rehomeCase's prior: its estimate puts act ≥ 4096.5 s, and every
// runtime of the prior from there is 8192 s, so act = 8192 for certain
// and mean(lo) = 8192 for any lo up to it. Moving saves big's remaining
// (8192 − ran) s at 1.6 $/h, costs small 0 the whole rerun, 8192 s, at
// 0.2 $/h (its idle gap since its completion is billed either way: TERM
// bills it too), and delays job 2 by the ran seconds it loses, priced at
// weight 3 × 0.1 $/h per core × 2 cores (the mean cores of what
// completed: all 2-core jobs). It pays while
// (8192 − ran)·1.6 − 8192·0.2 > 0.6·ran, i.e. ran < 8192·1.4 / 2.2.
const rehomeLimit = 8192 * 1.4 / 2.2

// A job running alone on a dearer server that has completed a job moves
// to a cheaper server a completion empties (MIGJ), at that completion,
// and the source, left empty, is powered off (TERM). The last row
// is a job whose estimate (100 s) says it is short but which has run
// 1000 s: by the prior it is one of the 8192 s jobs, the same case as the
// first row (with the estimate alone, act ≥ 50.5, its expected runtime
// would be 253 s, already run: nothing to save).
func TestRehomeMovesAndPowersOff(t *testing.T) {
	for _, sc := range []scene{
		{ran: 1000, est: 8192},
		{ran: 5200, est: 8192},
		{ran: 1000, est: 100},
	} {
		sc.bigDone, sc.prior = true, readyPrior
		require.Less(t, float64(sc.ran), rehomeLimit, "the move pays")
		f, v, acts := sc.run(t)
		mig := protocol.Migrate{JobID: 2, From: ref("big", 0), To: ref("small", 0)}
		require.Equal(t, []protocol.Action{mig}, acts, "ran %d, est %d: the move, at small 0's completion", sc.ran, sc.est)

		require.NoError(t, v.Book.Applied(mig, "OK"))
		acts, err := f.Outcome(v, strategies.Outcome{Action: mig, Reply: "OK"})
		assert.False(t, slices.ContainsFunc(f.freed, func(x freed) bool { return x.ref == ref("small", 0) }),
			"ran %d, est %d: small 0, asked for and given the move, is settled", sc.ran, sc.est)
		require.NoError(t, err)
		assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("big", 0)}}, acts,
			"ran %d, est %d: big is left idle and empty: off", sc.ran, sc.est)
	}
}

// No move: a source that has never completed a job (ds-server would not
// bill it at all, §6.2), a job that has run so long that the restart's
// delay outweighs the saving, a job not alone on its server (moving it
// stops no billing), or a posterior that is not ready. Small 0, emptied
// with nothing to take, is powered off at once.
func TestRehomeDoesNotMove(t *testing.T) {
	limit := rehomeLimit
	require.Less(t, 5200.0, limit)
	require.Greater(t, 5230.0, limit, "the derivation puts the limit at %.2f s", limit)
	nothing := func(*posterior) {}
	for _, tc := range []struct {
		what string
		sc   scene
	}{
		{"big has never completed a job: its only job leaving would erase its bill (§6.2)",
			scene{ran: 1000, est: 8192, prior: readyPrior}},
		{"job 2 has run 5230 s, past the limit: rerunning it costs more delay than it saves",
			scene{ran: 5230, est: 8192, bigDone: true, prior: readyPrior}},
		{"job 5 runs beside job 2: big stays on either way",
			scene{ran: 1000, est: 8192, bigDone: true, crowd: true, prior: readyPrior}},
		{"est/act does not fit the model: no posterior",
			scene{ran: 1000, est: 8192, bigDone: true, prior: swfPrior}},
		{"nothing learned: no posterior",
			scene{ran: 1000, est: 8192, bigDone: true, prior: nothing}},
	} {
		f, v, acts := tc.sc.run(t)
		assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("small", 0)}}, acts, tc.what)
		apply(t, f, v, acts)
		assert.Empty(t, f.freed, "%s: nothing left to settle once the TERM is done", tc.what)
	}
}

// Jobs are rehomed only from a dearer server. Here big, freed by a
// completion while it runs job 1 (estimate 8192 s: billed to 8492 by the
// posterior), could take job 4, running alone on small 1 (which has
// completed a job) for 101 s, and by the prices alone the move would be
// made: small 1's remaining 8091 s at 0.2 $/h (1618.2 $·s/h) against the
// 701 s job 4 may run past big's billing at 1.6 $/h (1121.6) leaves 496.6,
// more than the restart's 101 s of delay (0.6·101 = 60.6). The rule keeps
// rehoming to the case it is for (undoing a placement on a dearer server).
func TestRehomeOnlyFromADearerServer(t *testing.T) {
	f, v := cluster(t, map[string]string{"weight": "3"})
	f.perCoreSecond = 0.1 / 3600
	readyPrior(&f.learn.post)
	schedule(t, v, jb(1, 0, 2, 8192), ref("big", 0))           // runs from 300
	schedule(t, v, jb(2, 0, 2, 100), ref("big", 0))            // runs from 300
	schedule(t, v, jb(3, 0, 2, 100), ref("small", 1))          // runs from 60
	schedule(t, v, jb(4, 0, 2, 8192), ref("small", 1))         // waits behind job 3
	_, err := f.Event(v, complete(v, 3, 900, ref("small", 1))) // job 4 starts at 900
	require.NoError(t, err)
	_, err = f.Event(v, complete(v, 2, 1000, ref("big", 0)))
	require.NoError(t, err)
	require.True(t, f.done[ref("small", 1)])

	v.Time = 1001
	v.Book.Observe(&protocol.JobCompleted{Time: 1001, JobID: -1, Server: ref("small", 0)}) // time passes: the batch is over
	big := mustMachine(t, v, ref("big", 0))
	require.Equal(t, 8492, f.fc.run(v.Book, big, nil, &f.learn).billed, "job 1's act is 8192 for certain")
	acts, err := f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Empty(t, acts, "small 1 is cheaper than big: job 4 stays")
}

// twoSmall is the scene of TestRehomeMovesAndPowersOff's first row (job 2,
// estimate 8192 s, alone on big since job 1 completed there at 400) with
// both small servers busy: job 3 (estimate 100 s) on small 0 and job 6
// (estimate est6) on small 1, the prior ready.
func twoSmall(t *testing.T, est6 int) (*frontier, *strattest.FakeView) {
	t.Helper()
	f, v := cluster(t, map[string]string{"weight": "3"})
	f.perCoreSecond = 0.1 / 3600
	readyPrior(&f.learn.post)
	schedule(t, v, jb(1, 0, 2, 100), ref("big", 0))
	schedule(t, v, jb(2, 0, 2, 8192), ref("big", 0))
	schedule(t, v, jb(3, 0, 2, 100), ref("small", 0))
	schedule(t, v, jb(6, 0, 2, est6), ref("small", 1))
	_, err := f.Event(v, complete(v, 1, 400, ref("big", 0)))
	require.NoError(t, err)
	return f, v
}

// A job moves once: two servers settled at one decision could each take
// job 2, and the ledger shows neither move until it is made; the second
// would be refused ("no such job"), dropping the actions after it. The
// first freed server takes it; the second, left empty, is powered off.
// (Both were freed at a completion that left them to be settled: here
// by the test, as a completion does while the global queue holds jobs.)
func TestRehomeMovesAJobOnce(t *testing.T) {
	const ran = 1000
	f, v := twoSmall(t, 100)
	for _, s := range []struct{ id, server int }{{3, 0}, {6, 1}} {
		complete(v, s.id, 300+ran, ref("small", s.server))
		f.free(ref("small", s.server), v.Time)
	}

	v.Time = 300 + ran + 1
	v.Book.Observe(&protocol.JobCompleted{Time: v.Time, JobID: -1, Server: ref("big", 9)}) // time passes
	acts, err := f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{
		protocol.Migrate{JobID: 2, From: ref("big", 0), To: ref("small", 0)},
		protocol.Terminate{Server: ref("small", 1)},
	}, acts)
}

// A rehome at a completion is made in the middle of its batch: a job the
// ledger lists as running may be completing in the same batch, and
// ds-server refuses MIGJ of a job completing now (§5.11). The refused job
// is left out for the rest of the second, and the server it was to move
// to is decided again at once: nothing else to move there, so it is
// powered off, free at the second of its completion (left to settle, it
// stayed on, billed, until a decision that is not a JCPL). Small 1,
// emptied later in the same batch, is not offered job 2 again either.
func TestRehomeRefusedInTheBatch(t *testing.T) {
	const ran = 1000
	f, v := twoSmall(t, 100)
	acts, err := f.Event(v, complete(v, 3, 300+ran, ref("small", 0)))
	require.NoError(t, err)
	mig := protocol.Migrate{JobID: 2, From: ref("big", 0), To: ref("small", 0)}
	require.Equal(t, []protocol.Action{mig}, acts)

	// Job 2 completes at this very second: ds-server refuses the move.
	acts, err = f.Outcome(v, strategies.Outcome{Action: mig, Err: &protocol.ServerError{Command: mig.String(), Text: "ERR: Job 2 cannot be migrated as it is completing at 1300 (NOW) (MIGJ 2 big 0 small 0)!"}})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("small", 0)}}, acts, "small 0, empty with nothing else to take: off at once")
	apply(t, f, v, acts)

	acts, err = f.Event(v, complete(v, 6, 300+ran, ref("small", 1)))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("small", 1)}}, acts, "small 1: job 2's move was refused this second")
	apply(t, f, v, acts)

	acts, err = f.Event(v, complete(v, 2, 300+ran, ref("big", 0)))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("big", 0)}}, acts, "big, emptied: off")
	apply(t, f, v, acts)
	assert.Empty(t, f.freed, "nothing left to settle")
}

// withMedium is a cluster of one medium server (4 cores, 0.4 $/h) and two
// big ones, each running alone a job of estimate 8192 s (act 8192 s by
// readyPrior) since a completion at 400: job 2 on big 0, job 12 on big 1;
// medium 0 runs job 3 until its completion at 1300 frees it for both.
func withMedium(t *testing.T) (*frontier, *strattest.FakeView) {
	t.Helper()
	f, v := clusterOf(t, map[string]string{"weight": "3"},
		servertypes.Type{Name: "medium", Limit: 1, BootupTime: 60, HourlyRate: 0.4, Cores: 4, Memory: 8000, Disk: 32000},
		servertypes.Type{Name: "big", Limit: 2, BootupTime: 300, HourlyRate: 1.6, Cores: 8, Memory: 32000, Disk: 64000},
	)
	f.perCoreSecond = 0.1 / 3600
	readyPrior(&f.learn.post)
	for _, b := range []struct{ first, long, id int }{{1, 2, 0}, {11, 12, 1}} {
		schedule(t, v, jb(b.first, 0, 2, 100), ref("big", b.id))
		schedule(t, v, jb(b.long, 0, 2, 8192), ref("big", b.id))
	}
	schedule(t, v, jb(3, 0, 2, 100), ref("medium", 0))
	for _, b := range []struct{ first, id int }{{1, 0}, {11, 1}} {
		_, err := f.Event(v, complete(v, b.first, 400, ref("big", b.id)))
		require.NoError(t, err)
	}
	return f, v
}

// Two jobs rehome onto one server at its completion; the first move is
// refused (job 2 completing now), which drops the second: it is asked for
// again at once, as the refusal's answer.
func TestRehomeAgainAfterARefusal(t *testing.T) {
	f, v := withMedium(t)
	acts, err := f.Event(v, complete(v, 3, 1300, ref("medium", 0)))
	require.NoError(t, err)
	first := protocol.Migrate{JobID: 2, From: ref("big", 0), To: ref("medium", 0)}
	second := protocol.Migrate{JobID: 12, From: ref("big", 1), To: ref("medium", 0)}
	require.Equal(t, []protocol.Action{first, second}, acts, "both fit medium 0 (2 + 2 of 4 cores)")

	acts, err = f.Outcome(v, strategies.Outcome{Action: first, Err: &protocol.ServerError{Command: first.String(), Text: "ERR: Job 2 cannot be migrated as it is completing at 1300 (NOW)"}})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{second}, acts, "job 12's move, dropped after the refusal, and job 2's not asked again")
}

// The moves made at a completion are the decision's last actions, after
// what settle and cool returned: here settle powers off tiny 0, freed
// before (as a completion does while the global queue holds jobs) and
// too small for job 2, and only then does job 2 rehome onto small 0.
func TestRehomeMovesLast(t *testing.T) {
	f, v := clusterOf(t, map[string]string{"weight": "3"},
		servertypes.Type{Name: "tiny", Limit: 1, BootupTime: 60, HourlyRate: 0.1, Cores: 1, Memory: 2000, Disk: 8000},
		servertypes.Type{Name: "small", Limit: 1, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 300, HourlyRate: 1.6, Cores: 8, Memory: 32000, Disk: 64000},
	)
	f.perCoreSecond = 0.1 / 3600
	readyPrior(&f.learn.post)
	schedule(t, v, jb(1, 0, 2, 100), ref("big", 0))
	schedule(t, v, jb(2, 0, 2, 8192), ref("big", 0))
	schedule(t, v, jb(3, 0, 2, 100), ref("small", 0))
	schedule(t, v, jb(7, 0, 1, 100), ref("tiny", 0))
	_, err := f.Event(v, complete(v, 1, 400, ref("big", 0)))
	require.NoError(t, err)
	complete(v, 7, 1299, ref("tiny", 0))
	f.free(ref("tiny", 0), 1299)

	acts, err := f.Event(v, complete(v, 3, 1300, ref("small", 0)))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{
		protocol.Terminate{Server: ref("tiny", 0)},
		protocol.Migrate{JobID: 2, From: ref("big", 0), To: ref("small", 0)},
	}, acts)
}

// No rehome while the global queue holds jobs: they are placed first (and
// the move would be priced on a ledger about to change).
func TestRehomeNotWithAQueue(t *testing.T) {
	sc := scene{ran: 1000, est: 8192, bigDone: true, prior: readyPrior}
	f, v, acts := sc.run(t)
	require.Len(t, acts, 1, "with the queue empty, the move (not applied here)")
	small0 := mustMachine(t, v, ref("small", 0))
	assert.NotEmpty(t, f.rehome(v.Book, small0, nil), "with the queue empty the move pays")
	offer(v, jb(9, v.Time, 2, 100))
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK")) // ENQJ GQ: the offered job waits in the global queue
	require.NotEmpty(t, v.Book.Queue())
	assert.Empty(t, f.rehome(v.Book, small0, nil), "with a job in the global queue: no move")
}
