package viewer

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// Costs is where a run's money went, in the units of the cost ratio (total
// cost over the packing bound: every core-second of every job at the
// cheapest rate per core of a type that can hold it, bench.Bounds), so
// that Work + Dearer + Lost + Partial + Empty is the run's cost ratio.
// Each billed second of each server (ds-server's billing, §6.1: from the
// boot's end; see billing) is one of: a core a completed run used, a core
// a run that did not complete used (failed, killed or migrated away: the
// job starts again from the beginning), a core no job used while the
// server ran at least one, or the whole server running none. frontier's
// page quotes the split (docs/frontier.md): on heterogeneous prices
// nearly all of a good strategy's cost above the bound is Partial.
type Costs struct {
	// Ratio is the billed cost over the bound. The report's cost ratio
	// divides ds-server's total rounded to the cent instead.
	Ratio float64
	// Work is the completed runs' billed core-seconds at the bound's
	// rates: 1 when every job completed, unless ds-server billed none of
	// a period one ran in (a recovery without a failure, Power.Reset).
	// Dearer is what the types they ran on charged for the same
	// core-seconds above those rates.
	Work, Dearer float64
	Lost         float64 // the core-seconds of runs that did not complete, at their server's rate
	Partial      float64 // cores no job used while the server ran at least one
	Empty        float64 // billed seconds with no job running: the whole server
}

// Costs splits the run's billed cost (see Costs). A run with no job any
// type can hold has no bound, and no split. The bound is bench.Bounds',
// computed here from the run's own types and jobs (a hand-built Run has
// no config); dsbench's and dsview's tests hold the two together (each
// split's ratio is the report's, and ds-server's total over BoundsOf).
func (r *Run) Costs() Costs {
	cheapest := make(map[int]float64, len(r.Jobs)) // job id -> the bound's rate per core-second
	cores := make(map[int]int, len(r.Jobs))
	bound := 0.0
	for _, j := range r.Jobs {
		cores[j.ID] = j.Cores
		best := math.Inf(1)
		for _, t := range r.Types {
			if t.Cores >= j.Cores && t.Memory >= j.Memory && t.Disk >= j.Disk {
				best = min(best, float64(t.Rate)/3600/float64(t.Cores))
			}
		}
		if !math.IsInf(best, 1) {
			cheapest[j.ID] = best
			bound += best * float64(j.Cores) * float64(j.Act)
		}
	}
	if bound == 0 {
		return Costs{}
	}
	stays := make([][]Stay, len(r.Servers)) // by server: a period looks at its server's only
	for _, st := range r.Stays {
		stays[st.Server] = append(stays[st.Server], st)
	}
	b := r.billing()
	c := Costs{Ratio: b.total} // = r.TotalCost once the run is finished
	for _, p := range b.periods {
		r.splitPeriod(p, stays[p.server], cheapest, cores, &c)
	}
	for _, x := range c.shares() {
		*x /= bound
	}
	return c
}

// splitPeriod adds one billed period's dollars to c, by what used them:
// the stays on its server (stays) clipped to the period.
func (r *Run) splitPeriod(p billedPeriod, stays []Stay, cheapest map[int]float64, cores map[int]int, c *Costs) {
	typ := r.Types[r.Servers[p.server].Type]
	perCore := float64(typ.Rate) / 3600 / float64(typ.Cores)
	var covered [][2]int // the clipped stays, for the seconds with none
	used := 0.0          // core-seconds the stays used
	for _, st := range stays {
		from, to := max(st.Start, p.from), min(st.End, p.to)
		if st.Start < 0 || st.End < 0 || to <= from {
			continue
		}
		secs := float64((to - from) * cores[st.Job])
		used += secs
		covered = append(covered, [2]int{from, to})
		if st.Outcome == Completed {
			c.Work += secs * cheapest[st.Job]
			c.Dearer += secs * (perCore - cheapest[st.Job])
		} else {
			c.Lost += secs * perCore
		}
	}
	busy := unionLength(covered)
	c.Empty += float64(p.to-p.from-busy) * float64(typ.Rate) / 3600
	c.Partial += (float64(busy*typ.Cores) - used) * perCore
}

// unionLength is the number of seconds the intervals cover.
func unionLength(iv [][2]int) int {
	slices.SortFunc(iv, func(a, b [2]int) int { return a[0] - b[0] })
	total, end := 0, math.MinInt
	for _, x := range iv {
		if x[0] > end {
			total += x[1] - x[0]
		} else if x[1] > end {
			total += x[1] - end
		}
		end = max(end, x[1])
	}
	return total
}

// CostRow is one line of a costs table.
type CostRow struct {
	Name string
	Costs
}

// WriteCosts writes rows as an aligned table, with a legend.
func WriteCosts(w io.Writer, rows []CostRow) error {
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = fmt.Sprintf("%s\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f", r.Name, r.Ratio, r.Work, r.Dearer, r.Lost, r.Partial, r.Empty)
	}
	return writeTable(w, "run\tcost ratio\twork\tdearer types\tlost runs\tpartly used\tempty", lines,
		"cost ratio: the billed cost / every core-second of every job at the cheapest rate per core of a type that can hold it;\n"+
			"work: the completed runs' core-seconds at those rates (1 when every job completed); dearer types: what the types they\n"+
			"ran on charged above; lost runs: runs that did not complete (failed, killed, migrated away); partly used: cores no job\n"+
			"used on a server running at least one; empty: billed seconds with no job running. The five add up to the cost ratio.\n")
}

// MeanCosts is the mean of the rows' shares (each run counted once, as
// dsbench averages ratios over configs).
func MeanCosts(name string, rows []CostRow) CostRow {
	m := CostRow{Name: name}
	mean := m.shares()
	for _, r := range rows {
		for i, x := range r.shares() {
			*mean[i] += *x / float64(len(rows))
		}
	}
	return m
}

// shares are c's fields in the units of the cost ratio, for what is done
// to all of them alike (scaled to the bound, averaged).
func (c *Costs) shares() []*float64 {
	return []*float64{&c.Ratio, &c.Work, &c.Dearer, &c.Lost, &c.Partial, &c.Empty}
}
