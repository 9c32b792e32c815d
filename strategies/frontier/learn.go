package frontier

import (
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// ratios learns, online, how much longer jobs hold their servers than
// their estimates say: at each completion it adds the job's actual runtime
// (JCPL time - its start, which the ledger knew when it started) and its
// estimate, and the ratio of the sums is what forecasts stretch estimates
// by. ds-sim's estimates are wrong both ways by up to ~4.5× (frontier.md
// §4.2); a queue is held by the total runtime of the jobs ahead, so the
// ratio of totals is the figure that predicts it, where a mean of per-job
// ratios would be dominated by short jobs that ran long (measured: that
// mean cost 0.02 of cost ratio at equal turnaround, see README). It starts
// from a prior of 1 worth priorSeconds of estimated runtime, and is
// clipped to [0.5, 4].
type ratios struct {
	start    map[int]int // job id -> start of its current run
	act, est float64     // sums over completed jobs, seconds
}

const (
	priorRatio   = 1.0
	priorSeconds = 3600.0
)

func newRatios() ratios { return ratios{start: map[int]int{}} }

// mean is the learned actual/estimate ratio of totals.
func (r *ratios) mean() float64 {
	m := (r.act + priorRatio*priorSeconds) / (r.est + priorSeconds)
	return min(max(m, 0.5), 4)
}

// started records the start of every job running on m (and the known start
// of a job waiting on a booting server).
func (r *ratios) started(m *strategies.Machine) {
	for _, p := range m.Running {
		r.start[p.Job.ID] = p.Start
	}
	for _, p := range m.Waiting {
		if p.Start >= 0 {
			r.start[p.Job.ID] = p.Start
		}
	}
}

// completed learns from one JCPL.
func (r *ratios) completed(l *strategies.Ledger, e *protocol.JobCompleted) {
	start, ok := r.start[e.JobID]
	job, known := l.Job(e.JobID)
	delete(r.start, e.JobID)
	if !ok || !known || e.Time < start {
		return
	}
	r.act += float64(e.Time - start)
	r.est += float64(max(job.EstRunTime, 1))
}
