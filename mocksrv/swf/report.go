package swf

import (
	"fmt"
	"strconv"
)

// Summary is the first line of a conversion's report: "5 jobs, 6 server
// types (procs-per-core=1,…)". dsswf, dsmock and dsbench say it with the
// trace's name before it.
func (r *Result) Summary() string {
	return fmt.Sprintf("%d jobs, %d server types (%s)", len(r.Jobs), len(r.Servers), r.Options)
}

// Notes are the rest of the report, one line each: what was skipped and
// why, the jobs whose actMemory was capped, those whose memory was capped
// at the attribute's limit or raised to GETS's floor, the jobs whose estimate is
// their run time, and how large a derived cluster is against the machine
// the trace ran on. Each is something a result depends on that the job
// file alone does not show.
func (r *Result) Notes() []string {
	var out []string
	if len(r.Skipped) == 0 {
		out = append(out, "skipped: none")
	}
	for _, c := range r.Skipped {
		out = append(out, fmt.Sprintf("skipped %d: %s", c.N, c.Reason))
	}
	if r.CappedMemory > 0 {
		out = append(out, fmt.Sprintf("actMemory capped at the request for %d jobs that used more than they asked for", r.CappedMemory))
	}
	if r.MemoryAtLimit > 0 {
		out = append(out, fmt.Sprintf("memory capped at 2147483647 MB, the most a ds-sim attribute holds, for %d jobs that asked for (or used) more", r.MemoryAtLimit))
	}
	if r.MemoryAtFloor > 0 {
		out = append(out, fmt.Sprintf("memory raised to 100 MB, the least GETS accepts, for %d jobs that asked for less", r.MemoryAtFloor))
	}
	if r.NoReqTime > 0 {
		out = append(out, fmt.Sprintf("%d jobs had no requested time: their estimate is their run time", r.NoReqTime))
	}
	if r.Machine.From != "" {
		out = append(out, r.clusterNote())
	}
	return out
}

// clusterNote says that every derived type is sized to the whole machine,
// so that the cluster has several times its cores: a result on it is not
// the machine's own (a trace's wait times were measured on one machine).
func (r *Result) clusterNote() string {
	m := r.Machine
	machine := fmt.Sprintf("the trace's %s %d", m.From, m.Procs)
	if m.From == MachineLargestJob {
		machine = fmt.Sprintf("%s's %d processors (no MaxProcs or MaxNodes in the header)", m.From, m.Procs)
	}
	if r.Options.ProcsPerCore > 1 {
		machine += fmt.Sprintf(", %d cores at procs-per-core=%d", m.Cores, r.Options.ProcsPerCore)
	}
	return fmt.Sprintf("derived cluster: %d cores (%d server types, each sized to the whole machine) against %s",
		r.DerivedCores(), len(r.Servers), machine)
}

// DerivedCores is the cores of every server of every derived type (limit
// × cores); 0 when the servers were given.
func (r *Result) DerivedCores() int64 {
	var n int64
	if r.Machine.From == "" {
		return 0
	}
	for _, s := range r.Servers {
		for _, a := range s.Attrs {
			if a.Name.Local == "limit" {
				limit, _ := strconv.ParseInt(a.Value, 10, 64)
				n += limit * int64(s.Cores)
			}
		}
	}
	return n
}
