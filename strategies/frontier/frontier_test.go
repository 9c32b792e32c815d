package frontier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The test cluster: two 2-core servers at 0.2 $/h (0.1 per core) booting
// in 60 s, and one 8-core server at 1.6 $/h (0.2 per core) booting in 300 s.
func cluster(t *testing.T, settings map[string]string) (*frontier, *strattest.FakeView) {
	t.Helper()
	return clusterOf(t, settings,
		servertypes.Type{Name: "small", Limit: 2, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 300, HourlyRate: 1.6, Cores: 8, Memory: 32000, Disk: 64000},
	)
}

// clusterOf is cluster with the given server types.
func clusterOf(t *testing.T, settings map[string]string, types ...servertypes.Type) (*frontier, *strattest.FakeView) {
	t.Helper()
	sys := strattest.System(types...)
	s, err := strategies.New("frontier", settings)
	require.NoError(t, err)
	current = s.(*frontier)
	return current, &strattest.FakeView{Sys: sys, Book: strategies.NewLedger(sys)}
}

// current is the strategy of the last cluster: schedule tells it the
// outcome of the SCHDs a test applies, as the client would.
var current *frontier

func ref(typ string, id int) protocol.ServerRef { return protocol.ServerRef{Type: typ, ID: id} }

func jb(id, submit, cores, est int) protocol.Job {
	return protocol.Job{ID: id, Submit: submit, Cores: cores, Memory: 100, Disk: 100, EstRunTime: est}
}

// schedule offers j at its submit time and applies SCHD j → to, as the
// client would after an OK.
func schedule(t *testing.T, v *strattest.FakeView, j protocol.Job, to protocol.ServerRef) {
	t.Helper()
	offer(v, j)
	a := protocol.Schedule{JobID: j.ID, Server: to}
	require.NoError(t, v.Book.Applied(a, "OK"))
	_, err := current.Outcome(v, strategies.Outcome{Action: a, Reply: "OK"})
	require.NoError(t, err)
}

func offer(v *strattest.FakeView, j protocol.Job) {
	v.Time = j.Submit
	v.Book.Observe(&protocol.JobOffer{Job: j})
}

func complete(v *strattest.FakeView, id, at int, on protocol.ServerRef) *protocol.JobCompleted {
	e := &protocol.JobCompleted{Time: at, JobID: id, Server: on}
	v.Time = at
	v.Book.Observe(e)
	return e
}

func decide(t *testing.T, f *frontier, v *strattest.FakeView, j protocol.Job) []protocol.Action {
	t.Helper()
	offer(v, j)
	acts, err := f.Job(v, j)
	require.NoError(t, err)
	return acts
}

// Placement rules, one row per situation. Every decision comes from the
// ledger: no query is sent.
func TestPlacement(t *testing.T) {
	for _, tc := range []struct {
		what   string
		preset string
		setup  func(t *testing.T, v *strattest.FakeView)
		job    protocol.Job
		want   protocol.ServerRef
	}{
		{"all off: the cheapest per core that fits (rates from ds-system.xml)", "balanced",
			func(*testing.T, *strattest.FakeView) {}, jb(1, 0, 2, 100), ref("small", 0)},
		{"only big fits 4 cores", "balanced",
			func(*testing.T, *strattest.FakeView) {}, jb(1, 0, 4, 100), ref("big", 0)},
		{"co-scheduling: a short job in the spare cores of a server running a long one adds no billed time", "balanced",
			func(t *testing.T, v *strattest.FakeView) {
				schedule(t, v, jb(0, 0, 4, 5000), ref("big", 0))
				v.Book.Observe(&protocol.JobCompleted{Time: 400, JobID: -1, Server: ref("small", 1)}) // time passes: big has booted
			}, jb(1, 400, 2, 100), ref("big", 0)},
		{"a job that would extend the long one's billing boots a cheap server instead", "balanced",
			func(t *testing.T, v *strattest.FakeView) {
				schedule(t, v, jb(0, 0, 4, 500), ref("big", 0))
				v.Book.Observe(&protocol.JobCompleted{Time: 400, JobID: -1, Server: ref("small", 1)})
			}, jb(1, 400, 2, 3000), ref("small", 0)},
		{"queueing is distrusted: boot a second small rather than wait 50 s behind the first", "balanced",
			func(t *testing.T, v *strattest.FakeView) {
				schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
				v.Book.Observe(&protocol.JobCompleted{Time: 950, JobID: -1, Server: ref("big", 0)})
			}, jb(1, 950, 2, 1000), ref("small", 1)},
		{"a cheap server's queue (610 s) beats booting a premium one", "cost",
			func(t *testing.T, v *strattest.FakeView) {
				schedule(t, v, jb(0, 0, 2, 1500), ref("small", 0))
				v.Book.Observe(&protocol.ServerFailed{Server: ref("small", 1), Time: 950})
			}, jb(1, 950, 2, 1000), ref("small", 0)},
		{"the turnaround preset pays the premium not to wait 2110 s", "turnaround",
			func(t *testing.T, v *strattest.FakeView) {
				schedule(t, v, jb(0, 0, 2, 3000), ref("small", 0))
				v.Book.Observe(&protocol.ServerFailed{Server: ref("small", 1), Time: 950})
			}, jb(1, 950, 2, 1000), ref("big", 0)},
		{"a failed server is not a candidate", "balanced",
			func(t *testing.T, v *strattest.FakeView) {
				v.Book.Observe(&protocol.ServerFailed{Server: ref("small", 0), Time: 0})
			}, jb(1, 0, 2, 100), ref("small", 1)},
		{"a refused server hides not the rest of its type: the next one off stands in", "balanced",
			func(t *testing.T, v *strattest.FakeView) {
				v.Refused = []protocol.ServerRef{ref("small", 0)}
			}, jb(1, 0, 2, 100), ref("small", 1)},
	} {
		f, v := cluster(t, map[string]string{"preset": tc.preset})
		tc.setup(t, v)
		acts := decide(t, f, v, tc.job)
		assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: tc.job.ID, Server: tc.want}}, acts, tc.what)
		assert.Empty(t, v.Sent, tc.what)
	}
}

// Every capable server failed: with nothing running, PSHJ (offered again a
// second later: the only way the clock moves on to the recovery); with a
// job running elsewhere, ENQJ (its completion, or the recovery, brings the
// job back from the global queue), once frontier has seen the failure
// (without one, PSHJ as before); after a refusal with nothing left,
// ErrNoServer.
func TestNoServer(t *testing.T) {
	f, v := cluster(t, nil)
	v.Book.Observe(&protocol.ServerFailed{Server: ref("big", 0), Time: 0})
	assert.Equal(t, []protocol.Action{protocol.Push{}}, decide(t, f, v, jb(1, 0, 4, 100)), "nothing running")
	v.Refused = []protocol.ServerRef{ref("small", 0), ref("small", 1)}
	_, err := f.Job(v, jb(2, 0, 2, 100))
	assert.ErrorIs(t, err, strategies.ErrNoServer)

	f, v = cluster(t, nil)
	event(t, f, v, &protocol.ServerFailed{Server: ref("big", 0), Time: 0}, 0)
	schedule(t, v, jb(1, 0, 1, 100), ref("small", 0))
	assert.Equal(t, []protocol.Action{protocol.Enqueue{}}, decide(t, f, v, jb(2, 1, 4, 100)), "a job on a booting server: its start and end are known")
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))
	acts, err := f.Event(v, complete(v, 1, 200, ref("small", 0)))
	require.NoError(t, err)
	assert.Contains(t, acts, protocol.Action(protocol.Dequeue{QID: 0}), "the next event brings it back")
}

// With nothing running and the only capable type failed, PSHJ moves the
// clock, but every job pushed back is offered again each second: once two
// are back in ds-server's queue of offers, the next is put in the global
// queue (ENQJ). A job offered again no longer counts, nor does a PSHJ
// ds-server refused (it gave the job up, §5.14; the client ends the run
// there, so that row is the rule's own guard), nor, after a CHKQ (sent
// only with ds-server's queue of offers empty), any job: in a composite
// another member may have taken a job frontier pushed back. One row per
// offer, in order; each action is done (or refused) as the client would.
func TestParkKeepsTwoPushedBack(t *testing.T) {
	const gaveUp = "Error: simulation can't continue at Job 1 at 90000\n"
	f, v := cluster(t, nil)
	event(t, f, v, &protocol.ServerFailed{Server: ref("big", 0), Time: 0}, 0)
	for i, tc := range []struct {
		job   protocol.Job
		reply string
		want  protocol.Action
	}{
		{jb(1, 10, 4, 100), gaveUp, protocol.Push{}},
		{jb(2, 11, 4, 100), "OK", protocol.Push{}}, // job 1's PSHJ was refused: one back
		{jb(3, 12, 4, 100), "OK", protocol.Push{}},
		{jb(4, 13, 4, 100), "OK", protocol.Enqueue{}}, // 2 and 3 are back
		{jb(2, 14, 4, 100), "OK", protocol.Push{}},    // offered again: only 3 is back
		{jb(5, 15, 4, 100), "OK", protocol.Enqueue{}},
		{jb(6, 16, 4, 100), "CHKQ", protocol.Push{}}, // 2 and 3 forgotten
		{jb(7, 17, 4, 100), "OK", protocol.Push{}},
		{jb(8, 18, 4, 100), "OK", protocol.Enqueue{}},
	} {
		if tc.reply == "CHKQ" {
			_, err := f.Event(v, &protocol.CheckQueue{})
			require.NoError(t, err)
			tc.reply = "OK"
		}
		acts := decide(t, f, v, tc.job)
		require.Equal(t, []protocol.Action{tc.want}, acts, "offer %d (job %d)", i+1, tc.job.ID)
		o := strategies.Outcome{Action: tc.want, Reply: tc.reply}
		if tc.reply != "OK" {
			o = strategies.Outcome{Action: tc.want, Err: &protocol.ServerError{Command: "PSHJ", Text: tc.reply}}
		} else {
			require.NoError(t, v.Book.Applied(tc.want, tc.reply))
		}
		_, err := f.Outcome(v, o)
		require.NoError(t, err)
	}
}

// Power-off: at the completion that empties a server, when no job waits
// anywhere, TERM at once (it costs nothing then).
func TestPowerOffAtEmptying(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 2, 100), ref("small", 0))
	acts, err := f.Event(v, complete(v, 0, 160, ref("small", 0)))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("small", 0)}}, acts)
}

// Migration: a server freed while a job waits elsewhere is kept on until
// its completion batch is over, then takes the waiting job (MIGJ) when the
// delay saved outweighs the cost; a server left empty is then powered off.
func TestMigrationAfterTheBatch(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
	schedule(t, v, jb(1, 1, 2, 1000), ref("small", 0)) // waits behind job 0 until ~1060
	schedule(t, v, jb(2, 2, 2, 100), ref("small", 1))
	f.perCoreSecond = 0.1 / 3600
	acts, err := f.Event(v, complete(v, 2, 170, ref("small", 1)))
	require.NoError(t, err)
	assert.Empty(t, acts, "small 1 is kept on: job 1 waits and the batch may not be over")
	acts, err = f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Empty(t, acts, "still the same second")
	v.Book.Observe(&protocol.JobCompleted{Time: 171, JobID: -1, Server: ref("big", 0)}) // time passes
	acts, err = f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("small", 1)}}, acts)
}

// The rules that keep a migration from doing harm: §4.3's size guard (no
// 2-core job to a server four times larger), no source without a running
// job, and a move that saves too little for its cost is not made.
func TestMigrationGuards(t *testing.T) {
	f, v := cluster(t, map[string]string{"preset": "balanced"})
	f.perCoreSecond = 0.1 / 3600
	schedule(t, v, jb(0, 0, 8, 10), ref("big", 0))
	schedule(t, v, jb(1, 1, 2, 1000), ref("small", 0))
	schedule(t, v, jb(2, 2, 2, 1000), ref("small", 0))
	v.Time = 400
	v.Book.Observe(&protocol.JobCompleted{Time: 400, JobID: 0, Server: ref("big", 0)})
	assert.Empty(t, f.migrateOnto(v.Book, mustMachine(t, v, ref("big", 0)), false, nil), "size guard: 8 cores for a 2-core job")

	f2, v2 := cluster(t, nil)
	f2.perCoreSecond = 0.1 / 3600
	schedule(t, v2, jb(3, 0, 2, 5), ref("small", 1))
	schedule(t, v2, jb(1, 30, 2, 1000), ref("small", 0)) // booting until 90: job 1 has a known start, nothing runs
	schedule(t, v2, jb(2, 31, 2, 1000), ref("small", 0)) // waits behind it
	complete(v2, 3, 65, ref("small", 1))
	assert.Empty(t, f2.migrateOnto(v2.Book, mustMachine(t, v2, ref("small", 1)), false, nil), "small 0 runs nothing yet")

	f3, v3 := cluster(t, map[string]string{"weight": "0.2"})
	f3.perCoreSecond = 0.1 / 3600
	schedule(t, v3, jb(0, 0, 2, 1000), ref("small", 0))
	schedule(t, v3, jb(1, 1, 2, 1000), ref("small", 0))
	schedule(t, v3, jb(2, 2, 2, 10), ref("small", 1))
	v3.Time = 1000
	v3.Book.Observe(&protocol.JobCompleted{Time: 1000, JobID: 2, Server: ref("small", 1)})
	assert.Empty(t, f3.migrateOnto(v3.Book, mustMachine(t, v3, ref("small", 1)), false, nil),
		"weight 0.2: the wait saved is not worth 1000 s of a second server's idle gap and run")
	acts, err := f3.Event(v3, &protocol.JobCompleted{Time: 1000, JobID: 2, Server: ref("small", 1)})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("small", 1)}}, acts,
		"a job waits elsewhere, but no move would pay: off at once, no idle gap")
}

// A job alone on a booting server moves to a server a completion freed
// when its boot wait is worth more than nothing: the move calls the boot
// off (MIGJ powers the source down, unbilled), so the job's billed time is
// only moved, not added; the server called off is inactive again, and the
// next inactive-server scan finds it.
func TestMigrationFromABootingServer(t *testing.T) {
	f, v := cluster(t, nil)
	f.perCoreSecond = 0.1 / 3600
	schedule(t, v, jb(3, 0, 2, 5), ref("small", 1))     // runs 60..65
	schedule(t, v, jb(1, 30, 2, 1000), ref("small", 0)) // alone on small 0, booting until 90
	complete(v, 3, 65, ref("small", 1))
	acts := f.migrateOnto(v.Book, mustMachine(t, v, ref("small", 1)), false, nil)
	mig := protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("small", 1)}
	require.Equal(t, []protocol.Action{mig}, acts)

	require.NoError(t, v.Book.Applied(mig, "OK"))
	_, err := f.Outcome(v, strategies.Outcome{Action: mig, Reply: "OK"})
	require.NoError(t, err)
	assert.Equal(t, protocol.Inactive, mustMachine(t, v, ref("small", 0)).State)
	first, _ := v.Book.LowestInactive("small")
	assert.Equal(t, ref("small", 0), first.Ref, "small 0 is off again: inactive-server scans start from it")
}

// The boot is called off, and its billing credited, for the move that
// takes the last job off a booting server, not only when the server had
// one job to begin with: job 1 (short) moves for its boot wait alone, job
// 2 (long, it extends the freed server's billing more than its boot wait
// is worth at weight 3) only for the 8-core server's billing it stops.
func TestMigrationCallsOffABootWithSeveralJobs(t *testing.T) {
	for _, tc := range []struct {
		weight string
		want   []int // jobs moved
	}{
		{"3", []int{1, 2}}, // job 2 for the credit
		{"0.5", nil},       // job 1's boot wait is not worth its billed time: both stay
	} {
		f, v := cluster(t, map[string]string{"weight": tc.weight})
		f.perCoreSecond = 0.1 / 3600
		schedule(t, v, jb(3, 0, 2, 5), ref("small", 1))   // runs 60..65
		schedule(t, v, jb(1, 10, 1, 100), ref("big", 0))  // big 0 boots until 310
		schedule(t, v, jb(2, 11, 1, 1000), ref("big", 0)) // beside job 1, from 310
		complete(v, 3, 65, ref("small", 1))
		var moved []int
		for _, a := range f.migrateOnto(v.Book, mustMachine(t, v, ref("small", 1)), false, nil) {
			moved = append(moved, a.(protocol.Migrate).JobID)
		}
		assert.Equal(t, tc.want, moved, "weight %s", tc.weight)
	}
}

// A job waiting for a boot moves to a server a completion freed at that
// completion, not once its batch is over (it cannot have started, and the
// seconds until the next decision would be boot wait): here one of two
// jobs booting the 8-core server, both starting at its boot end, so the
// other stays and the boot goes on. A job waiting behind a running job
// still waits for the batch (TestMigrationAfterTheBatch).
func TestUnbootAtTheCompletion(t *testing.T) {
	f, v := cluster(t, nil)
	f.perCoreSecond = 0.1 / 3600
	schedule(t, v, jb(3, 0, 2, 5), ref("small", 1))   // runs 60..65
	schedule(t, v, jb(1, 10, 2, 1000), ref("big", 0)) // big 0 boots until 310
	schedule(t, v, jb(2, 11, 2, 1000), ref("big", 0)) // beside job 1, from 310
	acts, err := f.Event(v, complete(v, 3, 65, ref("small", 1)))
	require.NoError(t, err)
	mig := protocol.Migrate{JobID: 1, From: ref("big", 0), To: ref("small", 1)}
	require.Equal(t, []protocol.Action{mig}, acts, "at the JCPL itself")

	require.NoError(t, v.Book.Applied(mig, "OK"))
	_, err = f.Outcome(v, strategies.Outcome{Action: mig, Reply: "OK"})
	require.NoError(t, err)
	big := mustMachine(t, v, ref("big", 0))
	assert.Equal(t, protocol.Booting, big.State, "job 2 still boots it")
	require.Len(t, big.Waiting, 1)
	assert.Equal(t, 310, big.Waiting[0].Start, "and still starts at its boot end")
	assert.Equal(t, 65, mustMachine(t, v, ref("small", 1)).Running[0].Start)
}

// Which servers a waiting job may leave (ds-server starts waiting jobs
// only at a completion on their server or at its boot end).
func TestMovableFrom(t *testing.T) {
	p := strategies.Placement{Job: jb(1, 0, 1, 10), Start: -1}
	known := strategies.Placement{Job: jb(2, 0, 1, 10), Start: 60} // starts at the boot's end
	for _, tc := range []struct {
		what             string
		state            protocol.ServerState
		running, waiting int
		known            int // waiting jobs of known start, before the others
		want             bool
	}{
		{"a job runs: its completion starts the rest", protocol.Active, 1, 2, 0, true},
		{"nothing waits", protocol.Active, 1, 0, 0, false},
		{"nothing runs on an active server: the rest would never start", protocol.Active, 0, 2, 0, false},
		{"the only job of a booting server: the boot is called off", protocol.Booting, 0, 1, 1, true},
		{"a booting server whose jobs all start at its boot end: the rest still do", protocol.Booting, 0, 2, 2, true},
		{"a booting server with a job of unknown start: it could be stranded", protocol.Booting, 0, 2, 1, false},
		{"failed", protocol.Unavailable, 0, 1, 0, false},
	} {
		m := &strategies.Machine{State: tc.state}
		for range tc.running {
			m.Running = append(m.Running, p)
		}
		for i := range tc.waiting {
			if i < tc.known {
				m.Waiting = append(m.Waiting, known)
			} else {
				m.Waiting = append(m.Waiting, p)
			}
		}
		assert.Equal(t, tc.want, movableFrom(m), tc.what)
	}
}

func mustMachine(t *testing.T, v *strattest.FakeView, r protocol.ServerRef) *strategies.Machine {
	m, ok := v.Book.Machine(r)
	require.True(t, ok)
	return m
}

// Failures: the jobs a RESF sends to the global queue are all dequeued at
// once (they come back as JOBP); a TERM that put jobs in the queue is
// answered with DEQJ, one per job queued (TestUnstickTerminates has the
// stuck server that sends one).
func TestFailuresAndQueue(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 1, 1000), ref("small", 0))
	schedule(t, v, jb(1, 1, 1, 1000), ref("small", 0))
	fail := &protocol.ServerFailed{Server: ref("small", 0), Time: 100}
	v.Time = 100
	v.Book.Observe(fail)
	acts, err := f.Event(v, fail)
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}, protocol.Dequeue{QID: 0}}, acts)
	for _, a := range acts {
		require.NoError(t, v.Book.Applied(a, "OK"))
	}

	term := protocol.Terminate{Server: ref("small", 1)}
	v.Book.Observe(&protocol.JobOffer{Job: jb(7, 100, 1, 10)})
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))
	v.Book.Observe(&protocol.JobOffer{Job: jb(8, 100, 1, 10)})
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))
	acts, err = f.Outcome(v, strategies.Outcome{Action: term, Reply: "2 jobs killed", Killed: 2})
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Dequeue{QID: 0}, protocol.Dequeue{QID: 0}}, acts, "TERM killed 2: the queue is dequeued")
	acts, err = f.Outcome(v, strategies.Outcome{Action: term, Reply: "0 jobs killed"})
	require.NoError(t, err)
	assert.Empty(t, acts, "TERM killed nothing: no DEQJ")
	acts, err = f.Outcome(v, strategies.Outcome{Action: protocol.Terminate{Server: ref("big", 0)}, Err: &protocol.ServerError{Text: "ERR"}})
	require.NoError(t, err)
	assert.Empty(t, acts, "a refusal leaves things as they were")
}

// Learning: the ratio of total actual to total estimated runtime, from a
// prior of 1, clipped to [0.5, 4].
func TestLearnedRatio(t *testing.T) {
	f, v := cluster(t, nil)
	assert.InDelta(t, 1.0, f.learn.mean(), 1e-12)
	schedule(t, v, jb(0, 0, 2, 3600), ref("small", 0))
	f.learn.started(mustMachine(t, v, ref("small", 0)))
	_, err := f.Event(v, complete(v, 0, 60+3*3600, ref("small", 0)))
	require.NoError(t, err)
	assert.InDelta(t, (3*3600+3600)/(3600+3600.0), f.learn.mean(), 1e-12)
	f.learn.act, f.learn.est = 1e9, 1
	assert.Equal(t, 4.0, f.learn.mean())
}

// Learning sees a run ds-server started because a MIGJ took the job ahead
// of it away: job 2 starts on small 0 when job 1 leaves, and is the first
// to complete there (its start is recorded at the MIGJ's outcome, not at
// small 0's next JCPL, which would be too late).
func TestLearnsAJobStartedByAMigration(t *testing.T) {
	f, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 1, 5000), ref("small", 0))
	v.Book.Observe(&protocol.JobCompleted{Time: 100, JobID: -1, Server: ref("big", 0)}) // time passes: small 0 runs job 0
	schedule(t, v, jb(1, 100, 2, 1000), ref("small", 0))                                // waits for both cores
	schedule(t, v, jb(2, 101, 1, 700), ref("small", 0))                                 // waits behind it
	mig := protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("small", 1)}
	require.NoError(t, v.Book.Applied(mig, "OK"))
	_, err := f.Outcome(v, strategies.Outcome{Action: mig, Reply: "OK"})
	require.NoError(t, err)
	require.Len(t, mustMachine(t, v, ref("small", 0)).Running, 2, "job 2 started when job 1 left")

	_, err = f.Event(v, complete(v, 2, 101+900, ref("small", 0)))
	require.NoError(t, err)
	assert.Equal(t, 900.0, f.learn.act, "job 2's 900 s are learned")
	assert.Equal(t, 700.0, f.learn.est)
}

// Forecasts stretch estimates by the learned ratio, and a running job that
// has outrun its stretched estimate holds on for half its estimate more
// (Ledger.Predict's now + 1 would make the queue behind it look free).
func TestForecast(t *testing.T) {
	_, v := cluster(t, nil)
	schedule(t, v, jb(0, 0, 2, 100), ref("small", 0)) // runs 60..160 by its estimate
	j := jb(1, 1, 2, 100)
	var fc forecast
	r := newRatios()
	r.act, r.est = 2*1e9, 1e9 // a learned ratio of 2 (the prior is worth nothing beside it)
	m := mustMachine(t, v, ref("small", 0))
	v.Book.Observe(&protocol.JobCompleted{Time: 60, JobID: -1, Server: ref("big", 0)})
	o := fc.run(v.Book, m, &j, &r)
	assert.Equal(t, outcome{avail: 60, start: 260, end: 460, billed: 260}, o)
	v.Book.Observe(&protocol.JobCompleted{Time: 300, JobID: -1, Server: ref("big", 0)})
	o = fc.run(v.Book, m, &j, &r)
	assert.Equal(t, outcome{avail: 300, start: 350, end: 550, billed: 350}, o)
}

// Bad input is refused when the strategy is made.
func TestBadParameters(t *testing.T) {
	for settings, msg := range map[string]string{
		"preset=fast": `parameter preset="fast": want cost, balanced or turnaround`,
		"preset=cots": `parameter preset="cots": want cost, balanced or turnaround; did you mean cost?`,
		"weight=-1":   "weight -1: want a finite number above 0",
		"weight=NaN":  "weight NaN: want a finite number above 0",
		"weight=Inf":  "weight +Inf: want a finite number above 0",
		"weight=-Inf": "weight -Inf: want a finite number above 0",
		"warm=maybe":  `parameter warm="maybe": want on, demand, off or preset`,
		// Scores would lose their cost to rounding, then overflow.
		"weight=1e20":  "weight 1e+20: want at most 1e+09 (beyond it a score's cost is lost to rounding",
		"weight=1e300": "weight 1e+300: want at most 1e+09",
		"weight=1.1e9": "weight 1.1e+09: want at most 1e+09",
	} {
		kv, err := strategies.ParseSettings([]string{settings})
		require.NoError(t, err)
		_, err = strategies.New("frontier", kv)
		assert.ErrorContains(t, err, msg)
	}
	_, err := strategies.New("frontier", map[string]string{"preset": "turnaround", "weight": "7"})
	assert.NoError(t, err)
	_, err = strategies.New("frontier", map[string]string{"weight": "1e9"})
	assert.NoError(t, err, "the bound itself")
}

// --list says what weight=0, the default, means: the presets' weights.
func TestWeightHelpNamesThePresets(t *testing.T) {
	info, ok := strategies.Lookup("frontier")
	require.True(t, ok)
	for _, p := range info.Params {
		if p.Name == "weight" {
			assert.Equal(t, "0", p.Default)
			assert.Contains(t, p.Help, "0: the preset's (cost 0.25, balanced 10, turnaround 1000); above 0, at most 1e+09")
		}
	}
}

// Replanning: a job queued behind one that overran its estimate, whose
// forecast wait now exceeds the quickest boot, moves to a server it boots
// when that scores better than staying; the job on offer is not placed on
// either server the move concerns. Not within a completion batch (the
// ledger may list as waiting a job already started), and not for a wait
// no boot can beat.
func TestReplanEscapesAnOverrun(t *testing.T) {
	for _, tc := range []struct {
		what     string
		now      int
		lastDone int
		want     []protocol.Action
	}{
		{"job 0 ran past its estimate (60..1060): job 1's forecast wait is 500 s", 1100, -1,
			[]protocol.Action{protocol.Migrate{JobID: 1, From: ref("small", 0), To: ref("small", 1)}, protocol.Schedule{JobID: 2, Server: ref("big", 0)}}},
		{"a completion batch at this second may not be over", 1100, 1100,
			[]protocol.Action{protocol.Schedule{JobID: 2, Server: ref("small", 1)}}},
		{"a forecast wait of 60 s: no boot is quicker", 1000, -1,
			[]protocol.Action{protocol.Schedule{JobID: 2, Server: ref("small", 1)}}},
	} {
		f, v := cluster(t, nil)
		f.perCoreSecond = 0.1 / 3600
		schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0))
		schedule(t, v, jb(1, 1, 2, 100), ref("small", 0))
		v.Book.Observe(&protocol.JobCompleted{Time: tc.now, JobID: -1, Server: ref("big", 0)}) // time passes
		f.lastDone = tc.lastDone
		assert.Equal(t, tc.want, decide(t, f, v, jb(2, tc.now, 2, 100)), tc.what)
	}
}

// Keeping an emptied server on (the turnaround preset's bet, see warmth):
// hold is the weighted boot of a mean-sized job over the server's rate;
// the server is kept while recent boots of its type outnumber those kept
// and past bets cover the open ones, taken by the next job without a
// boot, powered off at the end of its hold (the loss counted), and never
// kept by the other presets, nor without a recent boot.
func TestKeepWarm(t *testing.T) {
	setup := func(preset string, doneAt int) (*frontier, *strattest.FakeView, []protocol.Action) {
		settings := map[string]string{"preset": preset}
		if preset == "turnaround" { // the bet alone, at the weight it was built at (the preset adds the demand forecast)
			settings = map[string]string{"weight": "100", "warm": "on"}
		}
		f, v := cluster(t, settings)
		f.perCoreSecond = 0.1 / 3600
		j := jb(0, 0, 2, 100)
		f.warm.offered(j)
		schedule(t, v, j, ref("small", 0)) // boots small 0: a boot of type small at 0
		acts, err := f.Event(v, complete(v, 0, doneAt, ref("small", 0)))
		require.NoError(t, err)
		return f, v, acts
	}
	term := []protocol.Action{protocol.Terminate{Server: ref("small", 0)}}

	f, v, acts := setup("turnaround", 200)
	assert.Equal(t, 3000*2, f.hold(mustMachine(t, v, ref("small", 0))), "100 × 0.1 $/h per core × 2 cores × 60 s over 0.2 $/h")
	assert.Empty(t, acts, "a boot of its type 200 s ago: kept on")
	acts = decide(t, f, v, jb(1, 300, 2, 100))
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: ref("small", 0)}}, acts, "the next job takes it, no boot")
	assert.Zero(t, f.warm.net, "nothing counted before the SCHD is done")
	apply(t, f, v, acts)
	assert.Greater(t, f.warm.net, 0.0, "the boot it did not wait for is counted as gained")

	f, v, _ = setup("turnaround", 200)
	v.Book.Observe(&protocol.JobCompleted{Time: 6200, JobID: -1, Server: ref("big", 0)}) // time passes, no job
	acts, err := f.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Equal(t, term, acts, "its hold is over: off, the idle time lost")
	assert.Zero(t, f.warm.net, "nothing counted before the TERM is done")
	apply(t, f, v, acts)
	assert.InDelta(t, -6000*0.2/3600, f.warm.net, 1e-12)
	assert.Empty(t, f.warm.kept.inOrder())

	_, _, acts = setup("turnaround", 7000)
	assert.Equal(t, term, acts, "its type's last boot is older than the hold")
	_, _, acts = setup("balanced", 200)
	assert.Equal(t, term, acts, "balanced does not bet")
	f, v, _ = setup("turnaround", 200)
	m := mustMachine(t, v, ref("small", 0))
	f.warm.kept = newKeptSet() // no bet open
	f.warm.net = -1
	assert.False(t, f.keep(m, 200), "past bets lost more than they gained: no new one")
	f.warm.net = 0
	assert.True(t, f.keep(m, 200), "even: a new one")
	assert.False(t, f.keep(mustMachine(t, v, ref("small", 1)), 200), "one boot of the type lately, one server already kept")
}

// The spread of runtime ratios: the 1/6, 1/2 and 5/6 quantiles of the last per-job ratios,
// refreshed every spreadEvery completions; and the billed time a job adds
// is averaged over them, so a job predicted to end just before the jobs
// it joins is charged for the times it would not.
func TestSpreadPricesTheRiskOfExtending(t *testing.T) {
	r := newRatios()
	for i := range spreadEvery {
		r.add(100*(i%4+1), 100) // ratios 1, 2, 3, 4, ...
	}
	assert.Equal(t, [3]float64{1, 3, 4}, r.spread, "sorted, eight each of 1 to 4: positions 5, 16 and 26 of 32")

	f, v := cluster(t, nil)
	f.perCoreSecond = 0.1 / 3600
	schedule(t, v, jb(0, 0, 4, 1000), ref("big", 0)) // runs 300..1300
	v.Book.Observe(&protocol.JobCompleted{Time: 1150, JobID: -1, Server: ref("small", 1)})
	job := jb(1, 1150, 2, 100)
	m := mustMachine(t, v, ref("big", 0))
	c, ok := f.score(v.Book, m, job)
	require.True(t, ok)
	assert.Zero(t, c.extra, "no spread learned yet: ends at 1250, before 1300")
	f.learn.spread = [3]float64{0.5, 1, 2}
	c, _ = f.score(v.Book, m, job)
	assert.InDelta(t, 50.0/3*1.6/3600, c.extra, 1e-12, "at twice its estimate it ends at 1350: 50 s more, one time in three")
}

// A second of any job's delay is priced at the mean cores of the
// core-seconds completed so far, not at the job's own cores: the TAT ratio
// counts every job's wait alike. Before anything completes, the job's own
// cores stand in.
func TestDelayIsPricedPerJob(t *testing.T) {
	f0, v0 := cluster(t, nil)
	schedule(t, v0, jb(1, 0, 4, 100), ref("big", 0))
	schedule(t, v0, jb(2, 0, 1, 300), ref("big", 0))
	r := &f0.learn
	r.start[1], r.start[2] = 300, 300 // big boots for 300 s
	assert.Equal(t, 2.0, r.meanCores(2), "nothing completed: the job's own cores")
	r.completed(v0.Book, &protocol.JobCompleted{Time: 400, JobID: 1})
	r.completed(v0.Book, &protocol.JobCompleted{Time: 600, JobID: 2})
	assert.Equal(t, 1.75, r.meanCores(2), "4 cores for 100 s and 1 core for 300 s: 700 core-seconds over 400 s")

	for _, tc := range []struct {
		name          string
		coreSecs, run float64
		cores         int
		want          float64 // cores the delay is priced at
	}{
		{"no completions: the job's cores", 0, 0, 1, 1},
		{"no completions: a larger job", 0, 0, 2, 2},
		{"a 1-core job priced at the mean of 4", 4000, 1000, 1, 4},
		{"a 2-core job priced at the mean of 1.5", 1500, 1000, 2, 1.5},
	} {
		f, v := cluster(t, map[string]string{"weight": "2"})
		f.perCoreSecond = 0.1 / 3600
		f.learn.coreSecs, f.learn.runSecs = tc.coreSecs, tc.run
		c, ok := f.score(v.Book, mustMachine(t, v, ref("small", 0)), jb(9, 0, tc.cores, 100))
		require.True(t, ok, tc.name)
		assert.InDelta(t, 2*0.1/3600*tc.want*60, c.score-c.extra, 1e-12, "%s: the boot's 60 s at weight 2", tc.name)
	}
}
