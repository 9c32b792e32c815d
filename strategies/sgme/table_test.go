package sgme_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/baselines"
	_ "github.com/dssim-go/dssim-go/strategies/example"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// Table tests of single decisions through strattest.FakeView: what sgme
// sends and returns in each mode, and what it learns from each event.

var (
	small = protocol.ServerRef{Type: "small", ID: 0}
	big   = protocol.ServerRef{Type: "big", ID: 0}
)

func twoTypes() *servertypes.System {
	return strattest.System(
		servertypes.Type{Name: "small", Limit: 1, Cores: 4, Memory: 1000, Disk: 10000, HourlyRate: 0.4},
		servertypes.Type{Name: "big", Limit: 1, Cores: 4, Memory: 4000, Disk: 10000, HourlyRate: 0.4})
}

func idle(ref protocol.ServerRef, mem int) protocol.Server {
	return protocol.Server{Type: ref.Type, ID: ref.ID, State: protocol.Idle, CurStartTime: 0, Cores: 4, Memory: mem, Disk: 10000}
}

func job(id, mem int) protocol.Job {
	return protocol.Job{ID: id, Submit: 10 * id, Cores: 1, Memory: mem, Disk: 100, EstRunTime: 50}
}

func newSgme(t *testing.T, kv ...string) strategies.Strategy {
	t.Helper()
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	s, err := strategies.New("sgme", m)
	require.NoError(t, err)
	return s
}

func outcome(t *testing.T, s strategies.Strategy, v strategies.View, a protocol.Action, err *protocol.ServerError) []protocol.Action {
	t.Helper()
	more, e := s.(strategies.OutcomeObserver).Outcome(v, strategies.Outcome{Action: a, Reply: "OK", Err: err})
	require.NoError(t, e)
	return more
}

// Real mode sends exactly the base's queries and actions (and never a
// query with less than the request, Part F).
func TestRealModeIsTheBase(t *testing.T) {
	for _, base := range []string{"ff", "bf", "wf"} {
		ref, err := strategies.New(base, nil)
		require.NoError(t, err)
		s := newSgme(t, "base", base)
		for i, mem := range []int{2000, 800, 2000} {
			vr := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(small, 1000), idle(big, 4000)}}
			vs := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(small, 1000), idle(big, 4000)}}
			want, err := ref.Job(vr, job(i, mem))
			require.NoError(t, err)
			got, err := s.Job(vs, job(i, mem))
			require.NoError(t, err)
			assert.Equal(t, want, got, base)
			assert.Equal(t, vr.Sent, vs.Sent, base)
		}
	}
}

// Mock mode: the first job goes out as SCHM with its request; "invalid
// command" turns estimation off and the job gets the base's SCHD; every
// later job is the base's alone.
func TestMockModeDetectionFallback(t *testing.T) {
	s := newSgme(t, "base", "ff", "mode", "mock")
	v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(big, 4000)}}
	acts, err := s.Job(v, job(0, 2000))
	require.NoError(t, err)
	schm := protocol.ScheduleMem{JobID: 0, Server: big, AllocMem: 2000}
	require.Equal(t, []protocol.Action{schm}, acts)
	more := outcome(t, s, v, schm, &protocol.ServerError{Command: schm.String(), Text: "ERR: invalid command (SCHM 0 big 0 2000)"})
	require.Equal(t, []protocol.Action{protocol.Schedule{JobID: 0, Server: big}}, more)
	outcome(t, s, v, more[0], nil)
	v.Sent = nil
	acts, err = s.Job(v, job(1, 2000))
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: big}}, acts)
	assert.Equal(t, []string{"GETS Capable 1 2000 100"}, v.Sent)
}

// extOn makes a mock-mode sgme whose first SCHM (job 0, 2000 MB) was
// accepted and completed: the group (1, 2000) then has E = 1000.
func extOn(t *testing.T, kv ...string) (strategies.Strategy, *strattest.FakeView) {
	t.Helper()
	s := newSgme(t, append([]string{"base", "ff", "mode", "mock"}, kv...)...)
	v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(small, 1000), idle(big, 4000)}}
	acts, err := s.Job(v, job(0, 2000))
	require.NoError(t, err)
	require.Len(t, acts, 1)
	outcome(t, s, v, acts[0], nil)
	_, err = s.Event(v, &protocol.JobCompleted{Time: 100, JobID: 0, Server: acts[0].(protocol.ScheduleMem).Server})
	require.NoError(t, err)
	v.Sent = nil
	return s, v
}

// With the extension the base is asked about a job of memory E' (GETS
// Capable c E' d) and its SCHD becomes SCHM with E'; disk stays at its
// request (Part F: memory only).
func TestMockModeDispatchesEstimate(t *testing.T) {
	s, v := extOn(t)
	acts, err := s.Job(v, job(1, 2000))
	require.NoError(t, err)
	assert.Equal(t, []string{"GETS Capable 1 1000 100"}, v.Sent)
	assert.Equal(t, []protocol.Action{protocol.ScheduleMem{JobID: 1, Server: small, AllocMem: 1000}}, acts)
}

// B.5's feedback mapping: a JOBP of a placed job is a memory failure (the
// retry gets the full request and the group's α drops to 1), unless its
// server failed (RESF), was reset by a recovery (RESR) or was killed by
// the client since: then no update, the re-offer and the next job get the
// unchanged estimate.
func TestMockModeClassifiesJOBP(t *testing.T) {
	cases := []struct {
		name    string
		between func(s strategies.Strategy, v strategies.View)
		retry   int // E' of the re-offer
		next    int // E' of the next new job of the group
	}{
		// Failed at 1000 with only 2000 known good and β = 0: α → 1 and
		// the group goes back to S/α = 2000 (B.2).
		{"memory failure", func(strategies.Strategy, strategies.View) {}, 2000, 2000},
		{"server failed", func(s strategies.Strategy, v strategies.View) {
			_, _ = s.Event(v, &protocol.ServerFailed{Server: small, Time: 150})
		}, 1000, 1000},
		{"server reset by a recovery", func(s strategies.Strategy, v strategies.View) {
			_, _ = s.Event(v, &protocol.ServerRecovered{Server: small, Time: 150})
		}, 1000, 1000},
		{"killed", func(s strategies.Strategy, v strategies.View) {
			_, _ = s.(strategies.OutcomeObserver).Outcome(v, strategies.Outcome{Action: protocol.Kill{Server: small, JobID: 1}, Reply: "OK"})
		}, 1000, 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, v := extOn(t)
			acts, err := s.Job(v, job(1, 2000))
			require.NoError(t, err)
			outcome(t, s, v, acts[0], nil) // job 1 placed at 1000
			c.between(s, v)
			v.Sent = nil
			acts, err = s.Job(v, job(1, 2000)) // JOBP 1
			require.NoError(t, err)
			require.Len(t, acts, 1)
			assert.Equal(t, c.retry, acts[0].(protocol.ScheduleMem).AllocMem, "the re-offer")
			outcome(t, s, v, acts[0], nil)
			acts, err = s.Job(v, job(2, 2000))
			require.NoError(t, err)
			assert.Equal(t, c.next, acts[0].(protocol.ScheduleMem).AllocMem, "the next job of the group")
		})
	}
}

// A refused SCHM after detection (the extension refuses the allocation):
// the job goes with its full request as a plain SCHD.
func TestMockModeRefusedAllocation(t *testing.T) {
	s, v := extOn(t)
	acts, err := s.Job(v, job(1, 2000))
	require.NoError(t, err)
	more := outcome(t, s, v, acts[0], &protocol.ServerError{Command: acts[0].String(), Text: "ERR: invalid allocation (too small)!"})
	assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 1, Server: small}}, more)
}

// Bad parameters are refused before the run, naming the parameter.
func TestBadParameters(t *testing.T) {
	cases := []struct {
		kv   map[string]string
		want string
	}{
		{map[string]string{"base": "nosuch"}, `parameter base=nosuch: unknown base policy "nosuch"`},
		{map[string]string{"base": "sgme"}, "sgme cannot wrap itself"},
		{map[string]string{"base": "fcfs-ff:x=1"}, "fcfs-ff takes no settings"},
		{map[string]string{"base": "cost-reduce:nosuch=1"}, "parameter base=cost-reduce:nosuch=1"},
		{map[string]string{"base": "soonest", "mode": "mock"}, "a ledger strategy cannot be a mock-mode base"},
		{map[string]string{"mode": "fake"}, `parameter mode="fake": want real or mock`},
		{map[string]string{"alpha": "1"}, "parameter alpha: alpha=1: want a finite number > 1"},
		{map[string]string{"alpha": "0.5"}, "parameter alpha"},
		{map[string]string{"beta": "1"}, "parameter beta: beta=1: want a number in [0, 1)"},
		{map[string]string{"beta": "-0.1"}, "parameter beta"},
		{map[string]string{"key": "k9"}, `parameter key="k9": want k1, k2, k3 or k4`},
		{map[string]string{"rounding": "cubic"}, `parameter rounding="cubic": want granularity, levels or paper`},
		{map[string]string{"granularity": "0"}, "parameter granularity: 0"},
		{map[string]string{"floor": "-5"}, "parameter floor"},
		{map[string]string{"retry": "never"}, `parameter retry="never": want full or group`},
	}
	for _, c := range cases {
		_, err := strategies.New("sgme", c.kv)
		if assert.Error(t, err, "%v", c.kv) {
			assert.Contains(t, err.Error(), c.want, "%v", c.kv)
		}
	}
	_, err := strategies.New("sgme", map[string]string{"base": "soonest"})
	assert.NoError(t, err, "a ledger base is fine in real mode")
}
