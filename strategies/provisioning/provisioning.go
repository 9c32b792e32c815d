// Package provisioning holds the autonomic-provisioning strategies of the
// provisioning thesis and Filippopoulos and Karatza's queue-or-boot rule
// (docs/provisioning.md): thr, thr-delay,
// fluidplan, costdp (with costdp-mono and costdp-nom), bestpack-boot and
// the combined provision. Importing the package registers them.
//
// Every strategy is one engine (prov) with a capacity target (B.3–B.5: how
// many cores should be powered) and a placement rule (B.3's "start now,
// boot while below target, else queue" or B.6's queue-or-boot switching
// rule). The engine keeps no picture of the cluster of its own: it reads
// the client's Ledger (per-server state, FCFS predictions), so its
// messages are its actions.
package provisioning

import (
	"fmt"
	"math"

	"github.com/dssim-go/dssim-go/strategies"
)

// targetKind is the capacity target of B.3–B.5.
type targetKind int

const (
	targetNone     targetKind = iota // bestpack-boot alone: no target (V = p_min)
	targetThr                        // B.3 fluid required capacity
	targetFluid                      // B.5 fluidplan
	targetCostDP                     // B.5 costdp (H3)
	targetCostMono                   // B.5 costdp-mono (H4)
	targetCostNoM                    // B.5 costdp-nom (H5)
)

var targetNames = map[string]targetKind{
	"thr": targetThr, "thr-delay": targetThr, "fluidplan": targetFluid,
	"costdp": targetCostDP, "costdp-mono": targetCostMono, "costdp-nom": targetCostNoM,
}

// config is every knob of the decision list, bound and checked.
type config struct {
	target   targetKind
	bestpack bool    // B.6 placement (bestpack-boot, provision) instead of B.3's
	dt       int     // Δt, decision interval (s)
	horizon  int     // H (s); 0 = max(Δt, 2 × P90 of est seen so far)
	umax     float64 // u_max
	kappa    float64 // κ
	pmin     int     // p_min (cores)
	tauIdle  int     // τ_idle (s); the TERM hysteresis of thr-delay
	gq       bool    // queue=gq: the global queue instead of per-server FCFS
	k, n     int     // costdp sizes K and N (fluidplan uses K)
	omega    float64 // ω ($ per job-second); < 0 = c_max/3600
	ntarget  float64 // fluidplan's terminal backlog n_K ≤ ntarget; < 0 = none
	c1, c2   float64 // bestpack weights; c2 < 0 = B.6 formula
	migrate  bool    // MIGJ blocked waiting jobs onto a server freed by JCPL (B.6 step 5)
	deadline int     // > 0: report "late" (end time past it), Part C for the 000 replay
}

// family describes one registered strategy: its name, summary, target and
// the defaults that differ from the common ones.
type family struct {
	name, summary string
	target        targetKind
	bestpack      bool
	tauIdle       string
	migrate       string
	withTarget    bool // provision: the target is a parameter
}

var families = []family{
	{"thr", "provisioning (the provisioning thesis's H1): power just enough cores to drain backlog + forecast within H, TERM surplus servers as they empty", targetThr, false, "0", "false", false},
	{"thr-delay", "provisioning (the provisioning thesis's H2): thr with TERM hysteresis (a surplus server is TERMed after τ_idle empty)", targetThr, false, "-1", "false", false},
	{"fluidplan", "provisioning (the provisioning thesis's LP): constant capacity minimising server cost + waiting cost of a fluid backlog over K epochs", targetFluid, false, "0", "false", false},
	{"costdp", "provisioning (the provisioning thesis's H3): receding-horizon stochastic DP over K epochs choosing the capacity, with removal charge", targetCostDP, false, "0", "false", false},
	{"costdp-mono", "provisioning (the provisioning thesis's H4): costdp with capacity monotone in the backlog", targetCostMono, false, "0", "false", false},
	{"costdp-nom", "provisioning (the provisioning thesis's H5): costdp without the removal charge M*", targetCostNoM, false, "0", "false", false},
	{"bestpack-boot", "queue-or-boot (Filippopoulos and Karatza): start now if a server can; queue if the pool frees within the boot time or the job is short; else boot iff p̂·c1·q1 > c2·q2", targetNone, true, "0", "true", false},
	{"provision", "provisioning: bestpack-boot placement gated by a capacity target (target=thr|thr-delay|fluidplan|costdp…), MIGJ and TERM at completions", targetFluid, true, "0", "true", true},
}

func init() {
	for _, f := range families {
		strategies.Register(strategies.Info{Name: f.name, Summary: f.summary, Params: f.params(),
			New: func(p strategies.Params) (strategies.Strategy, error) {
				cfg, err := f.bind(p)
				if err != nil {
					return nil, err
				}
				return newProv(f.name, cfg), nil
			}})
	}
}

// params declares the family's parameters, each with its default.
func (f family) params() []strategies.Param {
	ps := []strategies.Param{
		{Name: "dt", Kind: strategies.Int, Default: "300", Help: "decision interval Δt (s)"},
		{Name: "H", Kind: strategies.Int, Default: "0", Help: "horizon H (s); 0 = max(Δt, 2 × P90 of the estimates seen)"},
		{Name: "umax", Kind: strategies.Float, Default: "0.85", Help: "target utilisation u_max in (0, 1]"},
		{Name: "kappa", Kind: strategies.Float, Default: "1.3", Help: "estimate inflation κ ≥ 1"},
		{Name: "pmin", Kind: strategies.Int, Default: "0", Help: "minimum powered cores p_min (never TERM below it)"},
		{Name: "tauIdle", Kind: strategies.Int, Default: f.tauIdle, Help: "τ_idle: TERM a surplus server once empty this long (s); 0 = at its completion; -1 = Δt"},
		{Name: "queue", Kind: strategies.String, Default: "fcfs", Choices: []string{"fcfs", "gq"}, Help: "fcfs (per-server FCFS queues) or gq (global queue, ENQJ/DEQJ)"},
		{Name: "migrate", Kind: strategies.Bool, Default: f.migrate, Help: "MIGJ a blocked waiting job onto a server freed by a completion"},
		{Name: "deadline", Kind: strategies.Int, Default: "0", Help: "if > 0, report late = 1 when the run ends after this time (000 replay: 82800)"},
	}
	if f.withTarget {
		ps = append(ps, strategies.Param{Name: "target", Kind: strategies.String, Default: "fluidplan",
			Choices: []string{"thr", "thr-delay", "fluidplan", "costdp", "costdp-mono", "costdp-nom"},
			Help:    "capacity target: thr, thr-delay, fluidplan, costdp, costdp-mono or costdp-nom"})
	}
	if f.withTarget || f.target >= targetFluid {
		ps = append(ps,
			strategies.Param{Name: "K", Kind: strategies.Int, Default: "8", Help: "stages of the plan (each Δt)"},
			strategies.Param{Name: "N", Kind: strategies.Int, Default: "200", Help: "backlog cap, reference jobs (costdp)"},
			strategies.Param{Name: "omega", Kind: strategies.Float, Default: "-1", Help: "waiting cost ω ($ per job-second); -1 = c_max/3600"},
			strategies.Param{Name: "ntarget", Kind: strategies.Float, Default: "-1", Help: "fluidplan terminal backlog bound (reference jobs); -1 = none"})
	}
	if f.bestpack {
		ps = append(ps,
			strategies.Param{Name: "c1", Kind: strategies.Float, Default: "1", Help: "turnaround weight of the switching rule"},
			strategies.Param{Name: "c2", Kind: strategies.Float, Default: "-1", Help: "cost weight of the switching rule; -1 = B.6 formula"})
	}
	return ps
}

// bind reads and checks the parameters; a bad one is refused here, before
// the run, by name.
func (f family) bind(p strategies.Params) (config, error) {
	c := config{target: f.target, bestpack: f.bestpack, dt: p.Int("dt"), horizon: p.Int("H"),
		umax: p.Float("umax"), kappa: p.Float("kappa"), pmin: p.Int("pmin"), tauIdle: p.Int("tauIdle"),
		migrate: p.Bool("migrate"), deadline: p.Int("deadline"), k: 8, n: 200, omega: -1, ntarget: -1, c1: 1, c2: -1}
	bad := func(name string, v any, want string) (config, error) {
		return config{}, fmt.Errorf("strategy %s: parameter %s=%v: want %s", f.name, name, v, want)
	}
	switch q := p.String("queue"); q {
	case "fcfs", "gq":
		c.gq = q == "gq"
	default:
		return bad("queue", q, "fcfs or gq")
	}
	if f.withTarget {
		t, ok := targetNames[p.String("target")]
		if !ok {
			return bad("target", p.String("target"), "thr, thr-delay, fluidplan, costdp, costdp-mono or costdp-nom")
		}
		c.target = t
	}
	if f.withTarget || f.target >= targetFluid {
		c.k, c.n, c.omega, c.ntarget = p.Int("K"), p.Int("N"), p.Float("omega"), p.Float("ntarget")
	}
	if f.bestpack {
		c.c1, c.c2 = p.Float("c1"), p.Float("c2")
	}
	if c.tauIdle == -1 {
		c.tauIdle = c.dt
	}
	return c, c.check(bad)
}

// check is the range of every parameter.
func (c config) check(bad func(string, any, string) (config, error)) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	var err error
	switch {
	case c.dt < 1:
		_, err = bad("dt", c.dt, "an integer ≥ 1")
	case c.horizon < 0:
		_, err = bad("H", c.horizon, "an integer ≥ 0 (0 = automatic)")
	case !(c.umax > 0 && c.umax <= 1):
		_, err = bad("umax", c.umax, "a number in (0, 1]")
	case !(c.kappa >= 1) || !finite(c.kappa):
		_, err = bad("kappa", c.kappa, "a finite number ≥ 1")
	case c.pmin < 0:
		_, err = bad("pmin", c.pmin, "an integer ≥ 0")
	case c.tauIdle < 0:
		_, err = bad("tauIdle", c.tauIdle, "an integer ≥ 0, or -1 for Δt")
	case c.k < 1:
		_, err = bad("K", c.k, "an integer ≥ 1")
	case c.n < 1:
		_, err = bad("N", c.n, "an integer ≥ 1")
	case !finite(c.omega) || (c.omega < 0 && c.omega != -1):
		_, err = bad("omega", c.omega, "a finite number ≥ 0, or -1 for c_max/3600")
	case !finite(c.ntarget):
		_, err = bad("ntarget", c.ntarget, "a finite number (< 0 = none)")
	case !(c.c1 >= 0) || !finite(c.c1):
		_, err = bad("c1", c.c1, "a finite number ≥ 0")
	case !finite(c.c2) || (c.c2 < 0 && c.c2 != -1):
		_, err = bad("c2", c.c2, "a finite number ≥ 0, or -1 for the B.6 formula")
	case c.deadline < 0:
		_, err = bad("deadline", c.deadline, "an integer ≥ 0")
	}
	return err
}
