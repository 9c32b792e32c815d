package viewer

import (
	"fmt"
	"sort"
)

// finish checks the log reached the end of the simulation, closes what
// was still open and computes the series.
func (p *parser) finish() (*Run, error) {
	if p.line == 0 {
		return nil, &LogError{File: p.file, Line: 1, Msg: "empty file: not a ds-server log"}
	}
	if p.cont > 0 || p.batch > 0 {
		return nil, p.errf("the log ends inside a DATA batch: cut short?")
	}
	if !p.summary {
		return nil, p.noSummary()
	}
	r := p.run
	switch {
	case p.all:
		r.Level = "all"
	case p.proto:
		r.Level = "brief"
	default:
		r.Level = "events"
	}
	r.End = max(p.logEnd, p.clock, p.t)
	for i := range r.Stays {
		if st := &r.Stays[i]; st.Outcome == Unfinished && st.Start >= 0 {
			// Still running at QUIT: it completes silently (§1.6).
			job := p.jobs[st.Job]
			st.End, st.Outcome = st.Start+r.Jobs[job.job].Act, Completed
			r.End = max(r.End, st.End)
		}
	}
	for _, j := range p.jobs {
		switch {
		case j.queuedAt >= 0:
			p.queue = append(p.queue, Span{j.queuedAt, r.End})
			r.Stuck++
		case j.offered && !j.placed && p.quit:
			p.queue = append(p.queue, Span{j.offerTime, r.End})
			r.Unplaced++
		}
	}
	if len(r.Stays) == 0 {
		return nil, p.errf("the log shows no job placed on any server: nothing to view")
	}
	r.Queue = steps(p.queue)
	r.finishSeries()
	return r, nil
}

// noSummary is the error for a log without the end-of-simulation report,
// saying what the log shows: a client that went away before scheduling
// anything is the common case, and "cut short?" alone sends the user
// looking for a broken file.
func (p *parser) noSummary() error {
	const msg = "the log ends before ds-server's end-of-simulation report (no \"# avg waiting time\" line)"
	switch {
	case !p.begun:
		return p.errf("%s, with no message from a client: none connected, or it went away at once (or the log was cut short)", msg)
	case len(p.run.Stays) == 0:
		return p.errf("%s, with no job scheduled: the client quit or went away before scheduling any job (or the log was cut short)", msg)
	}
	return p.errf("%s: cut short?", msg)
}

// finishSeries computes the powered cores, the billing and the cost.
func (r *Run) finishSeries() {
	var powered []weighted
	for _, s := range r.Servers {
		c := float64(r.Types[s.Type].Cores)
		for _, pw := range s.Power {
			off := pw.Off
			if off < 0 {
				off = r.End
			}
			powered = append(powered, weighted{pw.BootStart, off, c})
		}
	}
	r.Powered = stepsWeighted(powered)
	b := r.billing()
	r.Cost = ramps(b.spans)
	r.TotalCost = b.total
}

// weighted is an interval with a value: cores powered, or dollars per
// second billed.
type weighted struct {
	from, to int
	v        float64
}

// steps is the count of intervals open at each time.
func steps(spans []Span) []Point {
	w := make([]weighted, len(spans))
	for i, s := range spans {
		w[i] = weighted{s.From, s.To, 1}
	}
	return stepsWeighted(w)
}

type delta struct {
	t int
	v float64
}

func deltas(w []weighted) []delta {
	var d []delta
	for _, x := range w {
		if x.to > x.from {
			d = append(d, delta{x.from, x.v}, delta{x.to, -x.v})
		}
	}
	sort.SliceStable(d, func(a, b int) bool { return d[a].t < d[b].t })
	return d
}

// stepsWeighted is the sum of the intervals' values over time, one point
// per change, starting at 0.
func stepsWeighted(w []weighted) []Point {
	out := []Point{{0, 0}}
	v := 0.0
	for _, d := range deltas(w) {
		v += d.v
		if n := len(out); out[n-1].T == d.t {
			out[n-1].V = v
		} else {
			out = append(out, Point{d.t, v})
		}
	}
	return out
}

// ramps integrates rates (dollars per second) over time: the accumulated
// cost at every change of rate.
func ramps(w []weighted) []Point {
	out := []Point{{0, 0}}
	rate, cost, t := 0.0, 0.0, 0
	for _, d := range deltas(w) {
		cost += rate * float64(d.t-t)
		t = d.t
		rate += d.v
		if n := len(out); out[n-1].T == t {
			out[n-1].V = cost
		} else {
			out = append(out, Point{t, cost})
		}
	}
	return out
}

// FormatCost is a cost as ds-server prints it.
func FormatCost(c float64) string { return fmt.Sprintf("%.2f", c) }
