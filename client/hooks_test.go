package client_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

var a0, a1 = protocol.ServerRef{Type: "a", ID: 0}, protocol.ServerRef{Type: "a", ID: 1}

// hooked is a strategy with every hook; its behaviour is set per test.
type hooked struct {
	strategies.WithLedger
	start    func(v strategies.View) error
	job      func(v strategies.View, j protocol.Job) ([]protocol.Action, error)
	event    func(v strategies.View, ev protocol.Event) ([]protocol.Action, error)
	outcome  func(v strategies.View, o strategies.Outcome) ([]protocol.Action, error)
	outcomes []string // "<action> -> <reply or ERR text> [killed n]"
}

// deepHooked is hooked declaring how deeply its outcome answers may nest.
type deepHooked struct {
	*hooked
	depth int
}

func (d deepHooked) OutcomeDepth() int { return d.depth }

func (h *hooked) Start(v strategies.View) error {
	if h.start == nil {
		return nil
	}
	return h.start(v)
}

func (h *hooked) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	return h.job(v, j)
}

func (h *hooked) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	if h.event == nil {
		return nil, nil
	}
	return h.event(v, ev)
}

func (h *hooked) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	s := o.Action.String() + " -> "
	if o.OK() {
		s += o.Reply
	} else {
		s += o.Err.Text
	}
	if o.Killed > 0 {
		s += fmt.Sprintf(" [killed %d]", o.Killed)
	}
	h.outcomes = append(h.outcomes, s)
	if h.outcome == nil {
		return nil, nil
	}
	return h.outcome(v, o)
}

func schedOn(ref protocol.ServerRef) func(strategies.View, protocol.Job) ([]protocol.Action, error) {
	return func(_ strategies.View, j protocol.Job) ([]protocol.Action, error) {
		return strategies.Sched(j, ref), nil
	}
}

// Start runs once, after the handshake, with the server types known and
// before the first REDY; what it asks is on the wire before REDY.
func TestStartHook(t *testing.T) {
	b := &fakeBackend{events: []string{"NONE"}}
	h := &hooked{job: schedOn(a0), start: func(v strategies.View) error {
		require.NotNil(t, v.System())
		require.NotNil(t, v.Ledger(), "a WithLedger strategy has its ledger from the start")
		_, err := v.GetsAll()
		return err
	}}
	_, err := run(h, b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "GETS All", "REDY", "QUIT"}, b.log)

	b = &fakeBackend{events: []string{"NONE"}}
	_, err = run(&hooked{job: schedOn(a0), start: func(strategies.View) error { return errors.New("no") }}, b)
	assert.EqualError(t, err, "strategy start: no")
	assert.Equal(t, []string{"HELO", "AUTH root", "QUIT"}, b.log)
}

// Every accepted action is reported, TERM with its kill count, after the
// ledger has taken it into account; the hook's answer is carried out at
// once, before the rest of the list.
func TestOutcomeOfAcceptedActions(t *testing.T) {
	b := &fakeBackend{
		events:  []string{"JOBN 0 10 1 100 100 5", "NONE"},
		replies: map[string]string{"TERM a 1": "2 jobs killed"},
	}
	h := &hooked{
		job: func(_ strategies.View, j protocol.Job) ([]protocol.Action, error) {
			return []protocol.Action{protocol.Terminate{Server: a1}, protocol.Schedule{JobID: j.ID, Server: a0}}, nil
		},
		outcome: func(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
			if _, ok := o.Action.(protocol.Terminate); ok {
				return []protocol.Action{protocol.Dequeue{QID: 0}}, nil
			}
			if _, ok := o.Action.(protocol.Schedule); ok {
				m, _ := v.Ledger().Machine(a0)
				assert.Equal(t, protocol.Booting, m.State, "the ledger saw the SCHD before the hook")
			}
			return nil, nil
		},
	}
	res, err := run(h, b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "TERM a 1", "DEQJ GQ 0", "SCHD 0 a 0", "REDY", "QUIT"}, b.log)
	assert.Equal(t, []string{"TERM a 1 -> 2 jobs killed [killed 2]", "DEQJ GQ 0 -> OK", "SCHD 0 a 0 -> OK"}, h.outcomes)
	assert.Equal(t, 3, res.Actions)
}

// An ERR to TERM, MIGJ, DEQJ or KILJ reaches the hook instead of ending the
// run; the actions after it in the same list are dropped.
func TestOutcomeOfRefusedEventAction(t *testing.T) {
	b := &fakeBackend{
		events: []string{"JCPL 20 0 a 0", "NONE"},
		refuse: map[string]string{"TERM a 0": "ERR: invalid server termination command (TERM a 0)!"},
	}
	h := &hooked{
		job: schedOn(a0),
		event: func(strategies.View, protocol.Event) ([]protocol.Action, error) {
			return []protocol.Action{protocol.Terminate{Server: a0}, protocol.Terminate{Server: a1}}, nil
		},
		outcome: func(_ strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
			if !o.OK() {
				return []protocol.Action{protocol.Kill{Server: a1, JobID: 3}}, nil
			}
			return nil, nil
		},
	}
	_, err := run(h, b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "TERM a 0", "KILJ a 1 3", "REDY", "QUIT"}, b.log)
	assert.Equal(t, []string{"TERM a 0 -> ERR: invalid server termination command (TERM a 0)!", "KILJ a 1 3 -> OK"}, h.outcomes)
}

// During an offer: a refused SCHD is excluded and reported, a refusal of
// anything else is reported, and Job is asked again while the job is not
// disposed of.
func TestOutcomeDuringOffer(t *testing.T) {
	b := &fakeBackend{
		events: []string{"JOBN 0 10 1 100 100 5", "NONE"},
		refuse: map[string]string{"SCHD 0 a 0": "ERR: The specified server unavailable", "MIGJ 5 a 0 a 1": "ERR: MIGJ 5 a 0 a 1!"},
	}
	var excluded [][]protocol.ServerRef
	h := &hooked{job: func(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
		excluded = append(excluded, append([]protocol.ServerRef(nil), v.Excluded()...))
		switch len(excluded) {
		case 1:
			return []protocol.Action{protocol.Migrate{JobID: 5, From: a0, To: a1}, protocol.Schedule{JobID: j.ID, Server: a1}}, nil
		case 2:
			return strategies.Sched(j, a0), nil
		}
		return strategies.Sched(j, a1), nil
	}}
	res, err := run(h, b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "MIGJ 5 a 0 a 1", "SCHD 0 a 0", "SCHD 0 a 1", "REDY", "QUIT"}, b.log)
	assert.Equal(t, [][]protocol.ServerRef{nil, nil, {a0}}, excluded)
	assert.Equal(t, []string{"MIGJ 5 a 0 a 1 -> ERR: MIGJ 5 a 0 a 1!", "SCHD 0 a 0 -> ERR: The specified server unavailable", "SCHD 0 a 1 -> OK"}, h.outcomes)
	assert.Equal(t, 1, res.Refusals)
}

// The loops a hook could start are bounded: answers nest at most
// MaxOutcomeDepth deep (or the deeper bound a strategy declares with
// DeepOutcomes, never a shallower one), and a job is asked again at most
// MaxOutcomeDepth times without a new server excluded.
func TestOutcomeBounds(t *testing.T) {
	refuse := map[string]string{"TERM a 0": "ERR: invalid server termination command (TERM a 0)!"}
	again := func(strategies.View, strategies.Outcome) ([]protocol.Action, error) {
		return []protocol.Action{protocol.Terminate{Server: a0}}, nil
	}
	for _, declared := range []int{0, 3, 20} {
		b := &fakeBackend{events: []string{"JCPL 20 0 a 0"}, refuse: refuse}
		h := &hooked{job: schedOn(a0), outcome: again, event: func(strategies.View, protocol.Event) ([]protocol.Action, error) {
			return []protocol.Action{protocol.Terminate{Server: a0}}, nil
		}}
		var s strategies.Strategy = h
		want := max(declared, strategies.MaxOutcomeDepth)
		if declared > 0 {
			s = deepHooked{h, declared}
		}
		_, err := run(s, b)
		require.Error(t, err, "declared %d", declared)
		assert.Contains(t, err.Error(), fmt.Sprintf("nested more than %d deep", want), "declared %d", declared)
		assert.Len(t, h.outcomes, want+1, "declared %d", declared)
		assert.Equal(t, "QUIT", b.log[len(b.log)-1])
	}

	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5"}, refuse: refuse}
	calls := 0
	h := &hooked{job: func(strategies.View, protocol.Job) ([]protocol.Action, error) {
		calls++
		return []protocol.Action{protocol.Terminate{Server: a0}, protocol.Enqueue{}}, nil
	}}
	_, err := run(h, b)
	assert.EqualError(t, err, "job 0: still not scheduled after 9 refused attempts that excluded no new server (the last: TERM a 0: ERR: invalid server termination command (TERM a 0)!)")
	assert.Equal(t, strategies.MaxOutcomeDepth+1, calls)
}

// A hook's error ends the run with QUIT, naming the action.
func TestOutcomeError(t *testing.T) {
	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5"}}
	h := &hooked{job: schedOn(a0), outcome: func(strategies.View, strategies.Outcome) ([]protocol.Action, error) {
		return nil, errors.New("ledger wrong")
	}}
	_, err := run(h, b)
	assert.EqualError(t, err, `job 0: strategy, on the outcome of "SCHD 0 a 0": ledger wrong`)
	assert.Equal(t, "QUIT", b.log[len(b.log)-1])
}

// reporter reports what it was given.
type reporter struct {
	hooked
	metrics []strategies.Metric
	truth   *strategies.Truth
	asked   int
}

func (r *reporter) Metrics(v strategies.View, truth *strategies.Truth) []strategies.Metric {
	r.asked++
	r.truth = truth
	_, _ = v.QueueLen() // queries still work: QUIT has not been sent
	return r.metrics
}

// Metrics are asked for once, after NONE and before QUIT, with the truth
// the options give (nil over the wire); a report with a repeated name is
// refused.
func TestMetricsHook(t *testing.T) {
	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5", "NONE"}}
	r := &reporter{hooked: hooked{job: schedOn(a0)}, metrics: []strategies.Metric{{Name: "x", Value: 1}, {Name: "y", Value: 2, Approx: true}}}
	res, err := run(r, b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "SCHD 0 a 0", "REDY", "LSTQ GQ #", "QUIT"}, b.log)
	assert.Equal(t, r.metrics, res.Metrics)
	assert.Nil(t, r.truth)
	assert.Equal(t, 1, r.asked)

	truth := &strategies.Truth{End: 99}
	b = &fakeBackend{events: []string{"NONE"}}
	_, err = client.Run(r, b, client.Options{User: "root", System: system, Truth: func() *strategies.Truth { return truth }})
	require.NoError(t, err)
	assert.Same(t, truth, r.truth)

	b = &fakeBackend{events: []string{"NONE"}}
	r.metrics = []strategies.Metric{{Name: "x"}, {Name: "x"}}
	_, err = run(r, b)
	assert.EqualError(t, err, `strategy metrics: metric "x" reported twice`)
	assert.Equal(t, "QUIT", b.log[len(b.log)-1])
	r.metrics = []strategies.Metric{{Value: 3}}
	_, err = run(r, &fakeBackend{events: []string{"NONE"}})
	assert.EqualError(t, err, "strategy metrics: metric 1 has no name")
}

// ds-server refuses PSHJ only to give up on the run (§5.14: the job pushed
// past 1.5 × the end time, out of the submission queue): the run ends
// there with ds-server's words, QUIT, and nothing asked again, even of a
// strategy with an outcome hook (which once went on to SCHD a job that no
// longer existed and met "No such waiting job exists").
func TestRefusedPushEndsTheRun(t *testing.T) {
	give := "Error: simulation can't continue at Job 7 at 1000"
	for _, s := range []strategies.Strategy{
		stratFunc(func(strategies.View, protocol.Job) ([]protocol.Action, error) {
			return []protocol.Action{protocol.Push{}}, nil
		}),
		&hooked{job: func(strategies.View, protocol.Job) ([]protocol.Action, error) {
			return []protocol.Action{protocol.Push{}}, nil
		}},
	} {
		b := &fakeBackend{events: []string{"JOBP 7 900 1 100 100 5", "NONE"}, refuse: map[string]string{"PSHJ": give}}
		_, err := run(s, b)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "job 7: ds-server gave up on the run ("+give+")")
		assert.ErrorIs(t, err, client.ErrGaveUp)
		assert.Equal(t, []string{"PSHJ", "QUIT"}, b.log[len(b.log)-2:], "QUIT at once, nothing retried")
		if h, ok := s.(*hooked); ok {
			assert.Empty(t, h.outcomes, "not an outcome to answer: the end of the run")
		}
	}
}

// An accepted action the ledger cannot take into account is counted, for
// tests that run without a logger (the fake server accepts a SCHD to a
// server the system does not have).
func TestLedgerMismatchesCounted(t *testing.T) {
	events := func() *fakeBackend {
		return &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5", "JOBN 1 11 1 100 100 5", "NONE"}}
	}
	res, err := run(&hooked{job: schedOn(protocol.ServerRef{Type: "zz", ID: 0})}, events())
	require.NoError(t, err)
	assert.Equal(t, 2, res.LedgerMismatches)
	res, err = run(&hooked{job: schedOn(a0)}, events())
	require.NoError(t, err)
	assert.Zero(t, res.LedgerMismatches)
}
