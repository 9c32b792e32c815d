package frontier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// walkModel is the warm bet's state as cool kept it before it was made
// incremental: every kept server in the order kept, each weighed at every
// decision. Its cool is that walk, verbatim but for the state's shape: the
// reference TestCoolMatchesTheWalk holds the incremental one to.
type walkModel struct {
	kept []walkKept
	net  float64
}

type walkKept struct {
	m                      *strategies.Machine
	seq, since, idle, seen int
	off                    bool
}

func (w *walkModel) cool(f *frontier, l *strategies.Ledger, touched []protocol.ServerRef) ([]protocol.Action, []protocol.ServerRef) {
	type terms struct {
		hold  int
		limit float64
		pays  bool
		ahead int
	}
	per := map[string]*terms{}
	var acts []protocol.Action
	rest := w.kept[:0]
	for _, k := range w.kept {
		k.off = false
		seen := k.seen
		k.seen = l.Now()
		tt := per[k.m.Ref.Type]
		if tt == nil {
			tt = &terms{hold: f.hold(k.m)}
			if f.dem.active {
				tt.limit, tt.pays = f.demandFor(k.m, l.Now())
			}
			per[k.m.Ref.Type] = tt
		}
		switch {
		case !k.m.Powered():
		case !k.m.Empty():
			first := k.m.Waiting
			if len(k.m.Running) > 0 {
				first = k.m.Running
			}
			w.net -= float64(max(0, first[0].Start-k.since)) * (k.m.Type.HourlyRate / 3600)
		case k.m.IdleSince != k.idle:
			w.net -= float64(max(0, seen-k.since)) * (k.m.Type.HourlyRate / 3600)
		case slices.Contains(touched, k.m.Ref):
			rest = append(rest, k)
		case f.dem.active && wants(tt.limit, tt.pays, tt.ahead):
			tt.ahead++
			rest = append(rest, k)
		case l.Now()-k.since >= tt.hold:
			k.off = true
			rest = append(rest, k)
			acts = append(acts, protocol.Terminate{Server: k.m.Ref})
			touched = append(touched, k.m.Ref)
		default:
			rest = append(rest, k)
		}
	}
	w.kept = rest
	return acts, touched
}

// settle is taken and poweredOff as they were: the bet on m settled (its
// idle time until now lost when off is asked and cool had powered it off,
// always when a job took it).
func (w *walkModel) settle(m *strategies.Machine, now int, took bool) {
	i := slices.IndexFunc(w.kept, func(k walkKept) bool { return k.m == m })
	if i < 0 {
		return
	}
	if k := w.kept[i]; took || k.off {
		w.net -= float64(max(0, now-k.since)) * (k.m.Type.HourlyRate / 3600)
	}
	w.kept = slices.Delete(w.kept, i, i+1)
}

// coolWorld drives one frontier and its walkModel through random
// decisions on a ledger of three types: servers kept on, taken by another
// member's jobs (which may leave before the next decision), powered off
// and failed behind frontier's back, taken and powered off by frontier,
// decisions that touch kept servers, holds running out, the demand
// forecast's arrivals coming.
type coolWorld struct {
	t     *testing.T
	f     *frontier
	v     *strattest.FakeView
	w     walkModel
	rng   *rand.Rand
	now   int
	jobID int
	refs  []protocol.ServerRef
	runs  map[protocol.ServerRef]int // another member's job running there
	// arrivals bounds those the forecast counts at each decision: few
	// make it want fewer than are kept of a type, so some are powered off.
	arrivals int
}

func newCoolWorld(t *testing.T, warm string, seed uint64) *coolWorld {
	f, v := clusterOf(t, map[string]string{"weight": "10", "warm": warm},
		servertypes.Type{Name: "a", Limit: 8, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "b", Limit: 8, BootupTime: 120, HourlyRate: 0.7, Cores: 4, Memory: 16000, Disk: 64000},
		servertypes.Type{Name: "c", Limit: 8, BootupTime: 200, HourlyRate: 2.3, Cores: 16, Memory: 64000, Disk: 256000})
	f.perCoreSecond = 0.1 / 3600
	c := &coolWorld{t: t, f: f, v: v, rng: rand.New(rand.NewPCG(seed, 7)), runs: map[protocol.ServerRef]int{}, arrivals: 1 + int(seed%6)}
	for _, typ := range []string{"a", "b", "c"} {
		for id := range 8 {
			c.refs = append(c.refs, ref(typ, id))
		}
	}
	f.warm.offered(jb(0, 0, 3, 100))
	f.dem.gap = 20
	for _, r := range c.refs { // every server powered and empty from 1000
		c.other(r)
	}
	c.now = 1000
	for r := range c.runs {
		c.leave(r)
	}
	return c
}

// other places another member's job on r (booting it when off).
func (c *coolWorld) other(r protocol.ServerRef) {
	c.jobID++
	j := jb(c.jobID, c.now, 1, 100)
	offer(c.v, j)
	require.NoError(c.t, c.v.Book.Applied(protocol.Schedule{JobID: j.ID, Server: r}, "OK"))
	c.runs[r] = j.ID
}

// leave completes the job another member placed on r.
func (c *coolWorld) leave(r protocol.ServerRef) {
	complete(c.v, c.runs[r], c.now, r)
	delete(c.runs, r)
}

func (c *coolWorld) machine(r protocol.ServerRef) *strategies.Machine {
	m, ok := c.v.Book.Machine(r)
	require.True(c.t, ok)
	return m
}

// keep notes an empty powered server kept, in both.
func (c *coolWorld) keep(m *strategies.Machine, since int) {
	c.f.noteKept(m, since)
	c.w.kept = append(c.w.kept, walkKept{m: m, seq: c.f.warm.kept.seq - 1, since: since, idle: m.IdleSince, seen: since})
}

// step makes one random change between two decisions.
func (c *coolWorld) step() {
	r := c.refs[c.rng.IntN(len(c.refs))]
	m := c.machine(r)
	kept := c.f.warm.kept.has(m)
	switch c.rng.IntN(9) {
	case 0, 1: // kept on by frontier (a server off is booted and emptied first, by another member)
		if m.Powered() && m.Empty() && !kept {
			c.keep(m, c.now)
		}
	case 2:
		if _, busy := c.runs[r]; !busy && m.Usable() {
			c.other(r)
		}
	case 3:
		if _, busy := c.runs[r]; busy && m.Powered() && m.BootEnd <= c.now {
			c.leave(r)
		}
	case 8: // another member's job on a kept server, gone before the next decision
		if _, busy := c.runs[r]; kept && !busy {
			c.other(r)
			c.leave(r)
		}
	case 4: // another member's TERM
		if m.Powered() {
			other(c.t, c.v, protocol.Terminate{Server: r})
			delete(c.runs, r)
		}
	case 5:
		if c.rng.IntN(3) == 0 && m.Usable() {
			c.v.Book.Observe(&protocol.ServerFailed{Server: r, Time: c.now})
			delete(c.runs, r)
			c.v.Book.Observe(&protocol.ServerRecovered{Server: r, Time: c.now})
		}
	case 6: // frontier's own job takes a kept server, done
		if kept && m.Powered() {
			c.other(r)
			c.f.warm.taken(m, c.now)
			c.w.settle(m, c.now, true)
		}
	case 7: // a TERM of frontier's done (cool's or another rule's)
		if kept && m.Empty() {
			other(c.t, c.v, protocol.Terminate{Server: r})
			c.f.warm.poweredOff(m, c.now)
			c.w.settle(m, c.now, false)
		}
	}
}

// decision lets time pass, makes changes, and compares one cool of both.
func (c *coolWorld) decision(i int) {
	c.now += c.rng.IntN(90)
	offer(c.v, jb(-1, c.now, 1, 1)) // the clock
	for range c.rng.IntN(6) {
		c.step()
	}
	for range c.rng.IntN(c.arrivals) { // arrivals the forecast counts
		c.f.dem.placed(c.now, c.refs[c.rng.IntN(len(c.refs))].Type, 1+c.rng.IntN(4))
	}
	if c.rng.IntN(40) == 0 {
		c.f.warm.ledger = nil // as after a Resync: the ledger cannot tell what changed
	}
	var touched []protocol.ServerRef
	for range c.rng.IntN(4) {
		r := c.refs[c.rng.IntN(len(c.refs))]
		if n := len(c.w.kept); n > 0 && c.rng.IntN(2) == 0 { // mostly the first of a type (the ones the forecast wants)
			r = c.w.kept[c.rng.IntN(1+c.rng.IntN(n))].m.Ref
		}
		touched = append(touched, r)
		if c.rng.IntN(3) == 0 { // settle and replan may both touch a server
			touched = append(touched, r)
		}
	}
	wantActs, wantTouched := c.w.cool(c.f, c.v.Book, slices.Clone(touched))
	c.f.look(c.v.Book) // what changed since the last decision, forgotten at its top (see look)
	acts, gotTouched := c.f.cool(c.v.Book, slices.Clone(touched))
	what := fmt.Sprintf("decision %d at %d, touched %v", i, c.now, touched)
	require.Equal(c.t, wantActs, acts, what)
	require.Equal(c.t, wantTouched, gotTouched, what)
	require.Equal(c.t, c.w.net, c.f.warm.net, what) // the same float, added in the same order
	var want, got []string
	for _, k := range c.w.kept {
		want = append(want, fmt.Sprint(k.seq, k.m.Ref, k.since, k.idle, k.off))
	}
	for _, k := range c.f.warm.kept.inOrder() {
		got = append(got, fmt.Sprint(k.seq, k.m.Ref, k.since, k.idle, k.off))
	}
	require.Equal(c.t, want, got, what)
	for _, k := range slices.Clone(c.w.kept) {
		if k.off && c.rng.IntN(2) == 0 { // cool's TERM done, or not (refused, or another proposal taken)
			other(c.t, c.v, protocol.Terminate{Server: k.m.Ref})
			c.f.warm.poweredOff(k.m, c.now)
			c.w.settle(k.m, c.now, false)
		}
	}
}

// cool weighs only the kept servers the ledger changed and the front of
// each type's list; its TERMs, the bet's net and the servers left kept
// must be those of weighing every kept server at every decision, as it
// did before (walkModel), whatever happens between decisions: with the
// bet alone, with the demand forecast (the first ones of a type wanted,
// counted past touched ones), and with servers kept out of time order.
func TestCoolMatchesTheWalk(t *testing.T) {
	for _, warm := range []string{"on", "demand"} {
		for seed := range uint64(100) {
			c := newCoolWorld(t, warm, seed)
			for i := range 80 {
				if seed%4 == 3 && i%7 == 0 { // kept as if earlier than one kept before
					for _, r := range c.refs {
						if m := c.machine(r); m.Powered() && m.Empty() && !c.f.warm.kept.has(m) {
							c.keep(m, c.now-c.rng.IntN(300))
							break
						}
					}
				}
				c.decision(i)
			}
		}
	}
}

// wantedCount is the number of ahead values for which wants holds.
func TestWantedCount(t *testing.T) {
	for _, limit := range []float64{math.NaN(), -1, 0, 0.25, 1, 1.0000001, 2.9999999, 3, 7.5, 40} {
		for _, pays := range []bool{false, true} {
			n := 0
			for wants(limit, pays, n) {
				n++
			}
			require.Equal(t, n, wantedCount(limit, pays), "limit %v, pays %v", limit, pays)
		}
	}
}
