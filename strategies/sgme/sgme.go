// Package sgme is "similarity-group memory estimation" (Yom-Tov and Aridor;
// docs/sgme.md): a wrapper around a base placement policy
// that, against the dsmock extension of Part E, dispatches each job with
// the memory its similarity group is estimated to use (package estimator)
// instead of its request, and learns from completions and memory failures.
//
// Real mode (mode=real, the default) is the base policy, message for
// message: the real ds-server books requests and never fails a job for
// memory, so there is nothing to gain or learn (B.3, Part F). Mock mode
// (mode=mock) sends the first job with `SCHM jobID type id allocMem`; the
// real server (and dsmock without the extension) answers `ERR: invalid
// command (…)`, and sgme then sends that job's SCHD and behaves as the base
// policy for the rest of the run (B.5). With the extension every dispatch
// is an SCHM with E' and the base policy chooses servers for a job whose
// memory is E' (so `GETS Capable c E' d`).
package sgme

import (
	"fmt"
	"strings"

	"github.com/dssim-go/dssim-go/estimator"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// Built-in bases: strict FCFS with head-of-line blocking (B.5), first fit
// or best fit. Their names cannot clash with a registered strategy's (none
// has a hyphen-"ff"/"bf" suffix after fcfs; libra's `fcfs` is a different
// policy and stays reachable as base=fcfs).
const (
	BaseFCFSFirst = "fcfs-ff"
	BaseFCFSBest  = "fcfs-bf"
)

// Rounding parameter values.
const (
	RoundGranularity = "granularity" // shared mode: multiples of g, floor, never above R (B.2 roundUp_g)
	RoundLevels      = "levels"      // the server types' memory capacities, never above R (roundUp_clamped)
	RoundPaper       = "paper"       // the capacities, may exceed R (roundUp_paper, B.1)
)

func init() {
	strategies.Register(strategies.Info{
		Name:    "sgme",
		Summary: "similarity-group memory estimation (Yom-Tov and Aridor): a base policy that, with dsmock's extension, reserves each job's estimated memory (SCHM) and learns from failures",
		Params: []strategies.Param{
			{Name: "base", Kind: strategies.String, Default: BaseFCFSFirst,
				Help: "the base placement policy: fcfs-ff (strict FCFS, head-of-line, first fit), fcfs-bf (… best fit on memory), or a registered strategy (ff, bf, cost-reduce:multiplier=2 …)"},
			{Name: "mode", Kind: strategies.String, Default: "real", Choices: []string{"real", "mock"},
				Help: "real: the base policy's messages, unchanged; mock: estimate with the dsmock extension, detected with the first SCHM (falls back to real)"},
			{Name: "alpha", Kind: strategies.Float, Default: "2", Help: "α > 1: a group's estimate is divided by α after each success"},
			{Name: "beta", Kind: strategies.Float, Default: "0", Help: "β in [0,1): α ← max(α^β, 1) after a memory failure (0: a group freezes at its first failure)"},
			{Name: "key", Kind: strategies.String, Default: "k1", Choices: []string{"k1", "k2", "k3", "k4"}, Help: "similarity key: k1 (cores, memory), k2 (+ disk), k3 (cores, log2 memory, log2 estRunTime; ratio of R), k4 (memory)"},
			{Name: "rounding", Kind: strategies.String, Default: RoundGranularity, Choices: []string{RoundGranularity, RoundLevels, RoundPaper}, Help: "granularity (multiples of g), levels (server memory sizes ≤ R) or paper (server memory sizes, may exceed R)"},
			{Name: "granularity", Kind: strategies.Int, Default: "100", Help: "g, MB, for rounding=granularity"},
			{Name: "floor", Kind: strategies.Int, Default: "100", Help: "the least memory dispatched, MB (GETS refuses less than 100)"},
			{Name: "retry", Kind: strategies.String, Default: "full", Choices: []string{"full", "group"}, Help: "after a memory failure: full (the whole request) or group (the group's new estimate)"},
		},
		New: newFromParams,
	})
}

// settings are sgme's checked parameters.
type settings struct {
	base     strategies.Spec
	mock     bool
	cfg      estimator.Config // Round is nil for the level rounders until the server types are known
	rounding string
}

func newFromParams(p strategies.Params) (strategies.Strategy, error) {
	st, err := parse(p)
	if err != nil {
		return nil, err
	}
	base, err := newBase(st.base)
	if err != nil {
		return nil, err
	}
	_, ledger := base.(strategies.LedgerUser)
	if ledger && st.mock {
		// The client's ledger books a job's request on SCHD and knows no
		// SCHM: its predictions would be wrong from the first reduced job.
		return nil, fmt.Errorf("strategy sgme: parameter base=%s: a ledger strategy cannot be a mock-mode base (the ledger books requests, not estimates); use it with mode=real or choose another base", st.base)
	}
	w := &sgme{set: st, base: base}
	w.obs, _ = base.(strategies.OutcomeObserver)
	if f, ok := base.(*fcfs); ok {
		f.peek = w.peekReq
		f.front = func(id int) bool { return w.full[id] }
		f.original = func(j protocol.Job) protocol.Job {
			if w.onOffer && w.cur.ID == j.ID {
				return w.cur
			}
			return j
		}
	}
	if ledger {
		return &sgmeLedger{w}, nil
	}
	return w, nil
}

// parse checks every parameter before the run, naming the bad one.
func parse(p strategies.Params) (settings, error) {
	var st settings
	bad := func(name string, err error) (settings, error) {
		return settings{}, fmt.Errorf("strategy sgme: parameter %s: %w", name, err)
	}
	spec, err := strategies.ParseSpec(p.String("base"))
	if err != nil {
		return bad("base", err)
	}
	st.base = spec
	switch m := strings.ToLower(strings.TrimSpace(p.String("mode"))); m {
	case "real", "mock":
		st.mock = m == "mock"
	default:
		return bad("mode", fmt.Errorf("%q: want real or mock", p.String("mode")))
	}
	cfg := estimator.Default()
	cfg.Alpha, cfg.Beta, cfg.Floor = p.Float("alpha"), p.Float("beta"), float64(p.Int("floor"))
	if cfg.Key, err = estimator.ParseKeyKind(p.String("key")); err != nil {
		return bad("key", err)
	}
	if cfg.Retry, err = estimator.ParseRetry(p.String("retry")); err != nil {
		return bad("retry", err)
	}
	st.rounding = strings.ToLower(strings.TrimSpace(p.String("rounding")))
	switch st.rounding {
	case RoundGranularity:
		g := p.Int("granularity")
		if g <= 0 {
			return bad("granularity", fmt.Errorf("%d: want a positive number of MB", g))
		}
		cfg.Round = estimator.Granularity{G: float64(g), Floor: cfg.Floor}
	case RoundLevels, RoundPaper:
		cfg.Round = estimator.Granularity{G: 1} // placeholder for the check; the levels come with the server types
	default:
		return bad("rounding", fmt.Errorf("%q: want %s, %s or %s", p.String("rounding"), RoundGranularity, RoundLevels, RoundPaper))
	}
	if err := cfg.Validate(); err != nil {
		name, _, _ := strings.Cut(err.Error(), "=")
		return bad(name, err)
	}
	st.cfg = cfg
	return st, nil
}

// newBase makes the base policy a spec names.
func newBase(spec strategies.Spec) (strategies.Strategy, error) {
	switch spec.Name {
	case BaseFCFSFirst, BaseFCFSBest:
		if len(spec.Settings) > 0 {
			return nil, fmt.Errorf("strategy sgme: parameter base=%s: %s takes no settings", spec, spec.Name)
		}
		return newFCFS(spec.Name == BaseFCFSBest), nil
	case "sgme":
		return nil, fmt.Errorf("strategy sgme: parameter base=%s: sgme cannot wrap itself", spec)
	}
	if _, ok := strategies.Lookup(spec.Name); !ok {
		return nil, fmt.Errorf("strategy sgme: parameter base=%s: unknown base policy %q (known: %s, %s, %s)",
			spec, spec.Name, BaseFCFSFirst, BaseFCFSBest, strings.Join(strategies.Names(), ", "))
	}
	s, err := strategies.New(spec.Name, spec.Settings)
	if err != nil {
		return nil, fmt.Errorf("strategy sgme: parameter base=%s: %w", spec, err)
	}
	return s, nil
}
