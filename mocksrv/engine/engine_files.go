package engine

import "strconv"

// FailuresTxt returns ds-res-failures.txt (Appendix C.5), or nil when
// failures are not simulated. Only valid after QUIT (it stops at the actual
// simulation end time).
//
// Line 1: for a trace file the reference prints garbage where the model's
// parameters would be [BUG-COMPAT]. dsmock writes the same fields with the
// trace file's name as base_trace and zero parameters, so the line keeps
// its shape and, starting with '#', is skipped when the file is read back
// as a trace (C.1).
func (e *Engine) FailuresTxt() []byte {
	if !e.simulated() {
		return nil
	}
	total := 0
	for _, t := range e.types {
		total += t.Limit
	}
	b := []byte("#base_trace: " + e.cfg.FailureFile + ", config_file: " + e.cfg.Path +
		", total_servers: " + strconv.Itoa(total) + ", total_time: " + strconv.Itoa(e.cfg.EndTime) +
		", time_dist_mean: 0.000000, time_dist_stdev: 0.000000, node_dist_mean: 0.000000, node_dist_stdev: 0.000000\n")
	for _, f := range e.fevents {
		if f.recover {
			continue
		}
		if f.t >= e.actualEnd {
			break
		}
		b = appendInts(b, f.t, f.t+f.dur)
		b = append(b, ' ')
		b = e.appendRef(b, f.srv)
		b = append(b, '\n')
	}
	return b
}
