package libra

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The cluster of libra.md D.3 and D.4: small (2 cores) ×2, medium (4),
// large (8), boot 60 s, 0.1 $ per core-hour everywhere.
func d3System() *servertypes.System {
	return strattest.System(
		servertypes.Type{Name: "small", Limit: 2, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "medium", Limit: 1, BootupTime: 60, HourlyRate: 0.4, Cores: 4, Memory: 16000, Disk: 64000},
		servertypes.Type{Name: "large", Limit: 1, BootupTime: 60, HourlyRate: 0.8, Cores: 8, Memory: 32000, Disk: 256000},
	)
}

func ref(typ string, id int) protocol.ServerRef { return protocol.ServerRef{Type: typ, ID: id} }

func srv(typ string, id int, st protocol.ServerState, cst, c, m, d, w, r int) protocol.Server {
	return protocol.Server{Type: typ, ID: id, State: st, CurStartTime: cst, Cores: c, Memory: m, Disk: d, Waiting: w, Running: r}
}

// d3Records are D.3's GETS All and LSTJ replies at now = 1000.
func d3View(sys *servertypes.System) *strattest.FakeView {
	return &strattest.FakeView{
		Sys: sys, Time: 1000,
		All: []protocol.Server{
			srv("small", 0, protocol.Inactive, -1, 2, 4000, 16000, 0, 0),
			srv("small", 1, protocol.Active, 10, 1, 3500, 15500, 0, 1),
			srv("medium", 0, protocol.Active, 10, 2, 15000, 63000, 1, 1),
			srv("large", 0, protocol.Active, 10, 4, 31000, 255000, 0, 1),
		},
		LSTJ: map[protocol.ServerRef][]protocol.JobRecord{
			ref("small", 1):  {{ID: 21, State: 2, Submit: 950, Start: 950, EstRunTime: 500, Cores: 1, Memory: 500, Disk: 500}},
			ref("medium", 0): {{ID: 22, State: 2, Submit: 900, Start: 900, EstRunTime: 400, Cores: 2, Memory: 1000, Disk: 1000}, {ID: 23, State: 1, Submit: 990, Start: -1, EstRunTime: 200, Cores: 4, Memory: 1000, Disk: 1000}},
			ref("large", 0):  {{ID: 24, State: 2, Submit: 800, Start: 800, EstRunTime: 1000, Cores: 4, Memory: 1000, Disk: 1000}},
		},
		EJWT: map[protocol.ServerRef]int{ref("small", 1): 0, ref("medium", 0): 200, ref("large", 0): 0},
		LSTQ: []protocol.QueuedJob{},
	}
}

// job30 is D.3's new job.
var job30 = protocol.Job{ID: 30, Submit: 1000, Cores: 2, Memory: 1000, Disk: 2000, EstRunTime: 300}

// d3 makes a strategy with settings, its ledger learnt from D.3's records
// (Resync, then the fake's log cleared), the existing jobs' QoS as D.3 and
// D.4 give them, and the new job's QoS q.
func d3(t *testing.T, name string, settings map[string]string, q QoS) (*libra, *strattest.FakeView) {
	t.Helper()
	st, err := strategies.New(name, settings)
	require.NoError(t, err)
	s := st.(*libra)
	sys := d3System()
	v := d3View(sys)
	v.Book = strategies.NewLedger(sys)
	v.Book.Observe(&protocol.JobOffer{Job: job30})
	require.NoError(t, v.Book.Resync(v))
	v.Sent = nil
	pb := float64(pbaseD2)
	s.book.extra = map[int]QoS{
		21: {RE: 500, D: 550, TSU: 950, TD: 1500, B: 0.02, PR: 0.0001, PBaseRef: pb},
		22: {RE: 400, D: 350, TSU: 900, TD: 1250, B: 0.03, PR: 0.0002, PBaseRef: pb},
		23: {RE: 200, D: 610, TSU: 990, TD: 1600, B: 0.02, PR: 0.0001, PBaseRef: pb},
		24: {RE: 1000, D: 1200, TSU: 800, TD: 2000, B: 0.1, PR: 0.0001, PBaseRef: pb},
	}
	q.PBaseRef = pb
	s.book.set(30, &record{q: q, cores: 2, est: 300, end: -1})
	s.book.order = []int{30}
	return s, v
}

// q30 is the new job's QoS in D.3 (D 600, TD 1600) with budget b and
// penalty rate pr.
func q30(b, pr float64, hard bool) QoS {
	return QoS{RE: 300, D: 600, TSU: 1000, TD: 1600, B: b, PR: pr, High: hard}
}

func (s *libra) judge(t *testing.T, v *strattest.FakeView) []cand {
	t.Helper()
	r := s.book.jobs[30]
	cs, err := s.eval.candidates(v, job30, r.q, s.book.qosFunc(v.Sys, &s.qp))
	require.NoError(t, err)
	return cs
}

// libra.md D.3's table, column by column, from the ledger, from one LSTJ per
// non-empty server, and (new ST only) from the EJWT bound.
func TestD3Table(t *testing.T) {
	type row struct {
		ref                        protocol.ServerRef
		st, tf                     int
		feasible                   bool
		resMax, committed, resFree float64
		ratio, cost, sigma         float64
	}
	want := []row{
		{ref("small", 0), 1060, 1360, true, 1080, 0, 480, 1.2250, 0.020417, 0},
		{ref("small", 1), 1450, 1750, false, 1200, 450, 150, 1.8000, 0.030000, 0.1250},
		{ref("medium", 0), 1500, 1800, false, 2400, 1400, 400, 1.6000, 0.026667, 0.1370},
		{ref("large", 0), 1000, 1300, true, 4800, 2400, 1800, 1.2667, 0.021111, 0},
	}
	for _, tl := range []string{fromLedger, fromLSTJ} {
		s, v := d3(t, "libraplus", map[string]string{"timeline": tl}, q30(1, 0, false))
		cs := s.judge(t, v)
		require.Len(t, cs, 4)
		for i, w := range want {
			c := cs[i]
			assert.Equal(t, w.ref, c.m.Ref, tl)
			assert.Equal(t, [2]int{w.st, w.tf}, [2]int{c.st, c.tf}, "%s %s", tl, w.ref)
			assert.Equal(t, w.feasible, c.feasible(s.book.jobs[30].q, 2), "%s %s", tl, w.ref)
			assert.Equal(t, [3]float64{w.resMax, w.committed, w.resFree}, [3]float64{c.resMax, c.committed, c.resFree}, "%s %s", tl, w.ref)
			ratio, cost, ok := c.price(1, 0.1, 2, 300)
			require.True(t, ok)
			assert.InDelta(t, w.ratio, ratio, 5e-5, "%s %s", tl, w.ref)
			assert.InDelta(t, w.cost, cost, 5e-7, "%s %s", tl, w.ref)
			assert.InDelta(t, w.sigma, c.sigma, 5e-5, "%s %s", tl, w.ref)
		}
		if tl == fromLSTJ {
			assert.Equal(t, []string{"LSTJ small 1", "LSTJ medium 0", "LSTJ large 0"}, v.Sent, "one LSTJ per non-empty candidate")
		} else {
			assert.Empty(t, v.Sent, "the ledger answers everything")
		}
	}
}

// Part F: the EJWT bound is never below the LSTJ prediction.
func TestEJWTBoundAtLeastLSTJ(t *testing.T) {
	s, v := d3(t, "libra", map[string]string{"timeline": fromLSTJ}, q30(1, 0, false))
	exact := s.judge(t, v)
	starts := make([]int, len(exact))
	for i := range exact {
		starts[i] = exact[i].st
	}
	s, v = d3(t, "libra", map[string]string{"timeline": fromEJWT}, q30(1, 0, false))
	bound := s.judge(t, v)
	assert.Equal(t, []string{"EJWT small 1", "EJWT medium 0", "EJWT large 0"}, v.Sent)
	for i := range bound {
		assert.GreaterOrEqual(t, bound[i].st, starts[i], "%s", bound[i].m.Ref)
	}
	assert.Equal(t, []int{1060, 1450, 1500, 1800}, []int{bound[0].st, bound[1].st, bound[2].st, bound[3].st})
}

func decideOn(t *testing.T, name string, settings map[string]string, q QoS) (protocol.ServerRef, *record, []string) {
	t.Helper()
	s, v := d3(t, name, settings, q)
	acts, err := s.Job(v, job30)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	sc, ok := acts[0].(protocol.Schedule)
	require.True(t, ok, "%v", acts)
	return sc.Server, s.book.jobs[30], v.Sent
}

// D.3's outcomes for Libra, Libra+$ and LibraRiskD.
func TestD3Outcomes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]string
		budget   float64
		want     protocol.ServerRef
		accepted bool
		reason   string
	}{
		{"libra", nil, 1, ref("large", 0), true, ""},
		{"libra", map[string]string{"preferPowered": "false"}, 1, ref("small", 0), true, ""},
		{"libraplus", nil, 0.0212, ref("large", 0), true, ""},
		{"libraplus", nil, 0.021, ref("small", 0), true, ""},
		{"libraplus", map[string]string{"preferPowered": "false"}, 0.0205, ref("small", 0), true, ""},
		{"libraplus", nil, 0.0200, ref("large", 0), false, reasonBudget},
		{"libraplus", map[string]string{"preferPowered": "false"}, 0.0200, ref("large", 0), false, reasonBudget},
		{"librariskd", nil, 1, ref("large", 0), true, ""},
		{"librariskd", map[string]string{"preferPowered": "false"}, 1, ref("small", 0), true, ""},
	} {
		got, r, sent := decideOn(t, tc.name, tc.settings, q30(tc.budget, 0.0001, false))
		assert.Equal(t, tc.want, got, "%s %v B=%v", tc.name, tc.settings, tc.budget)
		assert.Equal(t, tc.accepted, r.accepted, "%s %v B=%v", tc.name, tc.settings, tc.budget)
		assert.Equal(t, tc.reason, r.reason, "%s %v B=%v", tc.name, tc.settings, tc.budget)
		assert.Empty(t, sent)
	}
	// The charge Libra+$ records is the cost on the chosen server.
	_, r, _ := decideOn(t, "libraplus", nil, q30(1, 0, false))
	assert.InDelta(t, 0.021111, r.charge, 5e-7)
}

// libra.md D.4: LibraSLA's returns on the same timeline, and its choices.
func TestD4Table(t *testing.T) {
	s, v := d3(t, "librasla", nil, q30(0.05, 0.0001, false))
	cs := s.judge(t, v)
	want := []struct {
		ret    float64
		dy     int
		u      float64
		newRet float64
	}{
		{0, 0, 0.05, 2.777778e-07},
		{7.272727e-08, 150, 0.035, 2.671717e-07},
		{3.067916e-07, 200, 0.03, 4.734582e-07},
		{8.333333e-08, 0, 0.05, 3.611111e-07},
	}
	for i, w := range want {
		c := cs[i]
		assert.InDelta(t, w.ret, c.ret, 5e-14, "%s", c.m.Ref)
		assert.Equal(t, w.dy, c.dyNew, "%s", c.m.Ref)
		assert.InDelta(t, w.u, c.uNew, 1e-12, "%s", c.m.Ref)
		assert.InDelta(t, w.newRet, c.newRet, 5e-14, "%s", c.m.Ref)
	}
	for _, tc := range []struct {
		settings map[string]string
		hard     bool
		want     protocol.ServerRef
	}{
		{nil, false, ref("medium", 0)},
		{map[string]string{"slaSelect": "marginal"}, false, ref("large", 0)},
		{nil, true, ref("large", 0)},
	} {
		got, r, _ := decideOn(t, "librasla", tc.settings, q30(0.05, 0.0001, tc.hard))
		assert.Equal(t, tc.want, got, "%v hard=%v", tc.settings, tc.hard)
		assert.True(t, r.accepted)
	}
}
