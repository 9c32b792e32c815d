package engine

import (
	"strconv"

	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	"github.com/dssim-go/dssim-go/servertypes"
)

// SystemXML returns the ds-system.xml text ds-server writes at AUTH
// (ds-server.md §1.7): types in sorted order, attributes in its order, the
// float32 rate printed with %.2f of its exact binary value. The writer is
// servertypes' (the client reads what it writes); the rates go in exactly,
// so float32 → float64 → float32 gives the stored value back.
func SystemXML(cfg *simconfig.Config) []byte {
	types := make([]servertypes.Type, len(cfg.Types))
	for i, t := range cfg.Types {
		types[i] = servertypes.Type{Name: t.Name, Limit: t.Limit, BootupTime: t.BootupTime,
			HourlyRate: float64(t.HourlyRate), Cores: t.Cores, Memory: t.Memory, Disk: t.Disk}
	}
	sys, err := servertypes.New("ds-system.xml", types)
	if err != nil {
		// Cannot happen for a loaded config (unique names, positive sizes).
		panic("mocksrv: " + err.Error())
	}
	return sys.XML(simconfig.Version)
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
