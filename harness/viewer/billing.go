package viewer

// billingResult is what billing computes: the billed intervals (with
// their dollars per second) for the cost curve, the same intervals by
// server for the cost split (Costs), and ds-server's total.
type billingResult struct {
	spans   []weighted
	periods []billedPeriod
	total   float64
}

// billedPeriod is one billed interval of one server (an index into
// Run.Servers).
type billedPeriod struct{ server, from, to int }

// billing follows ds-server's billed time (§6.1) server by server: a
// period switched off (TERM, failure) is billed from boot completion to
// the off time (booting is never billed), one a recovery without a
// failure reset not at all (Power.Reset); a period still on at the end is
// billed to the latest end of the server's running, completed or failed
// jobs (killed ones do not count), capped at the end of the simulation.
// Servers with no job in any list, or off with nothing billed, are not
// counted (§6.2). The total sums in 32-bit floats in ds-server's order
// (§6.3), so it prints the summary's digits.
func (r *Run) billing() billingResult {
	var b billingResult
	last := make([]int, len(r.Servers))
	used := make([]bool, len(r.Servers))
	for i := range last {
		last[i] = -1
	}
	simEnd := 0
	for _, st := range r.Stays {
		if st.Outcome != Migrated {
			used[st.Server] = true
		}
		if st.Outcome == Completed {
			simEnd = max(simEnd, st.End)
		}
		if (st.Outcome == Completed || st.Outcome == Failed) && st.End > last[st.Server] {
			last[st.Server] = st.End
		}
	}
	typeCost := make([]float32, len(r.Types))
	for i, s := range r.Servers {
		if !used[i] {
			continue
		}
		rate := r.Types[s.Type].Rate / 3600
		billed := 0
		for _, pw := range s.Power {
			if pw.Reset {
				continue // ds-server resets the server unbilled (Power.Reset)
			}
			to := pw.Off
			if to < 0 {
				to = min(last[i], simEnd)
			}
			if to > pw.BootEnd {
				b.spans = append(b.spans, weighted{pw.BootEnd, to, float64(rate)})
				b.periods = append(b.periods, billedPeriod{i, pw.BootEnd, to})
				billed += to - pw.BootEnd
			}
		}
		open := len(s.Power) > 0 && s.Power[len(s.Power)-1].Off < 0
		if !open && billed == 0 {
			continue
		}
		typeCost[s.Type] += float32(billed) * rate
	}
	var grand float32
	for _, c := range typeCost {
		grand += c
	}
	b.total = float64(grand)
	return b
}
