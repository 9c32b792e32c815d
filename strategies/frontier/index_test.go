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

// firstInactive: one server per type, the first one off; a server passed
// over (refused, or booted by a move the ledger has not seen) lets the
// next one off stand in; a type that cannot hold the job is not walked.
func TestFirstInactive(t *testing.T) {
	sys := strattest.System(
		servertypes.Type{Name: "small", Limit: 3, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 60, HourlyRate: 0.8, Cores: 8, Memory: 32000, Disk: 64000},
	)
	oneCore := protocol.Requirement{Cores: 1, Memory: 1, Disk: 1}
	for _, tc := range []struct {
		what string
		req  protocol.Requirement
		pass []protocol.ServerRef
		want []protocol.ServerRef
	}{
		{"nothing passed over", oneCore, nil, []protocol.ServerRef{ref("small", 0), ref("big", 0)}},
		{"the first small passed over", oneCore, []protocol.ServerRef{ref("small", 0)}, []protocol.ServerRef{ref("small", 1), ref("big", 0)}},
		{"two smalls passed over", oneCore, []protocol.ServerRef{ref("small", 0), ref("small", 1)}, []protocol.ServerRef{ref("small", 2), ref("big", 0)}},
		{"every server of a type passed over: none of it", oneCore, []protocol.ServerRef{ref("small", 0), ref("small", 1), ref("small", 2), ref("big", 0)}, nil},
		{"more cores than small has: big alone", protocol.Requirement{Cores: 3, Memory: 1, Disk: 1}, nil, []protocol.ServerRef{ref("big", 0)}},
		{"more memory than small has: big alone", protocol.Requirement{Cores: 1, Memory: 4001, Disk: 1}, nil, []protocol.ServerRef{ref("big", 0)}},
		{"more than any type has: nothing", protocol.Requirement{Cores: 9, Memory: 1, Disk: 1}, nil, nil},
	} {
		l := strategies.NewLedger(sys)
		var got []protocol.ServerRef
		firstInactive(l, tc.req, func(m *strategies.Machine) { got = append(got, m.Ref) }, nil,
			func(m *strategies.Machine) bool { return slices.Contains(tc.pass, m.Ref) })
		assert.Equal(t, tc.want, got, tc.what)
	}
}

// poweredCluster is a ledger of n 2-core servers (and one big one) with
// the first on of them booted, each by a job of its own, and an index
// that has noted them in id order, as frontier's Outcome does.
func poweredCluster(t *testing.T, n, on int) (*strategies.Ledger, *index) {
	t.Helper()
	sys := strattest.System(
		servertypes.Type{Name: "small", Limit: n, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 300, HourlyRate: 1.6, Cores: 8, Memory: 32000, Disk: 64000},
	)
	l := strategies.NewLedger(sys)
	ix := &index{}
	for id := range on {
		j := jb(id, 0, 1, 1000)
		l.Observe(&protocol.JobOffer{Job: j})
		require.NoError(t, l.Applied(protocol.Schedule{JobID: id, Server: ref("small", id)}, "OK"))
		m, _ := l.Machine(ref("small", id))
		ix.noted(m)
	}
	return l, ix
}

func ids(ms []*strategies.Machine) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Ref.ID
	}
	return out
}

func span(from, to int) []int {
	var out []int
	for id := from; id < to; id++ {
		out = append(out, id)
	}
	return out
}

// Beyond maxScored powered servers, each place scores the next maxScored
// of them round robin (index.powered), and window shows the next window
// without moving on.
func TestIndexRoundRobin(t *testing.T) {
	_, ix := poweredCluster(t, 200, maxScored+2)
	assert.Equal(t, span(0, maxScored), ids(ix.window()), "the first window")
	assert.Equal(t, span(0, maxScored), ids(ix.window()), "window does not move on")
	assert.Equal(t, span(0, maxScored), ids(ix.powered()), "powered returns the window")
	assert.Equal(t, append(span(maxScored, maxScored+2), span(0, maxScored-2)...), ids(ix.window()),
		"then the next one, wrapping round")
	assert.Equal(t, append(span(maxScored, maxScored+2), span(0, maxScored-2)...), ids(ix.powered()))
	assert.Equal(t, []int{maxScored - 2, maxScored - 1}, ids(ix.powered())[:2], "and on round the list")

	_, few := poweredCluster(t, 200, 5)
	for range 3 {
		assert.Equal(t, span(0, 5), ids(few.powered()), "up to maxScored: every one, every time")
	}
}

// Servers switched off stay in the powered list, skipped by the callers
// (they check Powered), until the pruning every pruneEvery scans (place's
// and escape's) drops them; window never prunes.
func TestIndexPrunes(t *testing.T) {
	l, ix := poweredCluster(t, 10, 4)
	for _, id := range []int{1, 3} {
		require.NoError(t, l.Applied(protocol.Terminate{Server: ref("small", id)}, "1 jobs killed"))
	}
	for i := range pruneEvery - 1 {
		scan := ix.powered
		if i%2 == 0 {
			scan = ix.scan
		}
		assert.Equal(t, []int{0, 1, 2, 3}, ids(scan()), "not pruned yet")
	}
	assert.Equal(t, []int{0, 1, 2, 3}, ids(ix.window()), "window does not prune")
	assert.Equal(t, []int{0, 2}, ids(ix.powered()), "the pruning call")
	m, _ := l.Machine(ref("small", 1))
	ix.noted(m)
	assert.Equal(t, []int{0, 2, 1}, ids(ix.window()), "noted again once off: at the end")
}

// replan's escape looks at place's window without moving it on
// (finding 14 of a review: with more than maxScored powered servers, each
// escape of a decision shifted which servers place scored for the job on
// offer).
func TestEscapeLeavesPlacesWindow(t *testing.T) {
	l, ix := poweredCluster(t, 400, 3*maxScored)
	f, _ := cluster(t, nil)
	f.perCoreSecond = 0.1 / 3600
	f.ix = *ix
	v := &strattest.FakeView{Sys: l.System(), Book: l}
	want := ids(f.ix.window())
	_, found := f.escape(l, jb(999, 0, 1, 100), nil, nil)
	assert.True(t, found, "the first inactive small is an escape")
	assert.Equal(t, want, ids(f.ix.window()), "place's next window")
	c, ok := f.place(v, jb(999, 0, 1, 100), nil)
	require.True(t, ok)
	assert.Equal(t, 0, f.ix.rr-maxScored, "place moved the window on, once")
	assert.Equal(t, "small", c.m.Ref.Type)
}

// The Resync path: once the ledger is stale (a JCPL named a job it thought
// was waiting), the ledger is resynchronised from the server, by Job or by
// another member of a composite (the ledger is shared), and frontier notes
// every powered server in the index (index.follow: the ledger's Changes
// cannot tell what a Resync changed), so a server frontier never sent a job
// to (small 1, booted by another member, or whose jobs all left unseen) is
// scored with the powered ones. Before follow, a Resync outside Job left
// small 1 unscored.
func TestResyncRebuildsTheIndex(t *testing.T) {
	for _, byJob := range []bool{true, false} {
		f, v := cluster(t, nil)
		f.perCoreSecond = 0.1 / 3600
		schedule(t, v, jb(0, 0, 2, 1000), ref("small", 0)) // runs 60..1060
		schedule(t, v, jb(1, 0, 2, 100), ref("small", 0))  // waits behind it
		v.Book.Observe(&protocol.JobCompleted{Time: 100, JobID: 1, Server: ref("small", 0)})
		require.True(t, v.Book.Stale(), "job 1 completed while the ledger had it waiting")
		v.All = []protocol.Server{
			{Type: "small", ID: 0, State: protocol.Active, CurStartTime: 60, Cores: 0, Memory: 3900, Disk: 15900, Running: 1},
			{Type: "small", ID: 1, State: protocol.Idle, CurStartTime: 40, Cores: 2, Memory: 4000, Disk: 16000},
			{Type: "big", ID: 0, State: protocol.Inactive, CurStartTime: -1, Cores: 8, Memory: 32000, Disk: 64000},
		}
		v.LSTJ = map[protocol.ServerRef][]protocol.JobRecord{
			ref("small", 0): {{ID: 0, State: protocol.JobStateRunning, Submit: 0, Start: 60, EstRunTime: 1000, Cores: 2, Memory: 100, Disk: 100}},
		}
		v.LSTQ = []protocol.QueuedJob{}
		if !byJob { // another member's Resync
			require.NoError(t, v.Book.Resync(v))
			v.Sent = nil
		}
		acts := decide(t, f, v, jb(2, 100, 2, 100))
		if byJob {
			assert.Equal(t, []string{"GETS All", "LSTJ small 0", "LSTQ GQ #"}, v.Sent, "the Resync's messages, and no other")
		} else {
			assert.Empty(t, v.Sent, "resynchronised already")
		}
		assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 2, Server: ref("small", 1)}}, acts,
			"small 1 is idle: the job starts at once (Resync by Job: %v)", byJob)
	}
}
