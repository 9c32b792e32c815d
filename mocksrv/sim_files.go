package mocksrv

import (
	"strconv"
)

// SystemXML returns the ds-system.xml text ds-server writes at AUTH
// (ds-server.md §1.7): types in sorted order, attributes in its order, the
// float32 rate printed with %.2f of its exact binary value.
func SystemXML(cfg *Config) []byte {
	b := make([]byte, 0, 256+128*len(cfg.Types))
	b = append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"...)
	b = append(b, "<!-- system information generated for ds-sim@MQ, "+Version+" -->\n"...)
	b = append(b, "<system>\n\t<servers>\n"...)
	for _, t := range cfg.Types {
		b = append(b, "\t\t<server type=\""...)
		b = append(b, t.Name...)
		b = append(b, "\" limit=\""...)
		b = strconv.AppendInt(b, int64(t.Limit), 10)
		b = append(b, "\" bootupTime=\""...)
		b = strconv.AppendInt(b, int64(t.BootupTime), 10)
		b = append(b, "\" hourlyRate=\""...)
		b = strconv.AppendFloat(b, float64(t.HourlyRate), 'f', 2, 64)
		b = append(b, "\" cores=\""...)
		b = strconv.AppendInt(b, int64(t.Cores), 10)
		b = append(b, "\" memory=\""...)
		b = strconv.AppendInt(b, int64(t.Memory), 10)
		b = append(b, "\" disk=\""...)
		b = strconv.AppendInt(b, int64(t.Disk), 10)
		b = append(b, "\" />\n"...)
	}
	b = append(b, "\t</servers>\n</system>\n"...)
	return b
}

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
