package engine

import "strconv"

// FailuresTxt returns ds-res-failures.txt (Appendix C.5), or nil when
// failures are not simulated. Only valid after QUIT (it stops at the actual
// simulation end time).
//
// Line 1 for a model: its name and distributions (failure-models.md §7).
// Line 1: for a trace file the reference prints garbage where the model's
// parameters would be [BUG-COMPAT]. dsmock writes the same fields with the
// trace file's name as base_trace and zero parameters, so the line keeps
// its shape and, starting with '#', is skipped when the file is read back
// as a trace (C.1).
func (e *Engine) FailuresTxt() []byte {
	if !e.simulated() && !e.cfg.GrainOnly {
		return nil
	}
	total := 0
	for _, t := range e.types {
		total += t.Limit
	}
	if e.cfg.Random {
		total = 0 // never computed in the no-configuration mode (failure-models.md §12.5)
	}
	base := e.cfg.FailureFile
	if e.cfg.FailureModel != "" {
		base = e.cfg.FailureModel // failure-models.md §7
	}
	b := []byte("#base_trace: " + base + ", config_file: " + e.cfg.Path +
		", total_servers: " + strconv.Itoa(total) + ", total_time: " + strconv.Itoa(e.cfg.EndTime))
	for i, name := range [4]string{"time_dist_mean", "time_dist_stdev", "node_dist_mean", "node_dist_stdev"} {
		// C's %f: six decimals, correctly rounded like Go's 'f' format.
		b = append(b, ", "+name+": "...)
		b = strconv.AppendFloat(b, e.cfg.FailureDist[i], 'f', 6, 64)
	}
	b = append(b, '\n')
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
