package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// ratios holds what frontier learns online from completions to predict
// runtimes. Once the completions show estimates made the way ds-sim's
// generator makes them, predictions come from the posterior of each job's
// runtime given its estimate (post, see posterior). Until then, and for
// estimates of another kind, they come from the learned ratio below.
//
// The ratio is how much longer jobs hold their servers than their
// estimates say: at each completion it adds the job's actual runtime
// (JCPL time - its start, which the ledger knew when it started) and its
// estimate, and the ratio of the sums is what forecasts stretch estimates
// by. ds-sim's estimates are wrong both ways by up to ~4.5× (frontier.md
// §4.2); a queue is held by the total runtime of the jobs ahead, so the
// ratio of totals is the figure that predicts it, where a mean of per-job
// ratios would be dominated by short jobs that ran long (measured: that
// mean cost 0.02 of cost ratio at equal turnaround, see the study, docs/frontier-study.md). It starts
// from a prior of 1 worth priorSeconds of estimated runtime, and is
// clipped to [0.5, 4].
//
// It also keeps the spread: the 1/6, 1/2 and 5/6 quantiles (the middles
// of the three thirds, each standing for a third of the jobs) of the
// per-job ratios of the last spreadJobs completions (see added).
type ratios struct {
	start    map[int]int // job id -> start of its current run
	act, est float64     // sums over completed jobs, seconds
	coreSecs float64     // their core-seconds (for meanCores)
	runSecs  float64     // the actual seconds coreSecs was summed over

	recent []float64  // the last spreadJobs per-job ratios, a ring
	next   int        // where the ring is written next
	spread [3]float64 // their 1/6, 1/2 and 5/6 quantiles, refreshed every spreadEvery completions
	fresh  int        // completions since spread was refreshed

	post posterior // the estimate-aware prediction, once its model fits (see posterior)
}

const (
	spreadJobs  = 256
	spreadEvery = 32
)

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
	r.add(e.Time-start, job.EstRunTime)
	r.coreSecs += float64(job.Cores * (e.Time - start))
	r.runSecs += float64(e.Time - start)
}

// meanCores is the mean cores of the core-seconds completed so far (the
// cores of an average core-second of work), or cores before anything has
// run a second.
func (r *ratios) meanCores(cores int) float64 {
	if r.runSecs == 0 {
		return float64(cores)
	}
	return r.coreSecs / r.runSecs
}

// add learns one job's actual runtime against its estimate.
func (r *ratios) add(act, est int) {
	r.post.add(act, est)
	est = max(est, 1)
	r.act += float64(act)
	r.est += float64(est)
	x := float64(act) / float64(est)
	if len(r.recent) < spreadJobs {
		r.recent = append(r.recent, x)
	} else {
		r.recent[r.next] = x
	}
	r.next = (r.next + 1) % spreadJobs
	if r.fresh++; r.fresh >= spreadEvery {
		r.fresh = 0
		q := slices.Clone(r.recent)
		slices.Sort(q)
		for i := range r.spread {
			r.spread[i] = q[(2*i+1)*len(q)/6]
		}
	}
}

// expect is the predicted actual runtime of a job that has not started.
func (r *ratios) expect(est int) int {
	if r.post.usable() {
		return r.post.mean(lower(est))
	}
	return scaled(est, r.mean())
}

// endOf is the predicted end of a job running since start: once the
// posterior is ready, its mean given what the estimate and the time
// already run say; before, the estimate stretched by the learned ratio,
// or, for a job that has outrun that, half its estimate more (not the
// next second, which makes a queue behind an overrunning job look free:
// the trap frontier.md §4.2 measured).
func (r *ratios) endOf(est, start, now int) int {
	if r.post.usable() {
		return start + r.post.mean(max(float64(now-start+1), lower(est)))
	}
	end := start + scaled(est, r.mean())
	if end <= now {
		end = now + max(1, est/2)
	}
	return end
}

// added is the billed time, in seconds, a job of estimate est starting at
// start adds to a server whose billing ends at billed without it: the
// expected excess of its runtime over billed − start. A job predicted to
// end just before the jobs it joins extends the server as often as not,
// and a mean runtime would call that free. Once the posterior is ready
// the excess is exact for the learned prior (see posterior.excess);
// before, it is averaged over the three quantiles of the learned ratios (spread); with
// nothing learned, the estimate decides. (The measured effect of each
// step is in the study, docs/frontier-study.md.)
func (r *ratios) added(est, start, billed int) float64 {
	switch {
	case r.post.usable():
		return r.post.excess(lower(est), float64(billed-start))
	case r.spread[0] > 0:
		sum := 0
		for _, q := range r.spread {
			sum += max(0, start+scaled(est, q)-billed)
		}
		return float64(sum) / float64(len(r.spread))
	}
	return float64(max(0, start+r.expect(est)-billed))
}
