package sgme

import (
	"maps"
	"slices"

	"github.com/dssim-go/dssim-go/estimator"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// tally is what sgme counts beside the estimator's own Stats.
type tally struct {
	failures int     // memory failures seen (JOBP classified as such)
	wasted   float64 // Σ cores × (failure time − dispatch time): ≥ the true waste
	saved    []saving
	refused  bool // the first SCHM was refused: no extension
}

// saving is one successful execution below its request.
type saving struct {
	id      int
	mb      int // R − E'
	at, end int // dispatch and completion times
}

// Metrics reports estimation.md C.1's estimator metrics. memTimeSaved uses
// the simulator's true start times when it has them (in-process runs);
// against a server over TCP it uses the dispatch time, an upper bound, and
// says so (Approx). wastedCoreSeconds always uses the dispatch time: the
// client never learns when a failed run started (the extension's report
// gives the exact figure).
func (s *sgme) Metrics(v strategies.View, truth *strategies.Truth) []strategies.Metric {
	var ms []strategies.Metric
	if mr, ok := s.base.(strategies.MetricsReporter); ok {
		ms = mr.Metrics(v, truth)
	}
	var st estimator.Stats
	if s.est != nil {
		st = s.est.Stats()
	}
	ext := 0.0
	if s.ext == extOn {
		ext = 1
	}
	saved, approx := 0.0, truth == nil
	for _, sv := range s.saved() {
		start := sv.at
		if !approx {
			if jt, ok := truth.Jobs[sv.id]; ok {
				start = jt.Start
			}
		}
		saved += float64(sv.mb) * float64(sv.end-start)
	}
	execs := st.Successes + st.MemFailures
	slow, slowApprox := s.slowdown(truth)
	return append(ms,
		strategies.Metric{Name: "avgSlowdown", Value: slow, Approx: slowApprox, Help: "mean over jobs of (wait + run) ÷ run (the paper's slowdown, fn. 5); run ≥ 1 s"},
		strategies.Metric{Name: "extension", Value: ext, Help: "1 when the dsmock extension answered SCHM (mock mode), 0 when estimation was off"},
		strategies.Metric{Name: "reducedPct", Value: pct(st.Reduced, st.Dispatches), Unit: "%", Help: "dispatches with E' below the request (paper: 15–40 % of jobs)"},
		strategies.Metric{Name: "memFailures", Value: float64(s.m.failures), Unit: "jobs", Help: "executions that failed for lack of memory (JOBP classified as memory failure)"},
		strategies.Metric{Name: "memFailuresPerExec", Value: pct(st.MemFailures, execs), Unit: "%", Help: "memory failures ÷ executions with an outcome (paper: ≤ 0.01 %)"},
		strategies.Metric{Name: "wastedCoreSeconds", Value: s.m.wasted, Unit: "core-s", Approx: true, Help: "Σ cores × (failure time − dispatch time) over memory-failed executions (dispatch ≤ start: an upper bound)"},
		strategies.Metric{Name: "memTimeSaved", Value: saved, Unit: "MB·s", Approx: approx, Help: "Σ (R − E') × run time over successful reduced executions"},
		strategies.Metric{Name: "groups", Value: float64(st.Groups), Help: "similarity groups formed"},
		strategies.Metric{Name: "groupsReduced", Value: float64(st.GroupsReduced), Help: "groups ever dispatched below their request (the reachable-level statistic, Part F)"},
		strategies.Metric{Name: "escalations", Value: float64(st.Escalations), Help: "groups sent back to their request after failing at a level that had succeeded"},
		strategies.Metric{Name: "bigGroupJobsPct", Value: pct(st.JobsInBigGroups, st.Jobs), Unit: "%", Help: "jobs in groups of ≥ 10 jobs (a key diagnostic; the paper: 83 %)"},
	)
}

func (s *sgme) saved() []saving { return s.m.saved }

// noteOffer records a job's first offer (its submit time) and the
// dispatch time of the current offer.
func (s *sgme) noteOffer(v strategies.View, job protocol.Job) {
	if s.submit == nil {
		s.submit, s.done, s.lastAt = map[int]int{}, map[int][2]int{}, map[int]int{}
	}
	if _, ok := s.submit[job.ID]; !ok {
		s.submit[job.ID] = job.Submit
	}
	s.lastAt[job.ID] = v.Now()
}

// noteDone records a completion: the last dispatch time and the end.
func (s *sgme) noteDone(e *protocol.JobCompleted) {
	if s.done != nil {
		s.done[e.JobID] = [2]int{s.lastAt[e.JobID], e.Time}
	}
}

// slowdown is the mean of (end − submit) ÷ (end − start) over completed
// jobs, the start from the simulator's truth, else the last dispatch time
// (an upper bound on the run, so the slowdown is underestimated: Approx).
func (s *sgme) slowdown(truth *strategies.Truth) (float64, bool) {
	// Summed in job order: a map's order changes from run to run, and so
	// would the sum's last bits (a sweep's shards and its unsharded run
	// must report the same bytes).
	sum, n := 0.0, 0
	for _, id := range slices.Sorted(maps.Keys(s.done)) {
		d := s.done[id]
		start := d[0]
		if truth != nil {
			if jt, ok := truth.Jobs[id]; ok {
				start = jt.Start
			}
		}
		sum += float64(d[1]-s.submit[id]) / float64(max(1, d[1]-start))
		n++
	}
	if n == 0 {
		return 0, truth == nil
	}
	return sum / float64(n), truth == nil
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}
