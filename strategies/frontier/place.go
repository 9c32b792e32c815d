package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// queueDistrust is how much heavier a second of predicted queueing weighs
// than a second of boot. The forecast already predicts runtimes (the
// posterior's means, see ratios.expect): what is left is their spread (a
// job's runtime is known to within a factor of 2 or more) and that a
// queue also delays whatever is placed behind it, while a boot's length is
// known exactly. 10 is §4.2's "about 10×". With the learned ratio a
// throwaway breakdown found queued waits 2–11× their forecast; with the
// posterior the forecasts are about right on the total (they overshoot
// on the high-load configs), yet distrusts from 1 to 30 all lie on one
// curve with the weight (the study, docs/frontier-study.md): it is a price of risk, not a bias.
const queueDistrust = 10.0

// choice is one candidate server for a job, with the parts of its score.
type choice struct {
	m            *strategies.Machine
	extra, delay float64 // dollars; weighted seconds
	score        float64
}

// place picks the server for job: the lowest score among the capable,
// usable servers not excluded (by a refusal, or in skip). Servers off are
// all alike within a type while nothing fails, so only the first inactive
// one of each type that is not excluded is scored, beside the powered
// ones (see index): a decision costs in the powered servers and the
// types, not in the cluster. Once servers fail, the inactive one of each
// type least likely to fail is scored (see reliability.leastLikelyToFail):
// the walk for it passes the failed servers, and covers a type whose
// inactive servers have all failed.
func (f *frontier) place(v strategies.View, job protocol.Job, skip []protocol.ServerRef) (choice, bool) {
	l := v.Ledger()
	if !f.priced() {
		f.perCoreSecond = l.System().CheapestPerCore() / 3600
	}
	var best, alt choice // alt: the best server not kept on (see warmth)
	found, altFound := false, false
	f.candidates(l, f.ix.powered(), job, v.Excluded(), skip, func(m *strategies.Machine) {
		c, ok := f.score(l, m, job)
		if !ok {
			return
		}
		if !found || better(c, best) {
			best, found = c, true
		}
		if !f.warm.kept.has(m) && (!altFound || better(c, alt)) {
			alt, altFound = c, true
		}
	})
	f.warm.altOff = true
	f.placing.took, f.placing.gained = false, 0
	if found && altFound && f.warm.kept.has(best.m) {
		// What keeping it on gained this job, by place's own score:
		// credited to the bet once the SCHD is done (see confirmed).
		f.placing.took, f.placing.gained = true, alt.score-best.score
		f.warm.altOff = alt.m.State == protocol.Inactive
	}
	return best, found
}

// candidates visits the servers a decision for job may score: the
// capable, usable servers of powered (index's window: place's call of
// index.powered moves it on, replan's of index.scan does not) and the
// inactive one of each type that leastLikelyToFail picks, none refused
// (excluded) or touched by this decision's actions (skip).
func (f *frontier) candidates(l *strategies.Ledger, powered []*strategies.Machine, job protocol.Job, excluded, skip []protocol.ServerRef, visit func(*strategies.Machine)) {
	out := func(m *strategies.Machine) bool {
		return slices.Contains(excluded, m.Ref) || slices.Contains(skip, m.Ref)
	}
	consider := func(m *strategies.Machine) {
		if m.Capable(job.Req()) && m.Usable() {
			visit(m)
		}
	}
	for _, m := range powered {
		if m.Powered() && !out(m) {
			consider(m)
		}
	}
	f.rel.leastLikelyToFail(l, job.Req(), consider, out) // it walks past the servers out holds for
}

// better orders choices: lower score, then powered before off (no boot
// to pay if the scores tie), then cheaper per core, then the smaller
// server (it leaves the larger free for larger jobs), then the lower id.
func better(a, b choice) bool {
	switch {
	case a.score != b.score:
		return a.score < b.score
	case a.m.Powered() != b.m.Powered():
		return a.m.Powered()
	case a.m.RatePerCore() != b.m.RatePerCore():
		return a.m.RatePerCore() < b.m.RatePerCore()
	case a.m.Type.Cores != b.m.Type.Cores:
		return a.m.Type.Cores < b.m.Type.Cores
	case a.m.Ref.Type != b.m.Ref.Type:
		return a.m.Ref.Type < b.m.Ref.Type
	}
	return a.m.Ref.ID < b.m.Ref.ID
}

// score is extra billed cost + weight × weighted delay for job on m.
func (f *frontier) score(l *strategies.Ledger, m *strategies.Machine, job protocol.Job) (choice, bool) {
	o := f.fc.run(l, m, &job, &f.learn)
	if o.start < 0 {
		return choice{}, false
	}
	if m.Empty() && f.warm.kept.has(m) {
		o.billed = max(o.billed, l.Now()) // its idle time so far is paid either way: TERM bills it too
	}
	c := choice{m: m}
	c.extra = f.learn.added(job.EstRunTime, o.start, o.billed) * m.Type.HourlyRate / 3600
	c.delay = float64(o.avail-l.Now()) + queueDistrust*float64(o.start-o.avail)
	if h := f.rel.hazard(l, m); h > 0 {
		cost, delay := failureLoss(h, o.end-o.start, m.Type.BootupTime, c.extra)
		c.extra += cost
		c.delay += delay
	}
	c.score = c.extra + f.delayPrice(job.Cores)*c.delay
	return c, true
}

// priced tells whether the first decision has set the unit of delay,
// perCoreSecond: the cheapest rate per core above 0, or a unit when no
// type has one (servertypes.System.CheapestPerCore: GETS All gives no
// rates, ds-system.xml prints a rate below 0.005 as 0.00), so never 0
// once set. Before, a cheapest rate of 0 both priced every delay at 0
// (every score tied, the jobs queued on one server) and read as "no
// decision yet", which switched migration, replanning and the warm bets
// off without a word; with every rate 0, delay now decides alone.
func (f *frontier) priced() bool { return f.perCoreSecond > 0 }

// delayPrice is the price of a second of any job's delay: weight × the
// cheapest rate per core × the mean cores of the core-seconds completed so
// far (the job's own cores until a job completes). The TAT ratio counts
// every job's wait alike, while cost is paid per core-second: pricing a
// job's delay at its own cores made a 1-core job's boot or queue a quarter
// of a 4-core one's, where the goal counts them the same. Measured with
// queueDistrust 10 (each alone moved little: the price per job alone was
// 1.0384 / 1.1856 at weight 10, distrust 10 alone 1.0389 / 1.1812 at
// weight 3), the curve moved at every weight (see the study, docs/frontier-study.md).
func (f *frontier) delayPrice(cores int) float64 {
	return f.weight * f.perCoreSecond * f.learn.meanCores(cores)
}

// availableAt is when m can first run anything (the ledger's rule).
func availableAt(l *strategies.Ledger, m *strategies.Machine) int {
	switch m.State {
	case protocol.Inactive:
		return l.Now() + m.Type.BootupTime
	case protocol.Booting:
		return m.BootEnd
	}
	return l.Now()
}
