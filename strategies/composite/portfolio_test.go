package composite

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// Which proposal a portfolio takes, and whose it is (memberNJobs once the
// client has carried it out): the job is 2 cores, 100 s, on clusterView,
// where big 0 holds it at once inside its billing (score 0), small 1 at
// once but bills its idle gap, and ENQJ and PSHJ have no prediction.
func TestPortfolioPassesOver(t *testing.T) {
	big0 := strategies.Sched(jb(1, 2, 100), ref("big", 0))
	for _, tc := range []struct {
		what    string
		members string
		want    []protocol.Action // nil: ErrNoServer
		given   []float64
	}{
		{"a member with nothing to propose is passed over",
			"[test-fixed:to=none; test-fixed:to=big]", big0, []float64{0, 1}},
		{"no member with a proposal: nothing to propose",
			"[test-fixed:to=none; test-fixed:to=none]", nil, []float64{0, 0}},
		{"a tie goes to the first member",
			"[test-fixed:to=big; test-fixed:to=big]", big0, []float64{1, 0}},
		{"ENQJ is taken only when no member schedules",
			"[test-fixed:to=enqj; test-fixed:to=big]", big0, []float64{0, 1}},
		{"PSHJ is taken only when no member schedules",
			"[test-fixed:to=pshj; test-fixed:to=small,id=1]", strategies.Sched(jb(1, 2, 100), ref("small", 1)), []float64{0, 1}},
		{"ENQJ when no other member has a proposal",
			"[test-fixed:to=none; test-fixed:to=enqj]", []protocol.Action{protocol.Enqueue{}}, []float64{0, 1}},
		{"ENQJ and PSHJ tie (no prediction): the first member's",
			"[test-fixed:to=pshj; test-fixed:to=enqj]", []protocol.Action{protocol.Push{}}, []float64{1, 0}},
	} {
		c := makeComposite(t, map[string]string{"members": tc.members, "mode": "portfolio"})
		v := clusterView(t)
		j := jb(1, 2, 100)
		offer(v, j)
		acts, err := c.Job(v, j)
		if tc.want == nil {
			assert.ErrorIs(t, err, strategies.ErrNoServer, tc.what)
		} else {
			require.NoError(t, err, tc.what)
			assert.Equal(t, tc.want, acts, tc.what)
			accept(t, c, v, acts)
		}
		assert.Equal(t, tc.given, metricValues(c)[:2], tc.what)
	}
}

// When no member proposes, the portfolio's error is the first member's
// that says why, named by its member; with none saying more than the
// sentinel, the sentinel. Either way errors.Is finds ErrNoServer.
func TestPortfolioNoServerKeepsTheReason(t *testing.T) {
	for _, tc := range []struct {
		members string
		want    string // the error's text
	}{
		{"[test-fixed:to=none; test-fixed:to=none]", strategies.ErrNoServer.Error()},
		{"[test-fixed:to=none; test-fixed:to=why,id=2]",
			"member 2 (test-fixed): test: no server can take the job: job 1 fits nothing (reason 2)"},
		{"[test-fixed:to=why,id=1; test-fixed:to=why,id=2]",
			"member 1 (test-fixed): test: no server can take the job: job 1 fits nothing (reason 1)"},
		{"[test-fixed:to=why,id=1; test-fixed:to=big]", ""},
	} {
		c := makeComposite(t, map[string]string{"members": tc.members, "mode": "portfolio"})
		v := clusterView(t)
		j := jb(1, 2, 100)
		offer(v, j)
		_, err := c.Job(v, j)
		if tc.want == "" {
			assert.NoError(t, err, tc.members)
			continue
		}
		assert.ErrorIs(t, err, strategies.ErrNoServer, tc.members)
		assert.EqualError(t, err, tc.want, tc.members)
	}
}

// The shared view copies records into its memory (the simulator reuses
// its GETS buffer: a later query overwrites what an earlier one returned)
// and out of it (a member may sort or change what it is given): every
// member sees the records the server sent.
func TestSharedViewCopiesRecords(t *testing.T) {
	for _, tc := range []struct{ what, members string }{
		{"a later query reuses the buffer", "[test-peek:avail=true; test-peek]"},
		{"the first member changes its answer", "[test-peek:scribble=true; test-peek]"},
		{"a member changes an answer from memory", "[test-peek; test-peek:scribble=true; test-peek]"},
	} {
		lastPeek = nil
		s, err := strategies.New("composite", map[string]string{"members": tc.members, "mode": "portfolio"})
		require.NoError(t, err)
		v := &reusingView{FakeView: clusterView(t)}
		j := jb(1, 2, 100)
		offer(v.FakeView, j)
		_, err = s.Job(v, j)
		require.ErrorIs(t, err, strategies.ErrNoServer)
		for i, p := range lastPeek {
			assert.Equal(t, capableRecs, p.saw, "%s: member %d", tc.what, i+1)
		}
		assert.Equal(t, "GETS Capable 2 100 100", v.Sent[0], tc.what)
		assert.NotContains(t, v.Sent[1:], v.Sent[0], "%s: asked once", tc.what)
	}
}

var (
	capableRecs = []protocol.Server{{Type: "small", ID: 0, Cores: 2}, {Type: "small", ID: 1, Cores: 2}}
	availRecs   = []protocol.Server{{Type: "big", ID: 0, Cores: 2}}
)

// reusingView answers GETS Capable and GETS Avail in one buffer, as the
// simulator does.
type reusingView struct {
	*strattest.FakeView
	buf [2]protocol.Server
}

func (r *reusingView) GetsCapable(req protocol.Requirement) ([]protocol.Server, error) {
	r.Sent = append(r.Sent, "GETS Capable "+req.String())
	return r.buf[:copy(r.buf[:], capableRecs)], nil
}

func (r *reusingView) GetsAvail(req protocol.Requirement) ([]protocol.Server, error) {
	r.Sent = append(r.Sent, "GETS Avail "+req.String())
	return r.buf[:copy(r.buf[:], availRecs)], nil
}

// peek is a test member: it asks GETS Capable, then (avail) GETS Avail,
// then (scribble) reverses and changes the records it got, and notes what
// GETS Capable gave it, as it was then. It proposes nothing.
type peek struct {
	avail, scribble bool
	saw             []protocol.Server
}

var lastPeek []*peek

func init() {
	strategies.Register(strategies.Info{Name: "test-peek", Summary: "test member",
		Params: []strategies.Param{{Name: "avail", Kind: strategies.Bool, Default: "false"},
			{Name: "scribble", Kind: strategies.Bool, Default: "false"}},
		New: func(p strategies.Params) (strategies.Strategy, error) {
			m := &peek{avail: p.Bool("avail"), scribble: p.Bool("scribble")}
			lastPeek = append(lastPeek, m)
			return m, nil
		}})
}

func (m *peek) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	recs, err := v.GetsCapable(j.Req())
	if err != nil {
		return nil, err
	}
	m.saw = slices.Clone(recs)
	if m.avail {
		if _, err := v.GetsAvail(j.Req()); err != nil {
			return nil, err
		}
	}
	if m.scribble {
		slices.Reverse(recs)
		recs[0].Cores = -1
	}
	return nil, strategies.ErrNoServer
}

func (m *peek) Event(strategies.View, protocol.Event) ([]protocol.Action, error) { return nil, nil }
