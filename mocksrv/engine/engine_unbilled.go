package engine

// Unbilled is the server time ds-server's report leaves out of its cost,
// measured against a meter that bills every powered second after a boot
// until the server is switched off or, for a server still on at the end, until
// the last job that used it ended (§6.1's unbilled idle tail is kept: that is
// ds-sim's model, not an oversight). Two of ds-server's accounting rules make
// the difference, and a strategy can profit from both without meaning to:
//
//   - §6.2: a server whose jobs all left by MIGJ is not counted at all, so
//     the time it was billed for before (or up to a TERM) disappears;
//   - §6.1: a server still on is billed up to the end of its last running,
//     completed or failed job; a job it ran that was then killed (KILJ) or
//     migrated away later is not seen, and neither is a reset by a recovery
//     without a failure (overlapping trace records). That last job may even
//     lie in an earlier powered period (the current one's jobs all killed
//     or moved away): ds-server's billed time then goes down, below zero
//     for the period, and the gap counts that too, so Seconds is what the
//     report's billed seconds fall short of the meter by, not only seconds
//     a server was on.
//
// It is not part of ds-server's output: dsbench shows it beside the cost so
// that a cost the report flatters is not taken for a cheap strategy.
type Unbilled struct {
	Servers int     `json:"servers"` // servers with time left out
	Seconds int64   `json:"seconds"` // server-seconds left out
	Cost    float64 `json:"cost"`    // at each server's hourly rate, in dollars (float64, not ds-server's float32)
}

// meteredTime is s's time on the meter of Unbilled.
func (e *Engine) meteredTime(s *Machine) int {
	t := 0
	for _, p := range s.power {
		end := p.off
		if end < 0 { // still on: up to the end of the last job that used it
			end = min(s.lastUse(), e.actualEnd)
		}
		t += max(0, end-p.bootEnd)
	}
	return t
}

// lastUse is the latest end of a job that ran on s, whatever its outcome,
// or of a running job's stay there before it left by MIGJ.
func (s *Machine) lastUse() int {
	last := s.migOut
	for _, lst := range [...][]slot{s.running, s.completed, s.failed, s.killed} {
		for _, x := range lst {
			if x.start >= 0 && x.end >= x.start {
				last = max(last, x.end)
			}
		}
	}
	return last
}

// addUnbilled counts what the meter gives s beyond the billed seconds the
// report counted for it (0 for a server the report skips, §6.2).
func (e *Engine) addUnbilled(rep *Report, s *Machine, metered, counted int) {
	gap := metered - counted
	if gap <= 0 {
		return
	}
	rep.Unbilled.Servers++
	rep.Unbilled.Seconds += int64(gap)
	rep.Unbilled.Cost += float64(gap) * float64(e.types[s.typ].HourlyRate) / 3600
}
