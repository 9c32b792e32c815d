package libra

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/strategies"
)

// preset is one column of libra.md B.9: the QoS workload of one thesis
// chapter. A parameter left at its default ("NaN", shown as "preset")
// takes the preset's value; one given explicitly wins.
type preset struct {
	name                                     string
	dRatio, dLow, bRatio, bLow, pRatio, pLow float64
	alpha, beta                              float64
}

// The B.9 presets. Where a table gives no budget or penalty ("–": the
// Libra/LibraRiskD table has neither, Libra+$'s has no penalty) we fill in
// the unified Ch. 6 values (4 / 4), so that every variant's profitability
// metrics are defined on the same footing; they do not affect the
// variants that do not use them.
var presets = []preset{
	{name: "riskd", dRatio: 4, dLow: 4, bRatio: 4, bLow: 4, pRatio: 4, pLow: 4, alpha: 1, beta: 0.1}, // Table 5.1, Libra and LibraRiskD
	{name: "plus", dRatio: 4, dLow: 2, bRatio: 4, bLow: 2, pRatio: 4, pLow: 4, alpha: 1, beta: 0.1},  // Table 3.1, Libra+$
	{name: "sla", dRatio: 7, dLow: 3.5, bRatio: 7, bLow: 4, pRatio: 4, pLow: 4, alpha: 1, beta: 0.1}, // Table 4.1, LibraSLA
	{name: "ch6", dRatio: 4, dLow: 4, bRatio: 4, bLow: 4, pRatio: 4, pLow: 4, alpha: 1, beta: 0.3},   // Table 6.6, unified Ch. 6
}

func presetNames() string {
	n := make([]string, len(presets))
	for i, p := range presets {
		n[i] = p.name
	}
	return strings.Join(n, "|")
}

func lookupPreset(name string) (preset, error) {
	for _, p := range presets {
		if p.name == name {
			return p, nil
		}
	}
	return preset{}, fmt.Errorf("preset=%q: unknown preset (known: %s)", name, presetNames())
}

// fromPreset marks a numeric parameter whose default is the preset's value.
const fromPreset = "NaN"

// qosParamDecls are the synthesis parameters every strategy of the family
// takes (the comparison policies too: their admission needs deadlines).
func qosParamDecls(defPreset string) []strategies.Param {
	f := func(name, def, help string) strategies.Param {
		return strategies.Param{Name: name, Kind: strategies.Float, Default: def, Help: help}
	}
	return []strategies.Param{
		{Name: "preset", Kind: strategies.String, Default: defPreset, Choices: []string{"riskd", "plus", "sla", "ch6"},
			Help: "B.9 column: riskd (Table 5.1), plus (Table 3.1), sla (Table 4.1), ch6 (Table 6.6)"},
		f("pctHighUrgency", "20", "% of high-urgency jobs (0..100)"),
		f("deadlineHighLowRatio", fromPreset, "ratio of the class means of D/R (NaN: the preset's)"),
		f("deadlineLowMean", fromPreset, "mean D/R of high-urgency jobs (NaN: the preset's)"),
		f("budgetHighLowRatio", fromPreset, "ratio of the class means of B/f(R) (NaN: the preset's)"),
		f("budgetLowMean", fromPreset, "mean B/f(R) of low-urgency jobs (NaN: the preset's)"),
		f("penaltyRateHighLowRatio", fromPreset, "ratio of the class means of PR/g(R) (NaN: the preset's)"),
		f("penaltyRateLowMean", fromPreset, "mean PR/g(R) of low-urgency jobs (NaN: the preset's)"),
		f("deadlineBias", "1", "Ch. 6 bias (> 0; 1 = none); needs avgRuntimeRef"),
		f("budgetBias", "1", "Ch. 6 bias (> 0; 1 = none); needs avgRuntimeRef"),
		f("penaltyBias", "1", "Ch. 6 bias (> 0; 1 = none); needs avgRuntimeRef"),
		f("avgRuntimeRef", "0", "mean runtime (s) the Ch. 6 bias compares against"),
		f("cv", "0.25", "sd/mean of the synthesised factors (≥ 0; assumed, the thesis gives none)"),
		f("dMin", "1", "lower bound of the deadline factor (≥ 1: a deadline shorter than the runtime is refused)"),
		{Name: "seed", Kind: strategies.String, Default: "0x4C49425241", Help: "hash seed (decimal or 0x hex)"},
		{Name: "preferPowered", Kind: strategies.Bool, Default: "true", Help: "try booting/idle/active servers before inactive ones"},
	}
}

// admissionParamDecls are the four variants' switches for what a reject
// does and where timelines come from (the comparison policies have neither:
// they dispatch rejects by earliest finish and read the ledger).
func admissionParamDecls() []strategies.Param {
	return []strategies.Param{
		{Name: "fallback", Kind: strategies.String, Default: "earliest", Choices: []string{"earliest", "cheapest", "defer"}, Help: "after a reject: earliest | cheapest | defer"},
		{Name: "timeline", Kind: strategies.String, Default: "ledger", Choices: []string{"ledger", "lstj", "ejwt"},
			Help: "server timelines from: ledger (client-side shadow, resynced when stale) | lstj (one LSTJ per non-empty candidate) | ejwt (cheap EJWT bound for the new job)"},
	}
}

// bindQoS resolves the synthesis parameters and checks every range, so a
// bad value is refused before the run, naming the parameter.
func bindQoS(p strategies.Params) (qosParams, preset, error) {
	pre, err := lookupPreset(p.String("preset"))
	if err != nil {
		return qosParams{}, pre, err
	}
	or := func(name string, def float64) float64 {
		if v := p.Float(name); !math.IsNaN(v) {
			return v
		}
		return def
	}
	q := qosParams{
		pctHigh: p.Float("pctHighUrgency"),
		dRatio:  or("deadlineHighLowRatio", pre.dRatio), dLow: or("deadlineLowMean", pre.dLow),
		bRatio: or("budgetHighLowRatio", pre.bRatio), bLow: or("budgetLowMean", pre.bLow),
		pRatio: or("penaltyRateHighLowRatio", pre.pRatio), pLow: or("penaltyRateLowMean", pre.pLow),
		dBias: p.Float("deadlineBias"), bBias: p.Float("budgetBias"), pBias: p.Float("penaltyBias"),
		avgRuntimeRef: p.Float("avgRuntimeRef"), cv: p.Float("cv"), dMin: p.Float("dMin"),
	}
	q.seed, err = strconv.ParseUint(strings.TrimSpace(p.String("seed")), 0, 64)
	if err != nil {
		return q, pre, fmt.Errorf("seed=%q: want an unsigned 64-bit integer (decimal or 0x hex)", p.String("seed"))
	}
	return q, pre, q.check()
}

func (q *qosParams) check() error {
	checks := []struct {
		name string
		v    float64
		ok   bool
		want string
	}{
		{"pctHighUrgency", q.pctHigh, q.pctHigh >= 0 && q.pctHigh <= 100, "a percentage in [0, 100]"},
		{"cv", q.cv, q.cv >= 0, "≥ 0"},
		{"dMin", q.dMin, q.dMin >= 1, "≥ 1 (a deadline must exceed the runtime)"},
		{"deadlineHighLowRatio", q.dRatio, q.dRatio > 0, "> 0"},
		{"deadlineLowMean", q.dLow, q.dLow > 0, "> 0"},
		{"budgetHighLowRatio", q.bRatio, q.bRatio > 0, "> 0"},
		{"budgetLowMean", q.bLow, q.bLow >= 0, "≥ 0"},
		{"penaltyRateHighLowRatio", q.pRatio, q.pRatio > 0, "> 0"},
		{"penaltyRateLowMean", q.pLow, q.pLow >= 0, "≥ 0"},
		{"deadlineBias", q.dBias, q.dBias > 0, "> 0"},
		{"budgetBias", q.bBias, q.bBias > 0, "> 0"},
		{"penaltyBias", q.pBias, q.pBias > 0, "> 0"},
		{"avgRuntimeRef", q.avgRuntimeRef, q.avgRuntimeRef >= 0, "≥ 0"},
	}
	for _, c := range checks {
		if !c.ok || math.IsInf(c.v, 0) || math.IsNaN(c.v) {
			return fmt.Errorf("%s=%v: want %s", c.name, c.v, c.want)
		}
	}
	if (q.dBias != 1 || q.bBias != 1 || q.pBias != 1) && q.avgRuntimeRef <= 0 {
		return fmt.Errorf("avgRuntimeRef=%v: a bias other than 1 needs the mean runtime it compares against (> 0)", q.avgRuntimeRef)
	}
	return nil
}

// oneOf checks a String parameter against its allowed values.
func oneOf(p strategies.Params, name string, allowed ...string) (string, error) {
	v := p.String(name)
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s=%q: want one of %s", name, v, strings.Join(allowed, " | "))
}

// positive checks a Float parameter.
func positive(p strategies.Params, name string, allowZero bool) (float64, error) {
	v := p.Float(name)
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (v == 0 && !allowZero) {
		want := "> 0"
		if allowZero {
			want = "≥ 0"
		}
		return 0, fmt.Errorf("%s=%v: want %s", name, v, want)
	}
	return v, nil
}
