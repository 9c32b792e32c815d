package provisioning

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

func job(id, submit, cores, est int) protocol.Job {
	return protocol.Job{ID: id, Submit: submit, Cores: cores, Memory: 100, Disk: 100, EstRunTime: est}
}

func ref(typ string, id int) protocol.ServerRef { return protocol.ServerRef{Type: typ, ID: id} }

// book drives a ledger as the client would: offer, then apply the SCHD.
type book struct {
	t *testing.T
	v *strattest.FakeView
}

func newBook(t *testing.T, types ...servertypes.Type) *book {
	sys := strattest.System(types...)
	return &book{t, &strattest.FakeView{Sys: sys, Book: strategies.NewLedger(sys)}}
}

func (b *book) offer(j protocol.Job) {
	b.v.Time = j.Submit
	b.v.Book.Observe(&protocol.JobOffer{Job: j})
}

func (b *book) sched(j protocol.Job, r protocol.ServerRef) {
	b.offer(j)
	require.NoError(b.t, b.v.Book.Applied(protocol.Schedule{JobID: j.ID, Server: r}, "OK"))
}

func (b *book) complete(at, id int, r protocol.ServerRef) *protocol.JobCompleted {
	b.v.Time = at
	e := &protocol.JobCompleted{Time: at, JobID: id, Server: r}
	b.v.Book.Observe(e)
	return e
}

var eight = servertypes.Type{Name: "big", Limit: 1, BootupTime: 0, HourlyRate: 0.8, Cores: 8, Memory: 8000, Disk: 8000}

// D.3 "thr required capacity": Δt 300, H 1200, u_max 0.85, κ 1.3, now 2000;
// A (4 cores, est 1000, started 1500) has 800 s left → 3,200 core-s; B
// (2 cores, est 600, waiting) 1,560; W = 4,760; λ̂ = 2 → A = 2,400;
// V = ⌈7,160/1,020⌉ = 8.
func TestThrRequiredCapacityD3(t *testing.T) {
	b := newBook(t, eight)
	b.sched(job(1, 1500, 4, 1000), ref("big", 0)) // boot 0: starts at once
	b.sched(job(2, 1600, 8, 5000), ref("big", 0)) // waits behind A (8 cores)
	b.sched(job(3, 1700, 2, 600), ref("big", 0))  // B, waits
	// Take the 8-core blocker out: remaining waiting is B only.
	require.NoError(t, b.v.Book.Applied(protocol.Kill{Server: ref("big", 0), JobID: 2}, "OK"))
	b.v.Book.Observe(&protocol.CheckQueue{})
	l := b.v.Book
	m, _ := l.Machine(ref("big", 0))
	require.Len(t, m.Running, 1)
	require.Equal(t, 1500, m.Running[0].Start)
	require.Len(t, m.Waiting, 1)
	w := workloadAt(l, 2000, 1.3)
	assert.InDelta(t, 4760, w, 1e-9)
	a := 2.0 * 1200
	assert.Equal(t, 8, requiredCores(w, a, 1200, 0.85))
	assert.InDelta(t, 7.0196, (w+a)/(1200*0.85), 1e-4)
}

// workloadAt is workload without the killed job parked in GQ (the vector
// has no queue).
func workloadAt(l *strategies.Ledger, now int, kappa float64) float64 {
	w := workload(l, now, kappa)
	for _, q := range l.Queue() {
		j, _ := l.Job(q.ID)
		w -= float64(j.Cores) * kappa * float64(j.EstRunTime)
	}
	return w
}

// D.3 "costdp kernel": Δt 300, x̄ 1200 (pc = 1 − e^{−0.25}), λ̂_jobs·Δt 0.5.
func TestCostDPKernelD3(t *testing.T) {
	pc := 1 - math.Exp(-0.25)
	assert.InDelta(t, 0.221199, pc, 5e-7)
	var d dpScratch
	d.poisLo, d.pois = poisson(0.5, nil)
	for s := 0; s <= 60; s++ {
		lo, pmf := binomial(s, pc, nil)
		d.binom, d.binLo = append(d.binom, pmf), append(d.binLo, lo)
	}
	want := map[int][]float64{ // k(2, n, m) from m = first
		3: {0.029677, 0.223813, 0.476076, 0.210680, 0.050416, 0.008216, 0.001013, 0.000100, 0.000008},
		1: {0.149003, 0.580563, 0.210680, 0.050416, 0.008216, 0.001013, 0.000100, 0.000008},
	}
	first := map[int]int{3: 1, 1: 0}
	for n, ks := range want {
		lo, row := d.kernelRow(2, n, nil)
		sum := 0.0
		for i, p := range row {
			sum += p
			m := lo + i
			if k := m - first[n]; k >= 0 && k < len(ks) {
				assert.InDelta(t, ks[k], p, 5e-7, "k(2,%d,%d)", n, m)
			} else {
				assert.Less(t, p, 1e-6, "k(2,%d,%d) outside the table (below 0.000001)", n, m)
			}
		}
		assert.InDelta(t, 1, sum, 1e-9, "n=%d: a distribution", n)
	}
}

// D.3 "bestpack-boot gate": b = 60: est 39 never boots, est 40 passes.
func TestBootGateD3(t *testing.T) {
	assert.False(t, bootGate(39, 60))
	assert.True(t, bootGate(40, 60))
	assert.True(t, bootGate(1000, 60))
	assert.True(t, bootGate(0, 0))
}

// Bad parameters are refused before the run, naming the parameter.
func TestBadParametersRefused(t *testing.T) {
	cases := []struct {
		name string
		set  map[string]string
		want string
	}{
		{"thr", map[string]string{"umax": "0"}, "umax"},
		{"thr", map[string]string{"umax": "1.2"}, "umax"},
		{"thr-delay", map[string]string{"umax": "-0.5"}, "umax"},
		{"fluidplan", map[string]string{"kappa": "0.9"}, "kappa"},
		{"costdp", map[string]string{"K": "0"}, "K"},
		{"costdp-mono", map[string]string{"N": "0"}, "N"},
		{"provision", map[string]string{"target": "magic"}, "target"},
		{"provision", map[string]string{"K": "-3"}, "K"},
		{"thr", map[string]string{"queue": "lifo"}, "queue"},
		{"bestpack-boot", map[string]string{"c1": "-1"}, "c1"},
		{"thr", map[string]string{"dt": "0"}, "dt"},
	}
	for _, c := range cases {
		_, err := strategies.New(c.name, c.set)
		require.Error(t, err, "%s %v", c.name, c.set)
		assert.Contains(t, err.Error(), "parameter "+c.want+"=", "%s %v", c.name, c.set)
	}
	for _, f := range families {
		_, err := strategies.New(f.name, map[string]string{"umax": "1", "kappa": "1"})
		assert.NoError(t, err, "%s: the closed ends are allowed", f.name)
	}
}
