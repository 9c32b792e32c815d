package strategies_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The ledger against the simulator itself: every fixture is run in-process
// with strategies that between them boot, queue, dequeue, terminate,
// migrate, kill and meet failures, and at sampled decisions the ledger's
// picture is compared with what GETS All, LSTJ and LSTQ say at that moment.
// The extra queries change nothing in the simulation.
func TestLedgerMirrorsSimulator(t *testing.T) {
	dirs := fixtures.Glob(t, "fixtures/*/config.xml")
	for _, name := range []string{"ff", "bf", "ffq", "cost-reduce", "soonest", "chaos"} {
		for _, cfg := range dirs {
			fx := filepath.Base(filepath.Dir(cfg))
			if testing.Short() && !slices.Contains(shortFixtures, fx) {
				continue
			}
			if name != "ffq" && name != "chaos" && name != "soonest" && fx == "ds-sample-config05-failures" {
				continue // only queue-aware strategies complete a failure trace
			}
			t.Run(name+"/"+fx, func(t *testing.T) {
				var inner strategies.Strategy
				if name == "chaos" {
					inner = &chaos{rng: rand.New(rand.NewPCG(1, 2))}
				} else {
					var err error
					inner, err = strategies.New(name, nil)
					require.NoError(t, err)
				}
				mc := &mirror{inner: inner, stride: 1}
				if fx != "sample-config01" && fx != "ds-sample-config01" && fx != "sample-config02" {
					mc.stride = 97 // a prime: the samples drift over every kind of decision
				}
				m, err := strattest.Run(cfg, mc)
				require.NoError(t, err)
				require.NoError(t, mc.err, "after %d checks", mc.checks)
				t.Logf("%d checks, %d resyncs", mc.checks, mc.resyncs)
				require.Positive(t, mc.checks)
				require.Positive(t, m.Jobs)
			})
		}
	}
}

// shortFixtures are the ones -short keeps: the small ones (checked at every
// decision) and the failure trace.
var shortFixtures = []string{"sample-config01", "ds-sample-config01", "sample-config02", "ds-sample-config05-failures"}

// mirror checks the ledger before passing each decision to inner.
type mirror struct {
	strategies.WithLedger
	inner          strategies.Strategy
	stride, n      int
	checks         int
	resyncs        int
	err            error
	afterJCPL      bool
	innerObserver  strategies.OutcomeObserver
	observerLooked bool
}

func (m *mirror) maybeCheck(v strategies.View, why string) {
	m.n++
	if m.err != nil || m.afterJCPL || m.n%m.stride != 0 {
		return
	}
	m.checks++
	if l := v.Ledger(); l.Stale() {
		m.resyncs++
		if err := l.Resync(v); err != nil {
			m.err = err
			return
		}
	}
	if err := compareLedger(v); err != nil {
		m.err = fmt.Errorf("at t=%d, %s: %w\n%s", v.Now(), why, err, v.Ledger())
	}
}

func (m *mirror) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	m.afterJCPL = false
	m.maybeCheck(v, fmt.Sprintf("offer of job %d", job.ID))
	return m.inner.Job(v, job)
}

func (m *mirror) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	// Within a batch of completions at one time ds-server starts waiting
	// jobs after the batch's last completion on a server and the ledger at
	// each (see Ledger): compare only once the batch is over.
	_, m.afterJCPL = ev.(*protocol.JobCompleted)
	m.maybeCheck(v, ev.String())
	return m.inner.Event(v, ev)
}

func (m *mirror) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	if o.OK() {
		m.maybeCheck(v, "after "+o.Action.String())
	}
	if !m.observerLooked {
		m.innerObserver, _ = m.inner.(strategies.OutcomeObserver)
		m.observerLooked = true
	}
	if m.innerObserver != nil {
		return m.innerObserver.Outcome(v, o)
	}
	if !o.OK() {
		if _, isSched := o.Action.(protocol.Schedule); !isSched {
			return nil, o.Err // what the client does for a strategy without the hook
		}
	}
	return nil, nil
}

// compareLedger compares the ledger with the simulator's answers.
func compareLedger(v strategies.View) error {
	l := v.Ledger()
	recs, err := v.GetsAll()
	if err != nil {
		return err
	}
	recs = slices.Clone(recs)
	for _, r := range recs {
		mc, ok := l.Machine(r.Ref())
		if !ok {
			return fmt.Errorf("%s: not in the ledger", r.Ref())
		}
		if err := compareMachine(v, mc, r); err != nil {
			return err
		}
	}
	if err := compareLowestInactive(l, recs); err != nil {
		return err
	}
	n, err := v.QueueLen()
	if err != nil {
		return err
	}
	if n != len(l.Queue()) {
		return fmt.Errorf("global queue: server has %d jobs, the ledger %d", n, len(l.Queue()))
	}
	var want []int
	if n > 0 {
		q, err := v.ListQueue()
		if err != nil {
			return err
		}
		for _, j := range q {
			want = append(want, j.ID)
		}
	}
	var got []int
	for _, j := range l.Queue() {
		got = append(got, j.ID)
	}
	if !l.QueueExact() { // only the length is certain
		want, got = want[:0], got[:0]
	}
	if len(want) != len(got) || !slices.Equal(want, got) {
		return fmt.Errorf("global queue: server %v, ledger %v", want, got)
	}
	return nil
}

// compareLowestInactive checks Ledger.LowestInactive of every type
// against the inactive servers GETS All lists, and that Ledger.OfType
// holds the type's servers by id.
func compareLowestInactive(l *strategies.Ledger, recs []protocol.Server) error {
	want := map[string]int{}
	for _, r := range recs {
		if w, seen := want[r.Type]; r.State == protocol.Inactive && (!seen || r.ID < w) {
			want[r.Type] = r.ID
		}
	}
	for _, t := range l.System().Sorted() {
		w, off := want[t.Name]
		m, ok := l.LowestInactive(t.Name)
		switch ms := l.OfType(t.Name); {
		case len(ms) != t.Limit:
			return fmt.Errorf("type %s: OfType gives %d servers, want %d", t.Name, len(ms), t.Limit)
		case ok && &ms[m.Ref.ID] != m:
			return fmt.Errorf("type %s: OfType's server %d is not the ledger's own", t.Name, m.Ref.ID)
		}
		switch {
		case ok != off:
			return fmt.Errorf("type %s: an inactive server: server says %t, ledger %t", t.Name, off, ok)
		case ok && m.Ref.ID != w:
			return fmt.Errorf("type %s: lowest inactive id: server says %d, ledger %d", t.Name, w, m.Ref.ID)
		}
	}
	return nil
}

func compareMachine(v strategies.View, mc *strategies.Machine, r protocol.Server) error {
	free := protocol.Requirement{Cores: r.Cores, Memory: r.Memory, Disk: r.Disk}
	if mc.State != r.State || mc.Free != free || len(mc.Running) != r.Running || len(mc.Waiting) != r.Waiting {
		return fmt.Errorf("%s: server says %s free %s running %d waiting %d; ledger %s free %s running %d waiting %d",
			r.Ref(), r.State, free, r.Running, r.Waiting, mc.State, mc.Free, len(mc.Running), len(mc.Waiting))
	}
	if mc.Powered() && mc.BootEnd != r.CurStartTime {
		return fmt.Errorf("%s: curStartTime %d, ledger BootEnd %d", r.Ref(), r.CurStartTime, mc.BootEnd)
	}
	if r.Running+r.Waiting == 0 {
		return nil
	}
	jobs, err := v.ListJobs(r.Ref())
	if err != nil {
		return err
	}
	var want, got []string
	for _, j := range jobs {
		want = append(want, fmt.Sprintf("%d/%d@%d", j.ID, j.State, j.Start))
	}
	for _, p := range mc.Running {
		got = append(got, fmt.Sprintf("%d/2@%d", p.Job.ID, p.Start))
	}
	// The server lists running jobs by their (actual) end time, unknown to
	// the ledger: compare the running ones as a set, the waiting in order.
	slices.Sort(want[:r.Running])
	slices.Sort(got)
	for _, p := range mc.Waiting {
		got = append(got, fmt.Sprintf("%d/1@%d", p.Job.ID, p.Start))
	}
	if !slices.Equal(want, got) {
		return fmt.Errorf("%s: LSTJ %v, ledger %v", r.Ref(), want, got)
	}
	return nil
}

// chaos is a test strategy that exercises every action the ledger follows:
// it places jobs on random capable servers, and at job offers sometimes
// terminates a powered server, migrates or kills a job, or enqueues the
// job; on every event it dequeues the queue's head.
type chaos struct {
	strategies.WithLedger
	rng *rand.Rand
}

func (c *chaos) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	l := v.Ledger()
	var acts []protocol.Action
	busy := l.Candidates(strategies.Powered, func(m *strategies.Machine) bool { return !m.Empty() })
	if len(busy) > 0 {
		m := busy[c.rng.IntN(len(busy))]
		all := append(slices.Clone(m.Running), m.Waiting...)
		p := all[c.rng.IntN(len(all))]
		switch c.rng.IntN(20) {
		case 0:
			acts = append(acts, protocol.Terminate{Server: m.Ref})
		case 1:
			acts = append(acts, protocol.Kill{Server: m.Ref, JobID: p.Job.ID})
		case 2, 3:
			to := l.Candidates(strategies.CapableOf(p.Req()), strategies.Usable, func(x *strategies.Machine) bool { return x.Ref != m.Ref })
			if len(to) > 0 {
				acts = append(acts, protocol.Migrate{JobID: p.Job.ID, From: m.Ref, To: to[c.rng.IntN(len(to))].Ref})
			}
		}
	}
	if c.rng.IntN(15) == 0 {
		return append(acts, protocol.Enqueue{}), nil
	}
	cands := l.Candidates(strategies.CapableOf(job.Req()), strategies.Usable, strategies.NotExcluded(v))
	if len(cands) == 0 {
		return append(acts, protocol.Enqueue{}), nil
	}
	return append(acts, protocol.Schedule{JobID: job.ID, Server: cands[c.rng.IntN(len(cands))].Ref}), nil
}

func (c *chaos) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	l := v.Ledger()
	if len(l.Queue()) > 0 {
		return []protocol.Action{protocol.Dequeue{QID: 0}}, nil
	}
	if _, ok := ev.(*protocol.CheckQueue); ok {
		// KILJ leaves a server's waiting jobs waiting when nothing runs
		// there (ds-server.md §5.12, BUG-COMPAT): switch it off, which
		// sends them to the queue.
		stuck := l.Candidates(strategies.Powered, func(m *strategies.Machine) bool { return len(m.Running) == 0 && len(m.Waiting) > 0 })
		if len(stuck) > 0 {
			return []protocol.Action{protocol.Terminate{Server: stuck[0].Ref}}, nil
		}
	}
	return nil, nil
}
