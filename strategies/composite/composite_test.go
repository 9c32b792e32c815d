package composite

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/baselines"  // ff, ffq: members
	_ "github.com/dssim-go/dssim-go/strategies/costreduce" // cost-reduce: a member
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// fixed is a test member: it asks GETS Capable (to show the shared view's
// economy), proposes SCHD on its server (to=none: nothing, ErrNoServer;
// to=why: ErrNoServer wrapped with a reason numbered id; to=enqj, to=pshj:
// ENQJ, PSHJ), answers CHKQ with deqj copies of DEQJ GQ
// 0, its first outcome with answer copies, and records the outcomes it is
// told.
type fixed struct {
	to       protocol.ServerRef
	deqj     int
	answer   int
	outcomes []string
	asked    func() // called when the member is asked about an event, if set
	fail     bool   // Outcome returns an error
}

func (f *fixed) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	if _, err := v.GetsCapable(j.Req()); err != nil {
		return nil, err
	}
	switch f.to.Type {
	case "none":
		return nil, strategies.ErrNoServer
	case "why":
		return nil, fmt.Errorf("test: %w: job %d fits nothing (reason %d)", strategies.ErrNoServer, j.ID, f.to.ID)
	case "enqj":
		return []protocol.Action{protocol.Enqueue{}}, nil
	case "pshj":
		return []protocol.Action{protocol.Push{}}, nil
	}
	return strategies.Sched(j, f.to), nil
}

func (f *fixed) Event(_ strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	if f.asked != nil {
		f.asked()
	}
	if _, ok := ev.(*protocol.CheckQueue); ok {
		return dequeues(f.deqj), nil
	}
	return nil, nil
}

func dequeues(n int) []protocol.Action {
	var acts []protocol.Action
	for range n {
		acts = append(acts, protocol.Dequeue{QID: 0})
	}
	return acts
}

func (f *fixed) Outcome(_ strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	if f.fail {
		return nil, errors.New("out of step")
	}
	text := o.Action.String()
	if !o.OK() {
		text += " refused"
	}
	f.outcomes = append(f.outcomes, text)
	n := f.answer
	f.answer = 0
	return dequeues(n), nil
}

var lastFixed []*fixed // the members made by the last composite, in order

func init() {
	strategies.Register(strategies.Info{Name: "test-fixed", Summary: "test member",
		Params: []strategies.Param{{Name: "to", Kind: strategies.String, Default: "small"},
			{Name: "id", Kind: strategies.Int, Default: "0"},
			{Name: "deqj", Kind: strategies.Int, Default: "1"},
			{Name: "answer", Kind: strategies.Int, Default: "0"},
			{Name: "fail", Kind: strategies.Bool, Default: "false"}},
		New: func(p strategies.Params) (strategies.Strategy, error) {
			f := &fixed{to: protocol.ServerRef{Type: p.String("to"), ID: p.Int("id")}, deqj: p.Int("deqj"), answer: p.Int("answer"),
				fail: p.Bool("fail")}
			lastFixed = append(lastFixed, f)
			return f, nil
		}})
}

func makeComposite(t *testing.T, settings map[string]string) *composite {
	t.Helper()
	lastFixed = nil
	s, err := strategies.New("composite", settings)
	require.NoError(t, err)
	return s.(*composite)
}

// Two 2-core servers at 0.2 $/h (boot 60) and one 8-core at 1.0 $/h, the
// 8-core active with a 6-core job running from 0 to 1000 (estimate).
func clusterView(t *testing.T) *strattest.FakeView {
	sys := strattest.System(
		servertypes.Type{Name: "small", Limit: 2, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 60, HourlyRate: 1.0, Cores: 8, Memory: 32000, Disk: 64000},
	)
	l := strategies.NewLedger(sys)
	v := &strattest.FakeView{Sys: sys, Book: l, Capable: []protocol.Server{}}
	long := protocol.Job{ID: 0, Submit: 0, Cores: 6, Memory: 100, Disk: 100, EstRunTime: 1000}
	l.Observe(&protocol.JobOffer{Job: long})
	require.NoError(t, l.Applied(protocol.Schedule{JobID: 0, Server: ref("big", 0)}, "OK"))
	l.Observe(&protocol.JobOffer{Job: protocol.Job{ID: 99, Submit: 60, Cores: 1, Memory: 1, Disk: 1, EstRunTime: 1}})
	require.NoError(t, l.Applied(protocol.Schedule{JobID: 99, Server: ref("small", 1)}, "OK"))
	v.Book.Observe(&protocol.JobCompleted{Time: 120, JobID: 99, Server: ref("small", 1)})
	v.Time = 120
	return v
}

func ref(typ string, id int) protocol.ServerRef { return protocol.ServerRef{Type: typ, ID: id} }

func offer(v *strattest.FakeView, j protocol.Job) {
	v.Time = j.Submit
	v.Book.Observe(&protocol.JobOffer{Job: j})
}

const threeMembers = "[test-fixed:to=small,id=0; test-fixed:to=big; test-fixed:to=small,id=1]"

// Portfolio: each row is a job; the proposal with the lowest extra cost +
// weight × delay wins, and the members' identical GETS Capable is sent once.
func TestPortfolioChoice(t *testing.T) {
	rows := []struct {
		what   string
		weight string
		job    protocol.Job
		want   protocol.ServerRef
	}{
		// extra: big 0 (ends 230 < 1000); small#0 boots: 100 s × 0.2; small#1 idle since 120: 100 s × 0.2
		{"fits beside the long job: no delay, no extra billing", "10", jb(1, 2, 100), ref("big", 0)},
		// 3 cores: only big is capable for the others' too, but test members propose blindly:
		// big: start 1000, delay 870; small servers cannot hold 3 cores (start -1, +Inf)
		{"only big can hold 3 cores, however late", "10", jb(2, 3, 100), ref("big", 0)},
	}
	for _, tc := range rows {
		c := makeComposite(t, map[string]string{"members": threeMembers, "mode": "portfolio", "weight": tc.weight})
		v := clusterView(t)
		offer(v, tc.job)
		acts, err := c.Job(v, tc.job)
		require.NoError(t, err, tc.what)
		assert.Equal(t, strategies.Sched(tc.job, tc.want), acts, tc.what)
		assert.Equal(t, []string{"GETS Capable " + tc.job.Req().String()}, v.Sent, "one query for three members")
	}
}

func jb(id, cores, est int) protocol.Job {
	return protocol.Job{ID: id, Submit: 130, Cores: cores, Memory: 100, Disk: 100, EstRunTime: est}
}

// The weight moves the choice: a 2-core job while big is full until 1000
// (its billing runs to 5130 anyway); idle small#1 starts it now but bills
// its idle gap too; booting small#0 delays it 60 s.
func TestPortfolioWeight(t *testing.T) {
	for _, tc := range []struct {
		weight string
		want   protocol.ServerRef
	}{
		{"0", ref("big", 0)},    // no extra billing (big runs to 5130 anyway), 870 s late
		{"0.1", ref("big", 0)},  // 0.1 × 870 s × 2 cores × 0.1 $/h < 110 s × 0.2 $/h
		{"10", ref("small", 1)}, // starts now; its idle gap 120..130 is billed too
	} {
		c := makeComposite(t, map[string]string{"members": "[test-fixed:to=small,id=0; test-fixed:to=big; test-fixed:to=small,id=1]",
			"mode": "portfolio", "weight": tc.weight})
		v := clusterView(t)
		j := protocol.Job{ID: 5, Submit: 130, Cores: 2, Memory: 100, Disk: 100, EstRunTime: 100}
		fill := protocol.Job{ID: 4, Submit: 130, Cores: 2, Memory: 100, Disk: 100, EstRunTime: 5000}
		offer(v, fill)
		require.NoError(t, v.Book.Applied(protocol.Schedule{JobID: 4, Server: ref("big", 0)}, "OK"))
		offer(v, j)
		acts, err := c.Job(v, j)
		require.NoError(t, err)
		assert.Equal(t, strategies.Sched(j, tc.want), acts, "weight "+tc.weight)
	}
}

// Scores of each proposal, in dollars, worked by hand.
func TestPortfolioScores(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": threeMembers, "mode": "portfolio", "weight": "10"})
	v := clusterView(t)
	j := jb(7, 2, 100)
	offer(v, j)
	l := v.Book
	perCoreSecond := 0.1 / 3600 // cheapest rate per core: small, 0.2 $/h over 2 cores
	for _, tc := range []struct {
		to   protocol.ServerRef
		want float64
	}{
		{ref("small", 0), 100*0.2/3600 + 10*60*2*perCoreSecond}, // boots: 60 s delay, 100 s billed
		{ref("small", 1), 110 * 0.2 / 3600},                     // idle since 120: the gap 120..130 is billed too
		{ref("big", 0), 0},                                      // ends at 230, inside the long job's billing
	} {
		assert.InDelta(t, tc.want, c.score(l, j, strategies.Sched(j, tc.to)), 1e-12, tc.to.String())
	}
	assert.True(t, c.score(l, j, []protocol.Action{protocol.Enqueue{}}) > 1e300, "ENQJ has no prediction")
}

// Rules mode: the rule's member decides, the others are not asked.
func TestRulesModeAsksOneMember(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": threeMembers, "rules": "cores>=2->2|3"})
	v := clusterView(t)
	j := jb(1, 2, 10)
	offer(v, j)
	acts, err := c.Job(v, j)
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(j, ref("big", 0)), acts)
	accept(t, c, v, acts)
	j = jb(2, 1, 10)
	offer(v, j)
	acts, err = c.Job(v, j)
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(j, ref("small", 1)), acts)
	accept(t, c, v, acts)
	assert.Len(t, v.Sent, 2, "one GETS Capable per decision")
	assert.Equal(t, []float64{0, 1, 1}, metricValues(c))
}

// A job a member took out of the global queue is offered to that member,
// whatever the rules say; once it is disposed of, the rules decide again.
// Before, a member with another queue policy put it back and the two passed
// it to and fro at every event ([frontier; ffq],rules=cores>2->2|1 offered
// ffq jobs 1.8 million times on ds-sample-config04).
func TestDequeuedJobGoesToTheDequeuer(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": "[test-fixed:to=small,deqj=0; test-fixed:to=big]"})
	v := clusterView(t)
	j := jb(5, 1, 10)
	offer(v, j)
	require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))
	dequeueAtCHKQ(t, c, v)
	offer(v, j) // the JOBP
	acts, err := c.Job(v, j)
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(j, ref("big", 0)), acts, "member 2 dequeued it: member 2 decides it")
	accept(t, c, v, acts)
	acts, err = c.Job(v, j) // offered again (no DEQJ since): the rules' member 1
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(j, ref("small", 0)), acts)
}

// dequeueAtCHKQ has member 2 (the only one with a DEQJ) dequeue a job at a
// CHKQ, accepted.
func dequeueAtCHKQ(t *testing.T, c *composite, v *strattest.FakeView) {
	t.Helper()
	acts, err := c.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	require.Equal(t, dequeues(1), acts, "member 2's DEQJ")
	require.NoError(t, v.Book.Applied(acts[0], "OK"))
	_, err = c.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "OK"})
	require.NoError(t, err)
}

// accept is carry with every action accepted.
func accept(t *testing.T, c *composite, v strategies.View, acts []protocol.Action) {
	t.Helper()
	carry(t, c, v, acts, &[]bool{})
}

func metricValues(c *composite) []float64 {
	var out []float64
	for _, m := range c.Metrics(nil, nil) {
		out = append(out, m.Value)
	}
	return out
}

// Events go to every member, each asked once the earlier members' actions
// are carried out, its actions sent as it asks but for a DEQJ that would
// find no job once the earlier members' are done; each outcome goes to the
// member whose action it was, an outcome's answer is carried out before
// the rest of the list, and a refusal drops the rest of its own list only.
func TestEventsAndOutcomes(t *testing.T) {
	const ok, no = "DEQJ GQ 0", "DEQJ GQ 0 refused"
	for _, tc := range []struct {
		what    string
		members string
		queued  int    // jobs in the global queue at the CHKQ
		replies []bool // the server's answers in the order sent; OK once they run out
		sent    int    // DEQJ GQ 0 the event sends, answers included
		want    [][]string
	}{
		{"a DEQJ after the queue was emptied is not sent (ffq dequeues at CHKQ without looking)",
			"[test-fixed; test-fixed]", 1, nil, 1, [][]string{{ok}, nil}},
		{"a later member's DEQJ is sent while the queue holds a job for it",
			"[test-fixed; test-fixed]", 2, nil, 2, [][]string{{ok}, {ok}}},
		{"a member's own copies are all sent (frontier dequeues each queued job)",
			"[test-fixed:deqj=2]", 2, nil, 2, [][]string{{ok, ok}}},
		{"the first acting member's actions are sent as asked, as alone",
			"[test-fixed:deqj=2]", 1, nil, 2, [][]string{{ok, ok}}},
		{"a later member's DEQJs beyond the jobs left are not sent",
			"[test-fixed; test-fixed:deqj=3; test-fixed:deqj=2]", 3, nil, 3, [][]string{{ok}, {ok, ok}, nil}},
		{"an outcome's answer comes before the next member, and is its member's",
			"[test-fixed:answer=1; test-fixed:deqj=2]", 3, nil, 3, [][]string{{ok, ok}, {ok}}},
		{"a refused answer drops the rest of the answer, not the next member",
			"[test-fixed:answer=2; test-fixed:deqj=2]", 2, []bool{true, false}, 3, [][]string{{ok, no}, {ok}}},
	} {
		c := makeComposite(t, map[string]string{"members": tc.members})
		v := clusterView(t)
		queue(t, v, tc.queued)
		acts, err := c.Event(v, &protocol.CheckQueue{})
		require.NoError(t, err, tc.what)
		assert.Equal(t, dequeues(tc.sent), carry(t, c, v, acts, &tc.replies), tc.what)
		for i, f := range lastFixed {
			assert.Equal(t, tc.want[i], f.outcomes, "%s: member %d", tc.what, i+1)
		}
	}
}

// queue puts n jobs (ids 100, 101, …) in the ledger's global queue.
func queue(t *testing.T, v *strattest.FakeView, n int) {
	t.Helper()
	for k := range n {
		offer(v, jb(100+k, 1, 10))
		require.NoError(t, v.Book.Applied(protocol.Enqueue{}, "OK"))
	}
}

// A member is asked about an event only once the earlier members' actions
// have had their outcomes: it decides on the state they left (frontier's
// MIGJ onto a server a completion emptied, then thr's TERM of that server,
// decided before the MIGJ was sent, killed the job).
func TestEventMembersDecideInTurn(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": "[test-fixed:answer=1; test-fixed:deqj=0; test-fixed:deqj=1]"})
	v := clusterView(t)
	var seen []int // member 1's outcomes when each later member is asked
	for _, f := range lastFixed[1:] {
		f.asked = func() { seen = append(seen, len(lastFixed[0].outcomes)) }
	}
	acts, err := c.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	assert.Equal(t, dequeues(1), acts, "member 1's action first, alone")
	assert.Empty(t, seen, "no later member asked before member 1's actions are carried out")
	carry(t, c, v, acts, &[]bool{})
	assert.Equal(t, []int{2, 2}, seen, "members 2 and 3 asked after member 1's action and its answer")
	assert.Equal(t, []string(nil), lastFixed[2].outcomes, "member 3's DEQJ GQ 0 finds the queue empty: not sent")
}

// carry is the client loop carrying out acts (client.carry): each outcome
// reported at once and its answer carried out before the rest of the list;
// a refusal drops the rest of its list. replies script the server's
// answers, in the order the actions are sent (true: OK; none left: OK).
// It returns every action sent, in order.
func carry(t *testing.T, c *composite, v strategies.View, acts []protocol.Action, replies *[]bool) []protocol.Action {
	t.Helper()
	var sent []protocol.Action
	for _, a := range acts {
		sent = append(sent, a)
		o := strategies.Outcome{Action: a, Reply: "OK"}
		if len(*replies) > 0 {
			if !(*replies)[0] {
				o = strategies.Outcome{Action: a, Err: &protocol.ServerError{Text: "ERR"}}
			}
			*replies = (*replies)[1:]
		}
		if o.OK() { // as the client: the ledger takes an accepted action first
			require.NoError(t, v.Ledger().Applied(a, "OK"), a.String())
		}
		more, err := c.Outcome(v, o)
		require.NoError(t, err, a.String())
		sent = append(sent, carry(t, c, v, more, replies)...)
		if !o.OK() {
			break
		}
	}
	return sent
}

// A member without an Outcome hook keeps the plain contract.
func TestOutcomeWithoutHook(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": "[ffq; test-fixed]"})
	v := clusterView(t)
	_, err := c.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	_, err = c.Outcome(v, strategies.Outcome{Action: protocol.Dequeue{QID: 0}, Err: &protocol.ServerError{Text: "ERR: no such job"}})
	assert.ErrorContains(t, err, "member 1 (ffq): DEQJ GQ 0 refused")
	j := jb(3, 1, 1)
	offer(v, j)
	c.routes.start(ownedBy(0, strategies.Sched(j, ref("small", 0))))
	_, err = c.Outcome(v, strategies.Outcome{Action: protocol.Schedule{JobID: 3, Server: ref("small", 0)}, Err: &protocol.ServerError{Text: "ERR"}})
	assert.NoError(t, err, "a refused SCHD of the offered job is retried by the client")
}

// An error from a member names it (the client's message said only
// "strategy"): from Job in rules mode (ErrNoServer still reads as one) and
// from the outcome hook.
func TestMemberErrorsNameTheMember(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": "[test-fixed; test-fixed:to=none]", "rules": "cores>1->2|1"})
	v := clusterView(t)
	j := jb(1, 2, 10)
	offer(v, j)
	_, err := c.Job(v, j)
	assert.EqualError(t, err, "member 2 (test-fixed): no server can take the job")
	assert.ErrorIs(t, err, strategies.ErrNoServer)

	c = makeComposite(t, map[string]string{"members": "[test-fixed; test-fixed:fail=true,deqj=2]"})
	queue(t, v, 3)
	acts, err := c.Event(v, &protocol.CheckQueue{})
	require.NoError(t, err)
	require.NoError(t, v.Book.Applied(acts[0], "OK"))
	acts, err = c.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "OK"}) // member 1's DEQJ done: member 2 asked
	require.NoError(t, err)
	require.Equal(t, dequeues(2), acts, "member 2's")
	_, err = c.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "OK"})
	assert.EqualError(t, err, "member 2 (test-fixed): out of step")
}

// A job whose SCHD is refused is asked about again; the job counts once,
// for the member whose action the server accepted.
func TestRefusedThenRetriedCountsOnce(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": "[test-fixed:to=big; test-fixed:to=small,id=1]", "mode": "portfolio"})
	v := clusterView(t)
	j := jb(1, 2, 100)
	offer(v, j)
	acts, err := c.Job(v, j)
	require.NoError(t, err)
	require.Equal(t, strategies.Sched(j, ref("big", 0)), acts)
	carry(t, c, v, acts, &[]bool{false})
	acts, err = c.Job(v, j) // test members propose blindly: big 0 again, it wins again
	require.NoError(t, err)
	accept(t, c, v, acts)
	assert.Equal(t, []float64{1, 0}, metricValues(c)[:2])
	assert.Equal(t, []string{"SCHD 1 big 0 refused", "SCHD 1 big 0"}, lastFixed[0].outcomes)
}

// Bad parameters are refused when the strategy is made, before any run,
// with a message naming the problem.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]string
		msg      string
	}{
		{map[string]string{"members": "[ff; nosuch]"}, "nosuch"},
		{map[string]string{"members": "[]"}, "members is empty"},
		{map[string]string{"members": "[ff; bf]", "rules": "cores>4->3"}, "column 10: member 3: there are 2 members"},
		{map[string]string{"members": "[ff; bf]", "rules": "cors>4->2"}, `column 1: unknown field "cors"`},
		{map[string]string{"mode": "vote"}, `parameter mode="vote": want rules or portfolio`},
		{map[string]string{"mode": "portfolio", "rules": "cores>1->1"}, "rules apply to mode=rules"},
		{map[string]string{"weight": "-1"}, "weight -1"},
		{map[string]string{"mode": "portfolio", "weight": "NaN"}, "weight NaN: want a number from 0 to 1e+09"},
		{map[string]string{"mode": "portfolio", "weight": "Inf"}, "weight +Inf: want a number from 0 to 1e+09"},
		{map[string]string{"mode": "portfolio", "weight": "1e20"}, "weight 1e+20: want a number from 0 to 1e+09 (beyond it a score's cost is lost to rounding"},
		// weight is the portfolio's, as rules are mode=rules': each refused
		// with the other mode, naming both.
		{map[string]string{"members": "[ff; bf]", "weight": "1000"}, "composite: weight 1000 applies to mode=portfolio; mode=rules scores no proposal"},
		{map[string]string{"members": "[ff; bf]", "mode": "rules", "weight": "0"}, "weight 0 applies to mode=portfolio"},
		{map[string]string{"members": "[cost-reduce:multiplier=x]"}, "multiplier"},
	} {
		_, err := strategies.New("composite", tc.settings)
		assert.ErrorContains(t, err, tc.msg, fmt.Sprint(tc.settings))
	}
	_, err := strategies.New("composite", map[string]string{"members": "[ff; bf]", "weight": "10.0"})
	assert.NoError(t, err, "the default weight, given, is the strategy without it (strategies.Identity)")
	_, err = strategies.New("composite", map[string]string{"mode": "portfolio", "weight": "1e9"})
	assert.NoError(t, err, "the bound itself")
}

// The rule set --list shows runs with the members it shows them with.
func TestListedRuleExampleWorks(t *testing.T) {
	info, ok := strategies.Lookup("composite")
	require.True(t, ok)
	var help string
	for _, p := range info.Params {
		if p.Name == "rules" {
			help = p.Help
		}
	}
	m := regexp.MustCompile(`e\.g\. (?:with members=(\[[^\]]*\]): )?(\S+)`).FindStringSubmatch(help)
	require.NotNil(t, m, help)
	settings := map[string]string{"rules": m[2]}
	if m[1] != "" {
		settings["members"] = m[1]
	}
	_, err := strategies.New("composite", settings)
	assert.NoError(t, err, "--list: %s", help)
}

// beyondQueue judges a list's DEQJs against the jobs the queue holds, each
// taking one; after a TERM or KILJ (which queue jobs it cannot count) it
// keeps the rest.
func TestBeyondQueue(t *testing.T) {
	v := clusterView(t)
	queue(t, v, 2)
	term := protocol.Terminate{Server: ref("small", 0)}
	for _, tc := range []struct{ in, want []protocol.Action }{
		{dequeues(3), dequeues(2)},
		{[]protocol.Action{protocol.Dequeue{QID: 1}, protocol.Dequeue{QID: 1}}, []protocol.Action{protocol.Dequeue{QID: 1}}},
		{[]protocol.Action{protocol.Dequeue{QID: 2}, protocol.Dequeue{QID: -1}}, nil},
		{append(dequeues(3), term, protocol.Dequeue{QID: 0}), append(dequeues(2), term, protocol.Dequeue{QID: 0})},
	} {
		got := beyondQueue(v.Book, tc.in)
		if len(tc.want) == 0 {
			assert.Empty(t, got, "%v", tc.in)
			continue
		}
		assert.Equal(t, tc.want, got, "%v", tc.in)
	}
}

// The composite's outcome bound is its members' together (each acts
// below where the previous one's last action left it): a composite of one
// member has the member's bound, a member composite brings its own, and the
// sum saturates instead of wrapping.
func TestOutcomeDepthAddsTheMembers(t *testing.T) {
	const m = strategies.MaxOutcomeDepth
	for members, want := range map[string]int{
		"[test-fixed]":                                             m,
		"[test-fixed; test-fixed]":                                 2 * m,
		"[test-fixed; test-fixed; test-fixed]":                     3 * m,
		"[composite:members=[test-fixed; test-fixed]; test-fixed]": 3 * m,
	} {
		c := makeComposite(t, map[string]string{"members": members})
		assert.Equal(t, want, strategies.OutcomeDepthOf(c), members)
	}
	huge := &composite{members: []strategies.Strategy{deep(math.MaxInt), deep(math.MaxInt)}}
	assert.Equal(t, math.MaxInt32, huge.OutcomeDepth())
}

// deep is a strategy declaring an outcome bound.
type deep int

func (deep) Job(strategies.View, protocol.Job) ([]protocol.Action, error)     { return nil, nil }
func (deep) Event(strategies.View, protocol.Event) ([]protocol.Action, error) { return nil, nil }
func (d deep) OutcomeDepth() int                                              { return int(d) }

// While the ledger's queue is inexact (a TERM queued two jobs) its guess of
// the job a DEQJ took can be wrong; ds-server offers the dequeued job next
// (§5.6), so the offer is the dequeuer's all the same, and nothing is left
// waiting for the job the ledger guessed.
func TestDequeuedJobGoesToTheDequeuerWhenTheLedgerGuesses(t *testing.T) {
	c := makeComposite(t, map[string]string{"members": "[test-fixed:to=small,deqj=0; test-fixed:to=big,deqj=1]"})
	v := clusterView(t)
	j1 := jb(1, 1, 2000)
	offer(v, j1)
	require.NoError(t, v.Book.Applied(protocol.Schedule{JobID: 1, Server: ref("big", 0)}, "OK"))
	require.NoError(t, v.Book.Applied(protocol.Terminate{Server: ref("big", 0)}, "2 jobs killed"))
	require.False(t, v.Book.QueueExact())
	dequeueAtCHKQ(t, c, v)
	require.NotEqual(t, 1, v.Book.Dequeued(), "the ledger's guess is another job")
	offer(v, j1) // ds-server's JOBP: job 1 was at GQ position 0
	acts, err := c.Job(v, j1)
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(j1, ref("big", 0)), acts, "member 2 dequeued it")
	accept(t, c, v, acts)
	assert.Empty(t, c.dequeued.pending, "no DEQJ awaits its offer")
}
