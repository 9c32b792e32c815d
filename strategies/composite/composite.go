// Package composite is the strategy built from other strategies: its
// members (any registered strategies, with their own parameters) and either
// a rule that picks the member deciding each job, or a portfolio in which
// every member proposes and the best-scoring proposal is taken.
//
// What a member may assume. Every member sees every event (JCPL, RESF,
// RESR, CHKQ) and every Start, so a member that keeps state from events
// keeps it whole. It is asked about only some jobs: in rules mode only the
// jobs its rule picks; in portfolio mode every job, but its proposal may
// not be taken. So a member may NOT assume that the jobs it sees complete
// were placed by it, that a job it proposed went where it proposed, or
// that a server it never scheduled on is empty: what is true of the
// cluster is what the server answers and what the ledger (View.Ledger,
// kept for the composite by the client from the events and accepted
// actions) says. Its Outcome hook is told the results of its own actions
// only (a proposal not taken was never sent). Members that keep a private
// picture of the cluster (lrr's and atl's round robin, for instance) keep
// working but choose on that picture, which may be wrong; strategies that
// read the server or the ledger are the members this is made for.
package composite

import (
	"errors"
	"fmt"
	"math"

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
	given   []int          // jobs each member's accepted action disposed of
	sent    map[string]int // Event scratch: copies of each action sent so far
	copies  map[string]int // Event scratch: copies of each action a member asked for
	pred    []strategies.Predicted
}

func init() {
	strategies.Register(strategies.Info{
		Name:    "composite",
		Summary: "member strategies chosen per job by rules (est, cores, memory, disk, queue, powered, time), or a portfolio scored by extra cost + weight × delay",
		Params: []strategies.Param{
			{Name: "members", Kind: strategies.List, Default: "[ff]", Help: "the member strategies, e.g. [ff; cost-reduce:multiplier=2; bf]"},
			{Name: "rules", Kind: strategies.String, Default: "", Help: "first match wins: cond->member|…|default, e.g. cores>8&est>600->2|queue>0->bf|1 (see README)"},
			{Name: "mode", Kind: strategies.String, Default: "rules", Help: "rules: the rule picks the member; portfolio: every member proposes, the best score wins"},
			{Name: "weight", Kind: strategies.Float, Default: "10", Help: "portfolio: a second of predicted delay weighs weight × the job's cores at the cheapest rate per core"},
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
		offered: -1, sent: map[string]int{}, copies: map[string]int{}}
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
	if math.IsNaN(c.weight) || math.IsInf(c.weight, 0) || c.weight < 0 {
		return nil, fmt.Errorf("composite: weight %g: want a finite number, 0 or more", c.weight)
	}
	var err error
	if c.rules, err = ParseRules(p.String("rules"), c.names); err != nil {
		return nil, fmt.Errorf("composite: %w", err)
	}
	if c.portfolio && len(c.rules) > 0 {
		return nil, errors.New("composite: rules apply to mode=rules; a portfolio asks every member")
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

// Job asks the member the rules pick, or every member (portfolio).
func (c *composite) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	c.offered = job.ID
	if c.portfolio {
		return c.propose(v, job)
	}
	l := v.Ledger()
	i := pick(c.rules, job, cluster{queue: len(l.Queue()), powered: l.PoweredCores(), time: v.Now()})
	acts, err := c.members[i].Job(v, job)
	if err != nil {
		return nil, err
	}
	c.routes.start(ownedBy(i, acts))
	return acts, nil
}

// Event is given to every member; their actions are carried out in member
// order, what earlier members already asked for only once: a member's k-th
// copy of an action is sent only if earlier members sent fewer than k (two
// queue strategies both answering CHKQ with DEQJ GQ 0 dequeue one job; a
// member that dequeues two jobs with two DEQJ GQ 0 dequeues two, as it
// would alone).
func (c *composite) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	c.offered = -1
	view := v
	if c.portfolio {
		c.view.reset(v)
		view = c.view
	}
	clear(c.sent)
	var out []protocol.Action
	var list []owned
	for i, m := range c.members {
		acts, err := m.Event(view, ev)
		if err != nil {
			return nil, fmt.Errorf("member %d (%s): %w", i+1, c.names[i], err)
		}
		clear(c.copies)
		for _, a := range acts {
			text := a.String()
			if c.copies[text]++; c.copies[text] > c.sent[text] {
				c.sent[text]++
				out = append(out, a)
				list = append(list, owned{text, i})
			}
		}
	}
	c.routes.start(list)
	return out, nil
}

// Outcome goes to the member whose action it was. A member without the
// hook keeps the plain contract: a refused SCHD of the offered job is
// retried elsewhere (Job is asked again), any other refusal ends the run.
func (c *composite) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	i, ok := c.routes.next(o.Action, !o.OK())
	if !ok { // the client carries out only what the composite returned
		return nil, fmt.Errorf("the outcome of %q answers no action the composite is carrying out", o.Action)
	}
	if o.OK() && protocol.DisposesOffer(o.Action, c.offered) {
		// One such action ends each offer (the client loop enforces it),
		// so the members' counts sum to the offers.
		c.given[i]++
	}
	if obs, ok := c.members[i].(strategies.OutcomeObserver); ok {
		acts, err := obs.Outcome(v, o)
		c.routes.answer(i, acts)
		return acts, err
	}
	if o.OK() {
		return nil, nil
	}
	if s, isSched := o.Action.(protocol.Schedule); isSched {
		if job, offered := v.Ledger().Offered(); offered && job.ID == s.JobID {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("member %d (%s): %s refused: %s", i+1, c.names[i], o.Action, o.Err.Text)
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
