package provisioning

import "github.com/dssim-go/dssim-go/strategies"

// stats are the counters and series of Part C.
type stats struct {
	boots, terms, migrations int
	idleBilled               int // billed seconds with no running job (client's records)

	lastT, lastPowered int
	poweredArea        float64 // ∫ poweredCores dt over [first event, last event]
	span               int

	samples []Sample // one per epoch
}

// Sample is one epoch's decision: powered cores after it and the target.
type Sample struct {
	Time, Powered, Target int
}

// integrate adds powered cores over the time since the previous event.
func (s *stats) integrate(now, powered int) {
	if s.lastT >= 0 && now > s.lastT {
		s.poweredArea += float64(s.lastPowered) * float64(now-s.lastT)
		s.span += now - s.lastT
	}
	if now >= s.lastT {
		s.lastT, s.lastPowered = now, powered
	}
}

func (s *stats) epoch(now, powered, target int) {
	s.samples = append(s.samples, Sample{now, powered, target})
}

// Trace returns the per-epoch samples of a strategy of this package
// (poweredCores(t) and targetCores(t) of Part C), nil for any other.
func Trace(s strategies.Strategy) []Sample {
	if p, ok := s.(*prov); ok {
		return p.st.samples
	}
	return nil
}

// Metrics reports Part C's client-side metrics once the run is over.
func (p *prov) Metrics(v strategies.View, truth *strategies.Truth) []strategies.Metric {
	p.st.integrate(v.Now(), v.Ledger().PoweredCores())
	avgPowered := 0.0
	if p.st.span > 0 {
		avgPowered = p.st.poweredArea / float64(p.st.span)
	}
	avgTarget := 0.0
	for _, s := range p.st.samples {
		avgTarget += float64(s.Target)
	}
	if n := len(p.st.samples); n > 0 {
		avgTarget /= float64(n)
	}
	ms := []strategies.Metric{
		{Name: "boots", Value: float64(p.st.boots), Help: "SCHDs to an inactive server (deployments)"},
		{Name: "terms", Value: float64(p.st.terms), Help: "TERMs (each killed 0 jobs)"},
		{Name: "migrations", Value: float64(p.st.migrations), Help: "MIGJs of blocked waiting jobs"},
		{Name: "epochs", Value: float64(len(p.st.samples)), Help: "decision epochs processed"},
		{Name: "poweredCoresAvg", Value: avgPowered, Unit: "cores", Help: "time average of powered (booting, idle, active) cores"},
		{Name: "targetCoresAvg", Value: avgTarget, Unit: "cores", Help: "mean capacity target V_s over the epochs"},
		{Name: "idleBilledSeconds", Value: float64(p.st.idleBilled), Unit: "s", Approx: true,
			Help: "billed seconds with no job (gaps ended by a new job or a TERM), from the client's records"},
	}
	if p.cfg.deadline > 0 {
		end, approx := v.Now(), truth == nil
		if truth != nil {
			end = truth.End
		}
		late := 0.0
		if end > p.cfg.deadline {
			late = 1
		}
		ms = append(ms, strategies.Metric{Name: "late", Value: late, Approx: approx,
			Help: "1 if the run ended after the deadline (a job completed late)"})
	}
	return ms
}
