package example

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/baselines" // ff, the comparison
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

func job(id, submit, cores, est int) protocol.Job {
	return protocol.Job{ID: id, Submit: submit, Cores: cores, Memory: 500, Disk: 500, EstRunTime: est}
}

func ref(typ string, id int) protocol.ServerRef { return protocol.ServerRef{Type: typ, ID: id} }

// A cluster of two 2-core servers (0.2 $/h, boot 60) and one 4-core server
// (0.2 $/h: cheaper per core, boot 30), driven into a known state through
// the ledger's own update rules, as the client would drive it.
func cluster(t *testing.T) (strategies.Strategy, *strattest.FakeView) {
	sys := strattest.System(
		servertypes.Type{Name: "two", Limit: 2, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "four", Limit: 1, BootupTime: 30, HourlyRate: 0.2, Cores: 4, Memory: 16000, Disk: 64000},
	)
	l := strategies.NewLedger(sys)
	s, err := strategies.New("soonest", nil)
	require.NoError(t, err)
	return s, &strattest.FakeView{Sys: sys, Book: l}
}

func offer(v *strattest.FakeView, j protocol.Job) {
	v.Time = j.Submit
	v.Book.Observe(&protocol.JobOffer{Job: j})
}

// The decisions, one row per situation; the strategy never queries the
// server (v.Sent stays empty): the ledger answers everything.
func TestSoonestDecisions(t *testing.T) {
	s, v := cluster(t)
	steps := []struct {
		what     string
		job      protocol.Job
		refused  []protocol.ServerRef
		want     protocol.ServerRef
		schedule bool // apply the decision to the ledger
	}{
		{"all inactive: the 4-core boots soonest (30 s)", job(0, 0, 2, 100), nil, ref("four", 0), true},
		{"the booting 4-core still has 2 cores at its boot end", job(1, 5, 2, 100), nil, ref("four", 0), true},
		{"full until 130; a 2-core boots by 70", job(2, 10, 2, 100), nil, ref("two", 0), true},
		{"refused by two#0: its twin", job(3, 20, 1, 50), []protocol.ServerRef{ref("two", 0)}, ref("two", 1), false},
		{"a 5-core job fits nowhere", job(4, 20, 5, 50), nil, protocol.ServerRef{}, false},
	}
	for _, st := range steps {
		offer(v, st.job)
		v.Refused = st.refused
		acts, err := s.Job(v, st.job)
		if st.want == (protocol.ServerRef{}) {
			assert.ErrorIs(t, err, strategies.ErrNoServer, st.what)
			continue
		}
		require.NoError(t, err, st.what)
		assert.Equal(t, strategies.Sched(st.job, st.want), acts, st.what)
		if st.schedule {
			require.NoError(t, v.Book.Applied(acts[0], "OK"))
		}
	}
	assert.Empty(t, v.Sent, "every answer came from the ledger")
}

// Power-off on completion, and the outcome hook's refusal to pass over a
// TERM that killed jobs.
func TestSoonestEventsAndOutcomes(t *testing.T) {
	s, v := cluster(t)
	j := job(0, 0, 2, 100)
	offer(v, j)
	require.NoError(t, v.Book.Applied(protocol.Schedule{JobID: 0, Server: ref("four", 0)}, "OK"))
	done := &protocol.JobCompleted{Time: 130, JobID: 0, Server: ref("four", 0)}
	v.Book.Observe(done)
	acts, err := s.Event(v, done)
	require.NoError(t, err)
	assert.Equal(t, []protocol.Action{protocol.Terminate{Server: ref("four", 0)}}, acts)

	obs := s.(strategies.OutcomeObserver)
	more, err := obs.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "0 jobs killed"})
	assert.NoError(t, err)
	assert.Empty(t, more)
	_, err = obs.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "1 jobs killed", Killed: 1})
	assert.ErrorContains(t, err, "killed 1 job(s)")
	_, err = obs.Outcome(v, strategies.Outcome{Action: acts[0], Err: &protocol.ServerError{Command: "TERM four 0", Text: "ERR: invalid server termination command (TERM four 0)!"}})
	assert.ErrorContains(t, err, "out of step")
}

// Whole runs in-process: every job completes (on the embedded suite and on
// three fixtures, as many as ff completes), and powering idle servers off
// costs less than keeping them on. The comparison with ff is logged, not
// asserted: earliest predicted start is a heuristic on estimates, faster
// than ff on two of these fixtures and slower on config100-short-med.
func TestSoonestRuns(t *testing.T) {
	for _, name := range configs.Names() {
		m, err := strattest.RunFS(configs.FS(), name, mustNew(t, nil))
		require.NoError(t, err, name)
		assert.Positive(t, m.Jobs, name)
	}
	dir := fixtures.Dir(t)
	for _, fx := range []string{"config20-med-high", "config100-short-med", "sample-config03"} {
		path := filepath.Join(dir, "fixtures", fx)
		soon, err := strattest.Run(path, mustNew(t, nil))
		require.NoError(t, err, fx)
		always, err := strattest.Run(path, mustNew(t, map[string]string{"powerOff": "false"}))
		require.NoError(t, err, fx)
		ff, err := strattest.RunNamed(path, "ff", nil)
		require.NoError(t, err, fx)
		assert.Equal(t, ff.Jobs, soon.Jobs, fx)
		assert.Zero(t, soon.LedgerMismatches, "%s: the ledger kept in step with the simulator", fx)
		assert.Less(t, soon.TotalCost, always.TotalCost, "%s: powering idle servers off saves money", fx)
		t.Logf("%s: soonest %d s $%.2f; powerOff=false %d s $%.2f; ff %d s $%.2f", fx,
			soon.AvgTurnaround, soon.TotalCost, always.AvgTurnaround, always.TotalCost, ff.AvgTurnaround, ff.TotalCost)
	}
}

func mustNew(t *testing.T, settings map[string]string) strategies.Strategy {
	s, err := strategies.New("soonest", settings)
	require.NoError(t, err)
	return s
}

// The cost of the ledger: a whole in-process run of config100-long-high
// (2,000 jobs, 100 servers), where every decision predicts the job's start
// on every capable server, against the same run with ff.
func BenchmarkSoonestConfig100LongHigh(b *testing.B) {
	path := filepath.Join(fixtures.Dir(b), "fixtures", "config100-long-high")
	for _, name := range []string{"soonest", "ff"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := strategies.New(name, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := strattest.Run(path, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
