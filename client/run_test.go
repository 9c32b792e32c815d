package client_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// fakeBackend plays a list of events and logs every command it is given,
// in wire form. refuse lists commands answered with ERR.
type fakeBackend struct {
	events  []string
	refuse  map[string]string
	replies map[string]string // non-OK replies to accepted actions ("2 jobs killed")
	log     []string
	quitErr error
}

func (b *fakeBackend) call(cmd string) { b.log = append(b.log, cmd) }

func (b *fakeBackend) Handshake(user string) error {
	b.call("HELO")
	b.call("AUTH " + user)
	return nil
}

func (b *fakeBackend) Ready() (protocol.Event, error) {
	b.call("REDY")
	if len(b.events) == 0 {
		return nil, errors.New("fake: no more events")
	}
	ev := b.events[0]
	b.events = b.events[1:]
	if protocol.IsErrReply(ev) {
		return nil, &protocol.ServerError{Command: "REDY", Text: ev}
	}
	return protocol.ParseEvent(ev)
}

func (b *fakeBackend) Do(a protocol.Action) (string, error) {
	cmd := a.String()
	b.call(cmd)
	if text, ok := b.refuse[cmd]; ok {
		return "", &protocol.ServerError{Command: cmd, Text: text}
	}
	if reply, ok := b.replies[cmd]; ok {
		return reply, nil
	}
	return "OK", nil
}

func (b *fakeBackend) Quit() error {
	b.call("QUIT")
	return b.quitErr
}

var servers = []protocol.Server{
	{Type: "a", ID: 0, State: protocol.Inactive, CurStartTime: -1, Cores: 4, Memory: 16000, Disk: 64000},
	{Type: "a", ID: 1, State: protocol.Inactive, CurStartTime: -1, Cores: 4, Memory: 16000, Disk: 64000},
}

func (b *fakeBackend) GetsAll() ([]protocol.Server, error) { b.call("GETS All"); return servers, nil }
func (b *fakeBackend) GetsType(t string) ([]protocol.Server, error) {
	b.call("GETS Type " + t)
	return servers, nil
}
func (b *fakeBackend) GetsOne(s protocol.ServerRef) (protocol.Server, error) {
	b.call("GETS One " + s.String())
	return servers[s.ID], nil
}
func (b *fakeBackend) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	b.call("GETS Capable " + r.String())
	return servers, nil
}
func (b *fakeBackend) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	b.call("GETS Avail " + r.String())
	return servers, nil
}
func (b *fakeBackend) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	b.call("GETS Bounded " + r.String())
	return servers, nil
}
func (b *fakeBackend) ListJobs(s protocol.ServerRef) ([]protocol.JobRecord, error) {
	b.call("LSTJ " + s.String())
	return nil, nil
}
func (b *fakeBackend) CountJobs(s protocol.ServerRef, st protocol.JobState) (int, error) {
	b.call(fmt.Sprintf("CNTJ %s %d", s, st))
	return 0, nil
}
func (b *fakeBackend) EstWait(s protocol.ServerRef) (int, error) {
	b.call("EJWT " + s.String())
	return 0, nil
}
func (b *fakeBackend) QueueLen() (int, error)                   { b.call("LSTQ GQ #"); return 0, nil }
func (b *fakeBackend) ListQueue() ([]protocol.QueuedJob, error) { b.call("LSTQ GQ *"); return nil, nil }

// firstFree schedules as strattest.FirstCapable (the first capable server
// not yet refused), answers CHKQ with DEQJ GQ 0 when dequeue is set, and
// records what it saw.
type firstFree struct {
	dequeue bool
	nows    []int
	seen    [][]protocol.ServerRef // Excluded at each Job call
}

func (s *firstFree) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	s.nows = append(s.nows, v.Now())
	s.seen = append(s.seen, slices.Clone(v.Excluded()))
	return strattest.FirstCapable{}.Job(v, j)
}

func (s *firstFree) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	s.nows = append(s.nows, v.Now())
	if _, ok := ev.(*protocol.CheckQueue); ok && s.dequeue {
		return []protocol.Action{protocol.Dequeue{QID: 0}}, nil
	}
	return nil, nil
}

// stratFunc adapts a function to a Strategy that ignores events.
type stratFunc func(v strategies.View, j protocol.Job) ([]protocol.Action, error)

func (f stratFunc) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) { return f(v, j) }
func (stratFunc) Event(strategies.View, protocol.Event) ([]protocol.Action, error)   { return nil, nil }

func system(client.Backend) (*servertypes.System, error) {
	return servertypes.New("test", []servertypes.Type{{Name: "a", Limit: 2, Cores: 4, Memory: 16000, Disk: 64000}})
}

func run(s strategies.Strategy, b *fakeBackend) (client.Result, error) {
	return client.Run(s, b, client.Options{User: "root", System: system})
}

func TestReadyAfterEachDecisionAndQuitOnNone(t *testing.T) {
	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5", "JCPL 20 0 a 0", "RESF a 1 25", "RESR a 1 30", "JOBP 1 40 2 200 200 9", "NONE"}}
	s := &firstFree{}
	res, err := run(s, b)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"HELO", "AUTH root",
		"REDY", "GETS Capable 1 100 100", "SCHD 0 a 0",
		"REDY", "REDY", "REDY",
		"REDY", "GETS Capable 2 200 200", "SCHD 1 a 0",
		"REDY", "QUIT",
	}, b.log)
	assert.Equal(t, client.Result{Events: 6, Offers: 2, Actions: 2, LastEvent: 40}, res)
	assert.Equal(t, []int{10, 20, 25, 30, 40}, s.nows, "View.Now is the time of the event being handled")
}

func TestRetryWithoutRefusingServer(t *testing.T) {
	b := &fakeBackend{
		events: []string{"JOBN 0 10 1 100 100 5", "NONE"},
		refuse: map[string]string{"SCHD 0 a 0": "ERR: The specified server unavailable"},
	}
	s := &firstFree{}
	res, err := run(s, b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY",
		"GETS Capable 1 100 100", "SCHD 0 a 0", "GETS Capable 1 100 100", "SCHD 0 a 1",
		"REDY", "QUIT"}, b.log)
	assert.Equal(t, [][]protocol.ServerRef{nil, {{Type: "a", ID: 0}}}, s.seen)
	assert.Equal(t, 1, res.Refusals)
}

func TestNoServerLeft(t *testing.T) {
	b := &fakeBackend{
		events: []string{"JOBN 7 10 1 100 100 5", "NONE"},
		refuse: map[string]string{"SCHD 7 a 0": "ERR: The specified server unavailable", "SCHD 7 a 1": "ERR: The specified server unavailable"},
	}
	_, err := run(&firstFree{}, b)
	require.ErrorIs(t, err, strategies.ErrNoServer)
	assert.EqualError(t, err, "job 7: no server can take the job (refused by a 0, a 1)")
	assert.Equal(t, "QUIT", b.log[len(b.log)-1], "QUIT after the failure")

	// Nothing refused: the plain message.
	b = &fakeBackend{events: []string{"JOBN 3 10 1 100 100 5"}}
	_, err = run(stratFunc(func(strategies.View, protocol.Job) ([]protocol.Action, error) { return nil, strategies.ErrNoServer }), b)
	assert.EqualError(t, err, "job 3: no server can take the job")
}

// TestSameServerRefusedTwice: a strategy that picks an excluded server
// again gets the error, not an endless loop.
func TestSameServerRefusedTwice(t *testing.T) {
	b := &fakeBackend{
		events: []string{"JOBN 0 10 1 100 100 5"},
		refuse: map[string]string{"SCHD 0 a 0": "ERR: No such waiting job exists"},
	}
	calls := 0
	_, err := run(stratFunc(func(_ strategies.View, j protocol.Job) ([]protocol.Action, error) {
		calls++
		return strategies.Sched(j, protocol.ServerRef{Type: "a", ID: 0}), nil
	}), b)
	require.Error(t, err)
	assert.True(t, protocol.IsServerError(err))
	assert.Contains(t, err.Error(), `job 0: server refused "SCHD 0 a 0": ERR: No such waiting job exists; a 0 had refused the job before (it is in View.Excluded, which a strategy must skip)`)
	assert.Equal(t, 2, calls)
}

// A second action that disposes of the offered job is the strategy's
// mistake, said as such, not sent to be refused as if a server were full.
func TestSecondDisposingAction(t *testing.T) {
	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5", "NONE"}}
	_, err := run(stratFunc(func(_ strategies.View, j protocol.Job) ([]protocol.Action, error) {
		return append(strategies.Sched(j, protocol.ServerRef{Type: "a", ID: 0}), protocol.Enqueue{}), nil
	}), b)
	assert.EqualError(t, err, `job 0: "ENQJ GQ" after an earlier action of this decision disposed of the job: exactly one action may schedule, enqueue or push the job on offer`)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "SCHD 0 a 0", "QUIT"}, b.log)
}

// A SCHD of another job (one a DEQJ just brought back) does not dispose of
// the job on offer, so the SCHD of that job after it is no second one.
func TestScheduleOfAnotherJobIsNoDisposal(t *testing.T) {
	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5", "JOBN 1 11 1 100 100 5", "NONE"}}
	_, err := run(stratFunc(func(_ strategies.View, j protocol.Job) ([]protocol.Action, error) {
		if j.ID == 0 {
			return []protocol.Action{protocol.Enqueue{}}, nil
		}
		return []protocol.Action{protocol.Dequeue{QID: 0}, protocol.Schedule{JobID: 0, Server: a0}, protocol.Schedule{JobID: 1, Server: a0}}, nil
	}), b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "ENQJ GQ", "REDY", "DEQJ GQ 0", "SCHD 0 a 0", "SCHD 1 a 0", "REDY", "QUIT"}, b.log)
}

// A panic in a strategy ends its run with an error naming where it began,
// and QUIT is sent: one bad strategy must not take a dsbench sweep down.
func TestStrategyPanic(t *testing.T) {
	for name, s := range map[string]strategies.Strategy{
		"job": stratFunc(func(strategies.View, protocol.Job) ([]protocol.Action, error) {
			var m map[string]int
			m["x"]++ // assignment to entry in nil map
			return nil, nil
		}),
		"start": &hooked{start: func(strategies.View) error { panic("not ready") }},
		// Raised inside the standard library: the strategy's line is named.
		"stdlib": stratFunc(func(strategies.View, protocol.Job) ([]protocol.Action, error) {
			return nil, errors.New(strings.Repeat("x", -1))
		}),
		"outcome": &hooked{job: schedOn(a0), outcome: func(strategies.View, strategies.Outcome) ([]protocol.Action, error) {
			var p *protocol.Job
			return nil, fmt.Errorf("%d", p.ID)
		}},
	} {
		b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5", "NONE"}}
		_, err := run(s, b)
		require.Error(t, err, name)
		assert.Regexp(t, `^panic: .* \(at (run|hooks)_test\.go:\d+ in .*client_test\.`, err.Error(), name)
		assert.Equal(t, "QUIT", b.log[len(b.log)-1], name)
	}
}

func TestCHKQGuard(t *testing.T) {
	// Nine in a row, something else, nine more: the guard counts runs.
	ev := []string{}
	for range 9 {
		ev = append(ev, "CHKQ")
	}
	ev = append(ev, "JCPL 5 0 a 0")
	for range 9 {
		ev = append(ev, "CHKQ")
	}
	ev = append(ev, "NONE")
	b := &fakeBackend{events: ev}
	_, err := run(&firstFree{}, b)
	require.NoError(t, err)

	// Ten in a row: QUIT and an error.
	ev = nil
	for range 12 {
		ev = append(ev, "CHKQ")
	}
	b = &fakeBackend{events: ev}
	_, err = run(&firstFree{}, b)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "10 consecutive CHKQ")
	assert.Equal(t, 10, strings.Count(strings.Join(b.log, ","), "REDY"))
	assert.Equal(t, "QUIT", b.log[len(b.log)-1])
	assert.Equal(t, client.MaxCHKQ, 10)
}

func TestEventActions(t *testing.T) {
	b := &fakeBackend{events: []string{"CHKQ", "JOBP 4 50 1 100 100 5", "NONE"}}
	_, err := run(&firstFree{dequeue: true}, b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "DEQJ GQ 0", "REDY", "GETS Capable 1 100 100", "SCHD 4 a 0", "REDY", "QUIT"}, b.log)
}

func TestStrategyDisposesNothing(t *testing.T) {
	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5"}}
	_, err := run(stratFunc(func(strategies.View, protocol.Job) ([]protocol.Action, error) {
		return []protocol.Action{protocol.Terminate{Server: protocol.ServerRef{Type: "a", ID: 1}}}, nil
	}), b)
	require.Error(t, err)
	assert.EqualError(t, err, "job 0: the strategy returned 1 action(s) but none schedules, enqueues or pushes the job (REDY would offer it again forever)")
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "TERM a 1", "QUIT"}, b.log)
}

// TestRefusedScheduleDropsLaterActions: after a refused SCHD the rest of
// the strategy's actions are not carried out.
func TestRefusedScheduleDropsLaterActions(t *testing.T) {
	b := &fakeBackend{
		events: []string{"JOBN 0 10 1 100 100 5", "NONE"},
		refuse: map[string]string{"SCHD 0 a 0": "ERR: The specified server unavailable"},
	}
	_, err := run(stratFunc(func(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
		if len(v.Excluded()) == 0 {
			return []protocol.Action{protocol.Schedule{JobID: 0, Server: protocol.ServerRef{Type: "a", ID: 0}}, protocol.Terminate{Server: protocol.ServerRef{Type: "a", ID: 1}}}, nil
		}
		return []protocol.Action{protocol.Enqueue{}}, nil
	}), b)
	require.NoError(t, err)
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY", "SCHD 0 a 0", "ENQJ GQ", "REDY", "QUIT"}, b.log)
}

func TestOtherFailures(t *testing.T) {
	// ERR to something other than SCHD: QUIT and the error (baselines.md decision 3).
	b := &fakeBackend{events: []string{"JOBN 0 10 1 100 100 5"}, refuse: map[string]string{"ENQJ GQ": "ERR: no job to enqueue!"}}
	_, err := run(stratFunc(func(strategies.View, protocol.Job) ([]protocol.Action, error) {
		return []protocol.Action{protocol.Enqueue{}}, nil
	}), b)
	assert.EqualError(t, err, `job 0: server refused "ENQJ GQ": ERR: no job to enqueue!`)
	assert.Equal(t, "QUIT", b.log[len(b.log)-1])

	// The server types cannot be had.
	b = &fakeBackend{}
	_, err = client.Run(&firstFree{}, b, client.Options{User: "u", System: func(client.Backend) (*servertypes.System, error) {
		return nil, errors.New("no types")
	}})
	assert.EqualError(t, err, "server types: no types")
	assert.Equal(t, []string{"HELO", "AUTH u", "QUIT"}, b.log)

	// REDY fails (the connection broke): no second QUIT attempt.
	b = &fakeBackend{}
	_, err = run(&firstFree{}, b)
	assert.EqualError(t, err, "REDY: fake: no more events")
	assert.Equal(t, []string{"HELO", "AUTH root", "REDY"}, b.log)

	// A strategy error on an event.
	b = &fakeBackend{events: []string{"JCPL 5 0 a 0"}}
	_, err = run(&errOnEvent{}, b)
	assert.EqualError(t, err, `strategy, on "JCPL 5 0 a 0": boom`)
	assert.Equal(t, "QUIT", b.log[len(b.log)-1])

	// QUIT after NONE fails.
	b = &fakeBackend{events: []string{"NONE"}, quitErr: errors.New("closed")}
	_, err = run(&firstFree{}, b)
	assert.EqualError(t, err, "QUIT: closed")
}

type errOnEvent struct{ firstFree }

func (*errOnEvent) Event(strategies.View, protocol.Event) ([]protocol.Action, error) {
	return nil, errors.New("boom")
}

// An ERR in reply to REDY (a server in an odd state) ends the run with an
// error, and QUIT is still sent: the connection works.
func TestErrToRedyQuits(t *testing.T) {
	b := &fakeBackend{events: []string{"ERR: something odd"}}
	_, err := run(&firstFree{}, b)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "REDY")
	assert.Contains(t, err.Error(), "something odd")
	assert.Equal(t, "QUIT", b.log[len(b.log)-1])
}

// TestStuckTimeGuard: the same job offered again and again at one time with
// only JOBP and CHKQ in between (ds-server's livelock with failure models,
// failure-models.md §6) ends the run at MaxReoffers; any other event, or a
// later time, starts the count again, however many jobs were counted.
func TestStuckTimeGuard(t *testing.T) {
	enqueue := stratFunc(func(strategies.View, protocol.Job) ([]protocol.Action, error) {
		return []protocol.Action{protocol.Enqueue{}}, nil
	})
	round := func(n, t int) []string {
		var ev []string
		for range n {
			ev = append(ev, fmt.Sprintf("JOBP 7 %d 10 1 100 100", t), "CHKQ", fmt.Sprintf("JOBP 8 %d 10 1 100 100", t))
		}
		return ev
	}
	// 99 offers, a completion, 99 more; 99 at a later time: never stuck.
	ev := append(round(99, 50), "JCPL 60 3 a 0")
	ev = append(ev, round(99, 50)...)
	ev = append(ev, round(99, 70)...)
	b := &fakeBackend{events: append(ev, "NONE")}
	_, err := run(enqueue, b)
	require.NoError(t, err)

	// 70 jobs going round 99 times each at time 50 (the guard lets go of a
	// count of more than 64 jobs at the next event rather than empty it),
	// a completion, 99 more of each: never stuck either.
	var many []string
	for range 99 {
		for id := range 70 {
			many = append(many, fmt.Sprintf("JOBP %d 50 10 1 100 100", id))
		}
	}
	ev = append(append(append([]string{}, many...), "JCPL 60 3 a 0"), many...)
	b = &fakeBackend{events: append(ev, "NONE")}
	_, err = run(enqueue, b)
	require.NoError(t, err)

	// 100 offers of job 7 at time 50 with nothing else: QUIT and an error.
	b = &fakeBackend{events: round(150, 50)}
	_, err = run(enqueue, b)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "simulation time stopped advancing at 50: job 7 offered 100 times")
	assert.Equal(t, 3*99+1, strings.Count(strings.Join(b.log, ","), "REDY"))
	assert.Equal(t, "QUIT", b.log[len(b.log)-1])
	assert.Equal(t, 100, client.MaxReoffers)
}
