package libra

import (
	"fmt"

	"github.com/dssim-go/dssim-go/strategies"
)

// The family's registrations: the four variants of libra.md B.6 (Libra+$Auto
// is libraplus with betaAuto=true) and the thesis's comparison policies.
func init() {
	f := func(name, def, help string) strategies.Param {
		return strategies.Param{Name: name, Kind: strategies.Float, Default: def, Help: help}
	}
	reg := func(name, summary, preset string, v variant, extra ...strategies.Param) {
		strategies.Register(strategies.Info{
			Name: name, Summary: summary,
			Params: append(append(qosParamDecls(preset), admissionParamDecls()...), extra...),
			New: func(p strategies.Params) (strategies.Strategy, error) {
				s, err := newLibra(p, v)
				if err != nil {
					return nil, fmt.Errorf("strategy %s: %w", name, err)
				}
				return s, nil
			},
		})
	}
	reg("libra", "Libra (Yeo's thesis): best fit among servers predicted to meet the synthesised deadline; else earliest finish", "riskd", vLibra,
		f("gamma", "1", "Libra's static price: γ·RE (A.1.8)"), f("delta", "1", "Libra's static price: δ·RE/D (A.1.8)"))
	reg("libraplus", "Libra+$ (Yeo's thesis): best fit within budget at a price rising with the server's load (betaAuto: Libra+$Auto)", "plus", vPlus,
		f("alpha", fromPreset, "static pricing factor α (NaN: the preset's, 1)"),
		f("beta", fromPreset, "dynamic pricing factor β (NaN: the preset's, 0.1; ch6 0.3; 1 with betaAuto)"),
		strategies.Param{Name: "betaAuto", Kind: strategies.Bool, Default: "false", Help: "Libra+$Auto: adapt β to the free servers after each job (Fig. 7.1)"},
		f("betaMin", "0.01", "lower clamp of β with betaAuto"), f("betaMax", "10", "upper clamp of β with betaAuto"))
	reg("librasla", "LibraSLA (Yeo's thesis): highest return, HARD deadlines kept, soft jobs while utility ≥ 0", "sla", vSLA,
		strategies.Param{Name: "slaSelect", Kind: strategies.String, Default: "total", Choices: []string{"total", "marginal"}, Help: "total (highest node return, literal) | marginal (least delay)"})
	reg("librariskd", "LibraRiskD (Yeo's thesis): first server with zero risk of deadline delay (σ of DDY = 0)", "riskd", vRiskD,
		f("riskEpsilon", "1e-9", "σ at or below this is zero risk (≥ 0)"),
		strategies.Param{Name: "riskStrict", Kind: strategies.Bool, Default: "false", Help: "also require the new job on time"},
		strategies.Param{Name: "riskSelect", Kind: strategies.String, Default: "first", Choices: []string{"first", "bestfit"}, Help: "first (first fit, literal Fig. 5.1) | bestfit (RESFree ascending)"})
	registerQueuePolicies()
}

// newLibra binds and checks every parameter before the run.
func newLibra(p strategies.Params, v variant) (*libra, error) {
	qp, pre, err := bindQoS(p)
	if err != nil {
		return nil, err
	}
	s := &libra{variant: v, qp: qp}
	if s.fallback, err = oneOf(p, "fallback", fallbackEarliest, fallbackCheapest, fallbackDefer); err != nil {
		return nil, err
	}
	if s.eval.timeline, err = oneOf(p, "timeline", fromLedger, fromLSTJ, fromEJWT); err != nil {
		return nil, err
	}
	s.eval.preferPowered = p.Bool("preferPowered")
	switch v {
	case vLibra:
		err = s.bindLibra(p)
	case vPlus:
		err = s.bindPlus(p, pre)
	case vSLA:
		var sel string
		sel, err = oneOf(p, "slaSelect", "total", "marginal")
		s.marginal = sel == "marginal"
	case vRiskD:
		err = s.bindRiskD(p)
	}
	return s, err
}

func (s *libra) bindLibra(p strategies.Params) (err error) {
	if s.gamma, err = positive(p, "gamma", true); err != nil {
		return err
	}
	s.delta, err = positive(p, "delta", true)
	return err
}

func (s *libra) bindPlus(p strategies.Params, pre preset) (err error) {
	s.alpha, s.beta, s.betaAuto = pre.alpha, pre.beta, p.Bool("betaAuto")
	if s.betaAuto {
		s.beta = 1 // Libra+$Min/Auto's start (Table 7.2)
	}
	for _, x := range []struct {
		name string
		dst  *float64
	}{{"alpha", &s.alpha}, {"beta", &s.beta}} {
		if v := p.Float(x.name); v == v { // not NaN: given explicitly
			if *x.dst, err = positive(p, x.name, true); err != nil {
				return err
			}
		}
	}
	if s.betaMin, err = positive(p, "betaMin", false); err != nil {
		return err
	}
	if s.betaMax, err = positive(p, "betaMax", false); err != nil {
		return err
	}
	if s.betaMin > s.betaMax {
		return fmt.Errorf("betaMin=%v > betaMax=%v", s.betaMin, s.betaMax)
	}
	return nil
}

func (s *libra) bindRiskD(p strategies.Params) (err error) {
	if s.riskEps, err = positive(p, "riskEpsilon", true); err != nil {
		return err
	}
	s.riskStrict = p.Bool("riskStrict")
	sel, err := oneOf(p, "riskSelect", "first", "bestfit")
	s.riskBF = sel == "bestfit"
	return err
}
