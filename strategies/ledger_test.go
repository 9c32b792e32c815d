package strategies_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The four servers of libra.md D.3: small (2 cores), medium (4), large (8),
// boot 60 s.
func libraD3System() *servertypes.System {
	return strattest.System(
		servertypes.Type{Name: "small", Limit: 2, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "medium", Limit: 1, BootupTime: 60, HourlyRate: 0.4, Cores: 4, Memory: 16000, Disk: 64000},
		servertypes.Type{Name: "large", Limit: 1, BootupTime: 60, HourlyRate: 0.8, Cores: 8, Memory: 32000, Disk: 256000},
	)
}

func rec(typ string, id int, st protocol.ServerState, cst, c, m, d, w, r int) protocol.Server {
	return protocol.Server{Type: typ, ID: id, State: st, CurStartTime: cst, Cores: c, Memory: m, Disk: d, Waiting: w, Running: r}
}

func ref(typ string, id int) protocol.ServerRef { return protocol.ServerRef{Type: typ, ID: id} }

// libra.md D.3's cluster at now = 1000, learnt through Resync from the
// records the document lists.
func libraD3Ledger(t *testing.T) (*strategies.Ledger, *strattest.FakeView) {
	l := strategies.NewLedger(libraD3System())
	l.Observe(&protocol.JobOffer{Job: protocol.Job{ID: 30, Submit: 1000, Cores: 2, Memory: 1000, Disk: 2000, EstRunTime: 300}})
	v := &strattest.FakeView{
		All: []protocol.Server{
			rec("small", 0, protocol.Inactive, -1, 2, 4000, 16000, 0, 0),
			rec("small", 1, protocol.Active, 10, 1, 3500, 15500, 0, 1),
			rec("medium", 0, protocol.Active, 10, 2, 15000, 63000, 1, 1),
			rec("large", 0, protocol.Active, 10, 4, 31000, 255000, 0, 1),
		},
		LSTJ: map[protocol.ServerRef][]protocol.JobRecord{
			ref("small", 1):  {{ID: 21, State: 2, Submit: 950, Start: 950, EstRunTime: 500, Cores: 1, Memory: 500, Disk: 500}},
			ref("medium", 0): {{ID: 22, State: 2, Submit: 900, Start: 900, EstRunTime: 400, Cores: 2, Memory: 1000, Disk: 1000}, {ID: 23, State: 1, Submit: 990, Start: -1, EstRunTime: 200, Cores: 4, Memory: 1000, Disk: 1000}},
			ref("large", 0):  {{ID: 24, State: 2, Submit: 800, Start: 800, EstRunTime: 1000, Cores: 4, Memory: 1000, Disk: 1000}},
		},
		LSTQ: []protocol.QueuedJob{},
	}
	require.NoError(t, l.Resync(v))
	return l, v
}

// libra.md D.3, column "new ST→TF": the B.4 replay on four servers, and the
// messages Resync sent to learn them.
func TestPredictLibraD3(t *testing.T) {
	l, v := libraD3Ledger(t)
	assert.Equal(t, []string{"GETS All", "LSTJ small 1", "LSTJ medium 0", "LSTJ large 0", "LSTQ GQ #"}, v.Sent)
	job, ok := l.Offered()
	require.True(t, ok)
	for _, tc := range []struct {
		server     protocol.ServerRef
		start, end int
	}{
		{ref("small", 0), 1060, 1360},
		{ref("small", 1), 1450, 1750},
		{ref("medium", 0), 1500, 1800},
		{ref("large", 0), 1000, 1300},
	} {
		m, ok := l.Machine(tc.server)
		require.True(t, ok)
		start, end := l.EarliestStart(m, job)
		assert.Equal(t, [2]int{tc.start, tc.end}, [2]int{start, end}, "%s", tc.server)
	}
	// The whole timeline of medium#0 (D.4: job 22 ends 1300, job 23 runs
	// 1300→1500, the new job 1500→1800).
	m, _ := l.Machine(ref("medium", 0))
	assert.Equal(t, []strategies.Predicted{{JobID: 22, Start: 900, End: 1300}, {JobID: 23, Start: 1300, End: 1500}, {JobID: 30, Start: 1500, End: 1800}},
		l.Predict(m, &job, nil))
}

// B.4's other rules: an overrun job ends at now+1, est 0 runs 1 s, a job
// the type cannot hold never starts and blocks those behind it, a failed
// server predicts nothing.
func TestPredictEdges(t *testing.T) {
	l, _ := libraD3Ledger(t)
	l.Observe(&protocol.JobOffer{Job: protocol.Job{ID: 31, Submit: 1460, Cores: 2, Memory: 100, Disk: 100, EstRunTime: 0}})
	small1, _ := l.Machine(ref("small", 1))
	job, _ := l.Offered()
	// job 21 (950+500) has outrun its estimate at 1460: predicted end 1461.
	assert.Equal(t, []strategies.Predicted{{JobID: 21, Start: 950, End: 1461}, {JobID: 31, Start: 1461, End: 1462}}, l.Predict(small1, &job, nil))

	huge := protocol.Job{ID: 32, Cores: 16, Memory: 100, Disk: 100, EstRunTime: 10}
	start, end := l.EarliestStart(small1, huge)
	assert.Equal(t, [2]int{-1, -1}, [2]int{start, end})

	l.Observe(&protocol.ServerFailed{Server: ref("small", 1), Time: 1470})
	start, _ = l.EarliestStart(small1, job)
	assert.Equal(t, -1, start, "an unavailable server predicts nothing")
}

func newJob(id, submit, cores, est int) *protocol.JobOffer {
	return &protocol.JobOffer{Job: protocol.Job{ID: id, Submit: submit, Cores: cores, Memory: 100, Disk: 100, EstRunTime: est}}
}

func applied(t *testing.T, l *strategies.Ledger, a protocol.Action, reply string) {
	t.Helper()
	require.NoError(t, l.Applied(a, reply))
}

func starts(ps []strategies.Placement) map[int]int {
	out := map[int]int{}
	for _, p := range ps {
		out[p.Job.ID] = p.Start
	}
	return out
}

// ds-server.md §4.2 placement, §3.3/§3.5 completions, §3.4 boots, step by
// step on one 2-core server (boot 60) and one 4-core server.
func TestLedgerPlacementAndCompletion(t *testing.T) {
	sys := libraD3System()
	l := strategies.NewLedger(sys)
	small := ref("small", 0)

	l.Observe(newJob(0, 100, 1, 50))
	applied(t, l, protocol.Schedule{JobID: 0, Server: small}, "OK")
	m, _ := l.Machine(small)
	assert.Equal(t, protocol.Booting, m.State, "inactive → booting")
	assert.Equal(t, 160, m.BootEnd)
	assert.Equal(t, map[int]int{0: 160}, starts(m.Waiting), "known start = boot end")
	assert.Equal(t, 1, m.Free.Cores, "a known-start job holds its resources while booting")

	l.Observe(newJob(1, 110, 1, 50))
	applied(t, l, protocol.Schedule{JobID: 1, Server: small}, "OK")
	l.Observe(newJob(2, 120, 2, 50))
	applied(t, l, protocol.Schedule{JobID: 2, Server: small}, "OK")
	assert.Equal(t, map[int]int{0: 160, 1: 160, 2: -1}, starts(m.Waiting), "a job that does not fit while booting has no known start")
	assert.Equal(t, 0, m.Free.Cores)

	l.Observe(newJob(3, 170, 1, 50)) // the advance to 170 completes the boot
	assert.Equal(t, protocol.Active, m.State)
	assert.Equal(t, map[int]int{0: 160, 1: 160}, starts(m.Running))
	assert.Equal(t, []int{2}, ids(m.Waiting))
	applied(t, l, protocol.Schedule{JobID: 3, Server: small}, "OK")
	assert.Equal(t, []int{2, 3}, ids(m.Waiting), "no backfilling: job 3 waits behind job 2")

	l.Observe(&protocol.JobCompleted{Time: 200, JobID: 0, Server: small})
	assert.Equal(t, map[int]int{1: 160}, starts(m.Running), "job 2 needs 2 cores: still blocked")
	l.Observe(&protocol.JobCompleted{Time: 215, JobID: 1, Server: small})
	assert.Equal(t, map[int]int{2: 215}, starts(m.Running), "job 2 starts at the completion time")
	assert.Equal(t, []int{3}, ids(m.Waiting))
	l.Observe(&protocol.JobCompleted{Time: 265, JobID: 2, Server: small})
	l.Observe(&protocol.JobCompleted{Time: 315, JobID: 3, Server: small})
	assert.True(t, m.Empty())
	assert.Equal(t, protocol.Active, m.State, "still active until the next state advance (§3.3)")
	assert.Equal(t, 315, m.IdleSince)
	l.Observe(newJob(4, 400, 1, 10))
	assert.Equal(t, protocol.Idle, m.State)
	applied(t, l, protocol.Schedule{JobID: 4, Server: small}, "OK")
	assert.Equal(t, map[int]int{4: 400}, starts(m.Running), "idle: runs at once")
	assert.Equal(t, -1, m.IdleSince)
	assert.Equal(t, 160, m.BootEnd, "curStartTime survives idle periods")
}

func ids(ps []strategies.Placement) []int {
	out := []int{}
	for _, p := range ps {
		out = append(out, p.Job.ID)
	}
	return out
}

// TERM, KILJ, MIGJ, ENQJ, DEQJ, RESF and RESR (§5.5, §5.6, §5.11–§5.13, C.3).
func TestLedgerActionsAndFailures(t *testing.T) {
	l := strategies.NewLedger(libraD3System())
	med, lg := ref("medium", 0), ref("large", 0)
	for i := 0; i < 3; i++ {
		l.Observe(newJob(i, 10*i, 2, 100))
		applied(t, l, protocol.Schedule{JobID: i, Server: med}, "OK")
	}
	l.Observe(newJob(3, 100, 1, 100)) // boot of medium ends at 60: jobs 0 and 1 run from 60
	m, _ := l.Machine(med)
	assert.Equal(t, map[int]int{0: 60, 1: 60}, starts(m.Running))
	assert.Equal(t, []int{2}, ids(m.Waiting))

	applied(t, l, protocol.Enqueue{}, "OK")
	assert.Equal(t, []int{3}, queueIDs(l))
	_, offered := l.Offered()
	assert.False(t, offered)

	applied(t, l, protocol.Kill{Server: med, JobID: 0}, "OK")
	assert.Equal(t, []int{3, 0}, queueIDs(l))
	assert.Equal(t, []int{2}, ids(m.Waiting), "KILJ does not start waiting jobs (BUG-COMPAT)")
	assert.Equal(t, 2, m.Free.Cores)

	applied(t, l, protocol.Migrate{JobID: 2, From: med, To: lg}, "OK")
	g, _ := l.Machine(lg)
	assert.Equal(t, protocol.Booting, g.State)
	assert.Equal(t, map[int]int{2: 160}, starts(g.Waiting), "a migrated job restarts, here after a boot")
	assert.Equal(t, map[int]int{1: 60}, starts(m.Running))

	assert.Equal(t, -1, l.Dequeued(), "no DEQJ yet")
	applied(t, l, protocol.Dequeue{QID: 0}, "OK")
	assert.Equal(t, []int{0}, queueIDs(l))
	assert.Equal(t, 0, l.Queue()[0].QID, "QIDs are renumbered")
	assert.Equal(t, 3, l.Dequeued(), "the job the DEQJ took out")
	applied(t, l, protocol.Dequeue{QID: 1}, "OK") // a queue longer than the ledger knew
	assert.Equal(t, -1, l.Dequeued(), "the ledger cannot name the job")
	assert.Equal(t, []int{0}, queueIDs(l))

	require.Error(t, l.Applied(protocol.Terminate{Server: med}, "2 jobs killed"), "the ledger knew of one job: a mismatch is reported")
	// A test that forgot to show the ledger the offer is told so.
	assert.EqualError(t, l.Applied(protocol.Schedule{JobID: 99, Server: med}, "OK"),
		"ledger: SCHD 99 to "+med.String()+": job 99 was never offered (JOBN or JOBP) to the ledger")
	assert.EqualError(t, l.Applied(protocol.Schedule{JobID: 1, Server: protocol.ServerRef{Type: "nosuch"}}, "OK"),
		"ledger: SCHD 1 to nosuch 0: no such server")
	assert.Equal(t, protocol.Inactive, m.State)
	assert.Equal(t, []int{0, 1}, queueIDs(l))
	assert.Equal(t, 4, m.Free.Cores)

	l.Observe(&protocol.ServerFailed{Server: lg, Time: 120})
	assert.Equal(t, protocol.Unavailable, g.State)
	assert.Equal(t, []int{0, 1, 2}, queueIDs(l))
	assert.Equal(t, 0, g.Free.Cores)
	assert.Equal(t, 1, g.Failures)
	l.Observe(&protocol.ServerRecovered{Server: lg, Time: 200})
	assert.Equal(t, protocol.Inactive, g.State)
	assert.Equal(t, 8, g.Free.Cores)

	// A second recovery of a server whose failures overlapped (the first
	// recovery left it inactive, a job was placed there): the reset fails
	// the job into the global queue, with no RESF.
	l.Observe(&protocol.JobOffer{Job: protocol.Job{ID: 7, Submit: 210, Cores: 2, Memory: 100, Disk: 100, EstRunTime: 50}})
	applied(t, l, protocol.Schedule{JobID: 7, Server: lg}, "OK")
	assert.Equal(t, protocol.Booting, g.State)
	l.Observe(&protocol.ServerRecovered{Server: lg, Time: 300})
	assert.Equal(t, protocol.Inactive, g.State)
	assert.Empty(t, g.Waiting)
	assert.Empty(t, g.Running)
	assert.Equal(t, []int{0, 1, 2, 7}, queueIDs(l))
}

func queueIDs(l *strategies.Ledger) []int {
	out := []int{}
	for _, q := range l.Queue() {
		out = append(out, q.ID)
	}
	return out
}

// Filter, then score: MinBy's keys in order, the first candidate on ties.
func TestFilterMinBy(t *testing.T) {
	l, _ := libraD3Ledger(t)
	job, _ := l.Offered()
	v := &strattest.FakeView{Refused: []protocol.ServerRef{ref("large", 0)}}
	cands := l.Candidates(strategies.CapableOf(job.Req()), strategies.Usable, strategies.NotExcluded(v))
	assert.Len(t, cands, 3, "large#0 refused the job")
	best, ok := strategies.MinBy(cands, strategies.PoweredFirst, strategies.ByRatePerCore)
	require.True(t, ok)
	assert.Equal(t, ref("small", 1), best.Ref, "powered first, then 0.1/core: small#1 before medium#0 by GETS order")
	best, _ = strategies.MinBy(cands, strategies.ByHourlyRate)
	assert.Equal(t, ref("small", 0), best.Ref, "equal rates: the first in GETS order")
	_, ok = strategies.MinBy([]*strategies.Machine{}, strategies.ByHourlyRate)
	assert.False(t, ok)

	recs := []protocol.Server{rec("a", 0, protocol.Unavailable, -1, 1, 1, 1, 0, 0), rec("a", 1, protocol.Idle, 0, 1, 1, 1, 0, 0), rec("large", 0, protocol.Inactive, -1, 1, 1, 1, 0, 0)}
	kept := strategies.Filter(recs, strategies.RecordUsable, strategies.RecordNotExcluded(v))
	assert.Equal(t, []protocol.Server{recs[1]}, kept)
	assert.Equal(t, []protocol.Server{recs[1]}, strategies.Filter(recs, strategies.RecordPowered))
}

// When an empty server's billing ends: its last completion, its boot end
// while booting, -1 when off.
func TestEmptyBilledUntil(t *testing.T) {
	l := strategies.NewLedger(libraD3System())
	small := ref("small", 0)
	m, _ := l.Machine(small)
	assert.Equal(t, -1, l.EmptyBilledUntil(m))
	l.Observe(newJob(0, 100, 1, 50))
	applied(t, l, protocol.Schedule{JobID: 0, Server: small}, "OK")
	applied(t, l, protocol.Migrate{JobID: 0, From: small, To: ref("small", 1)}, "OK")
	other, _ := l.Machine(ref("small", 1))
	assert.Equal(t, 160, l.EmptyBilledUntil(other), "booting: its boot end")
	l.Observe(&protocol.JobCompleted{Time: 230, JobID: 0, Server: ref("small", 1)})
	assert.Equal(t, 230, l.EmptyBilledUntil(other), "emptied at 230")
	l.Observe(newJob(1, 400, 1, 50))
	assert.Equal(t, 230, l.EmptyBilledUntil(other), "still 230 once idle")
}

// LowestInactive follows every way a server leaves or re-enters the
// inactive state, whoever's action it was: a boot by SCHD or MIGJ, TERM, a
// booting server left empty by MIGJ, a failure of an inactive or a powered
// server, a recovery, and Resync.
func TestLedgerLowestInactive(t *testing.T) {
	sys := strattest.System(
		servertypes.Type{Name: "small", Limit: 4, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "large", Limit: 1, BootupTime: 60, HourlyRate: 0.8, Cores: 8, Memory: 32000, Disk: 256000},
	)
	l := strategies.NewLedger(sys)
	sched := func(job, id int) func() {
		return func() {
			l.Observe(newJob(job, 10, 1, 100))
			applied(t, l, protocol.Schedule{JobID: job, Server: ref("small", id)}, "OK")
		}
	}
	for _, step := range []struct {
		what string
		do   func()
		want int // small's lowest inactive id, -1 for none
	}{
		{"nothing booted", func() {}, 0},
		{"small 0 boots", sched(0, 0), 1},
		{"small 2 boots: not the lowest", sched(1, 2), 1},
		{"small 1 boots: the walk passes small 2", sched(2, 1), 3},
		{"TERM small 0", func() { applied(t, l, protocol.Terminate{Server: ref("small", 0)}, "1 jobs killed") }, 0},
		{"small 0 boots again", sched(3, 0), 3},
		{"small 3, the last one off, fails", func() { l.Observe(&protocol.ServerFailed{Server: ref("small", 3), Time: 20}) }, -1},
		{"small 1, booting, fails", func() { l.Observe(&protocol.ServerFailed{Server: ref("small", 1), Time: 20}) }, -1},
		{"small 1 recovers", func() { l.Observe(&protocol.ServerRecovered{Server: ref("small", 1), Time: 30}) }, 1},
		{"small 3 recovers", func() { l.Observe(&protocol.ServerRecovered{Server: ref("small", 3), Time: 30}) }, 1},
		{"MIGJ boots small 1 and leaves small 2, booting, empty: off", func() {
			applied(t, l, protocol.Migrate{JobID: 1, From: ref("small", 2), To: ref("small", 1)}, "OK")
		}, 2},
	} {
		step.do()
		m, ok := l.LowestInactive("small")
		got := -1
		if ok {
			got = m.Ref.ID
			assert.Equal(t, protocol.Inactive, m.State, step.what)
		}
		assert.Equal(t, step.want, got, step.what)
		g, ok := l.LowestInactive("large")
		assert.True(t, ok && g.Ref.ID == 0, "%s: large 0 is never touched", step.what)
	}
	_, ok := l.LowestInactive("medium")
	assert.False(t, ok, "an unknown type has none")

	v := &strattest.FakeView{
		All: []protocol.Server{
			rec("small", 0, protocol.Inactive, -1, 2, 4000, 16000, 0, 0),
			rec("small", 1, protocol.Idle, 50, 2, 4000, 16000, 0, 0),
			rec("small", 2, protocol.Inactive, -1, 2, 4000, 16000, 0, 0),
			rec("small", 3, protocol.Unavailable, -1, 0, 0, 0, 0, 0),
			rec("large", 0, protocol.Idle, 50, 8, 32000, 256000, 0, 0),
		},
		LSTQ: []protocol.QueuedJob{},
	}
	require.NoError(t, l.Resync(v))
	m, ok := l.LowestInactive("small")
	assert.True(t, ok && m.Ref.ID == 0, "Resync: what GETS All says, small 0 off below small 1")
	_, ok = l.LowestInactive("large")
	assert.False(t, ok, "Resync: the large server is idle")
}
