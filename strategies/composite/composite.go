// Package composite is the strategy built from other strategies: its
// members (any registered strategies, with their own parameters) and either
// a rule that picks the member deciding each job, or a portfolio in which
// every member proposes and the best-scoring proposal is taken.
//
// What a member may assume. Every member sees every event (JCPL, RESF,
// RESR, CHKQ) and every Start, so a member that keeps state from events
// keeps it whole; members are asked about an event in turn, each on the
// state the earlier members' actions left (see Event). It is asked about
// only some jobs: in rules mode those its rule picks and those it took
// out of the global queue; in portfolio mode every job, but its proposal
// may not be taken. So a member may NOT assume that the jobs it sees
// complete were placed by it, that a job it proposed went where it
// proposed, or that a server it never scheduled on is empty: what is true
// of the cluster is what the server answers and what the ledger
// (View.Ledger, kept for the composite by the client from the events and
// accepted actions) says. Its Outcome hook is told the results of its own
// actions only (a proposal not taken was never sent). Members that keep a
// private picture of the cluster (lrr's and atl's round robin, for
// instance) keep working but choose on that picture, which may be wrong;
// strategies that read the server or the ledger are the members this is
// made for (sgme's FCFS base takes the global queue from the ledger when
// it has one).
package composite

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

type composite struct {
	strategies.WithLedger // the ledger answers the cluster rules and scores proposals
	members               []strategies.Strategy
	names                 []string
	rules                 []Rule
	portfolio             bool
	weight                float64

	view   *sharedView
	routes routes // whose action each outcome answers
	// offered is the job on offer while a Job decision is carried out, -1
	// during an Event's.
	offered int
	// event is the event whose decision is being carried out, nil once
	// every member has been asked about it (and during a Job decision);
	// asked counts the members asked so far, acted tells whether any has
	// acted yet (see Event).
	event    protocol.Event
	asked    int
	acted    bool
	given    []int     // jobs each member's accepted action disposed of
	dequeued dequeuers // rules mode: who took which job out of the global queue (see Job)
	pred     []strategies.Predicted
}

// ruleExample is the rule set --list shows, with members=[ff; cost-reduce;
// bf]: member 2 (cost-reduce) for long wide jobs, bf while jobs wait, ff
// otherwise.
const ruleExample = "cores>8&est>600->2|queue>0->bf|1"

// defaultWeight is the portfolio's weight when none is given; maxWeight
// bounds one given (strategies.MaxDelayWeight says why; frontier has the
// same bound).
const (
	defaultWeight = 10
	maxWeight     = strategies.MaxDelayWeight
)

func init() {
	strategies.Register(strategies.Info{
		Name:    "composite",
		Summary: "member strategies chosen per job by rules (est, cores, memory, disk, queue, powered, time), or a portfolio scored by extra cost + weight × delay",
		Params: []strategies.Param{
			{Name: "members", Kind: strategies.List, Default: "[ff]", Help: "the member strategies, e.g. [ff; cost-reduce:multiplier=2; bf]"},
			{Name: "rules", Kind: strategies.String, Default: "", Help: "first match wins: cond->member|…|default, e.g. with members=[ff; cost-reduce; bf]: " + ruleExample + " (see docs/composite.md)"},
			{Name: "mode", Kind: strategies.String, Default: "rules", Choices: []string{"rules", "portfolio"}, Help: "rules: the rule picks the member; portfolio: every member proposes, the best score wins"},
			{Name: "weight", Kind: strategies.Float, Default: strconv.Itoa(defaultWeight), Help: "mode=portfolio only, 0 to 1e9: a second of predicted delay weighs weight × the job's cores at the cheapest rate per core"},
		},
		New: newComposite,
	})
}

func newComposite(p strategies.Params) (strategies.Strategy, error) {
	specs := p.List("members")
	if len(specs) == 0 {
		return nil, errors.New("composite: members is empty: give at least one strategy, e.g. members=[ff]")
	}
	c := &composite{view: newSharedView(), given: make([]int, len(specs)), weight: p.Float("weight"),
		offered: -1, dequeued: newDequeuers()}
	for i, sp := range specs {
		m, err := strategies.New(sp.Name, sp.Settings)
		if err != nil {
			return nil, fmt.Errorf("composite: member %d (%s): %w", i+1, sp, err)
		}
		c.members = append(c.members, m)
		c.names = append(c.names, sp.Name)
	}
	switch p.String("mode") {
	case "rules":
	case "portfolio":
		c.portfolio = true
	default:
		return nil, fmt.Errorf("composite: mode %q: want rules or portfolio", p.String("mode"))
	}
	if math.IsNaN(c.weight) || c.weight < 0 || c.weight > maxWeight {
		return nil, fmt.Errorf("composite: weight %g: want a number from 0 to %g (%s)", c.weight, maxWeight, strategies.DelayWeightReason)
	}
	var err error
	if c.rules, err = ParseRules(p.String("rules"), c.names); err != nil {
		return nil, fmt.Errorf("composite: %w", err)
	}
	if c.portfolio && len(c.rules) > 0 {
		return nil, errors.New("composite: rules apply to mode=rules; a portfolio asks every member")
	}
	if !c.portfolio && c.weight != defaultWeight {
		// Compared with the default, as rules are with "": a weight given
		// at its default is the same strategy (strategies.Identity).
		return nil, fmt.Errorf("composite: weight %g applies to mode=portfolio; mode=rules scores no proposal (the rule picks the member)", c.weight)
	}
	return c, nil
}

// Start is passed to every member that has it.
func (c *composite) Start(v strategies.View) error {
	for i, m := range c.members {
		if s, ok := m.(strategies.Starter); ok {
			if err := s.Start(v); err != nil {
				return fmt.Errorf("member %d (%s): %w", i+1, c.names[i], err)
			}
		}
	}
	return nil
}

// Job asks the member the rules pick, or every member (portfolio). A job
// a member took out of the global queue (DEQJ) is that member's to decide,
// whatever the rules say: it took the job out to place it, and a member
// with another queue policy would put it back, to be taken out again at
// the next event, and so on (frontier dequeues every queued job at each
// event: with [frontier; ffq],rules=cores>2->2|1 ffq queued the big jobs
// again, and was offered jobs 1.8 million times on ds-sample-config04).
func (c *composite) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	c.offered, c.event = job.ID, nil
	if c.portfolio {
		return c.propose(v, job)
	}
	l := v.Ledger()
	i := c.dequeued.offer(job.ID)
	if i < 0 {
		i = pick(c.rules, job, cluster{queue: len(l.Queue()), powered: l.PoweredCores(), time: v.Now()})
	}
	acts, err := c.members[i].Job(v, job)
	if err != nil {
		return nil, c.memberErr(i, err)
	}
	c.routes.start(ownedBy(i, acts))
	return acts, nil
}

// memberErr names the member an error came from.
func (c *composite) memberErr(i int, err error) error {
	return fmt.Errorf("member %d (%s): %w", i+1, c.names[i], err)
}

// Outcome goes to the member whose action it was (memberOutcome); during
// an event, once every action sent so far is carried out, the next members
// are asked (see Event).
func (c *composite) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	i, ok := c.routes.next(o.Action, !o.OK())
	if !ok { // the client carries out only what the composite returned
		return nil, fmt.Errorf("the outcome of %q answers no action the composite is carrying out", o.Action)
	}
	if o.OK() && protocol.DisposesOffer(o.Action, c.offered) {
		// One such action ends each offer (the client loop enforces it),
		// so the members' counts sum to the offers.
		c.given[i]++
		c.dequeued.disposed()
	}
	if _, deq := o.Action.(protocol.Dequeue); deq && o.OK() && !c.portfolio {
		c.dequeued.took(v.Ledger().Dequeued(), i)
	}
	acts, err := c.memberOutcome(i, v, o)
	if err != nil {
		return nil, err
	}
	c.routes.answer(i, acts)
	if len(acts) == 0 && c.event != nil && c.routes.idle() {
		// The event's actions so far are all carried out: the next
		// members decide on the state they left.
		if c.portfolio {
			c.view.reset(v)
		}
		return c.askEvent(v)
	}
	return acts, nil
}

// memberOutcome gives an outcome to member i. A member without the hook
// keeps the plain contract: a refused SCHD of the offered job is retried
// elsewhere (Job is asked again), any other refusal ends the run.
func (c *composite) memberOutcome(i int, v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	if obs, ok := c.members[i].(strategies.OutcomeObserver); ok {
		acts, err := obs.Outcome(v, o)
		if err != nil {
			return nil, c.memberErr(i, err)
		}
		return acts, nil
	}
	if o.OK() {
		return nil, nil
	}
	if s, isSched := o.Action.(protocol.Schedule); isSched {
		if job, offered := v.Ledger().Offered(); offered && job.ID == s.JobID {
			return nil, nil
		}
	}
	return nil, c.memberErr(i, fmt.Errorf("%s refused: %s", o.Action, o.Err.Text))
}

// Metrics reports how many jobs each member decided and, for a portfolio,
// how many queries its members' decisions cost.
func (c *composite) Metrics(strategies.View, *strategies.Truth) []strategies.Metric {
	ms := make([]strategies.Metric, len(c.members), len(c.members)+1)
	for i := range c.members {
		ms[i] = strategies.Metric{Name: fmt.Sprintf("member%dJobs", i+1), Value: float64(c.given[i]), Unit: "jobs",
			Help: fmt.Sprintf("offers member %d (%s) decided: its accepted action scheduled, queued or pushed back the job", i+1, c.names[i])}
	}
	if c.portfolio {
		ms = append(ms, strategies.Metric{Name: "queries", Value: float64(c.view.sent), Unit: "messages",
			Help: "queries the members' decisions sent (a query another member already asked in the same decision is not sent again)"})
	}
	return ms
}
