package viewer

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Waits is where a run's waiting went, in the units of the TAT ratio
// (average turnaround over mean actual runtime), so that 1 + Within +
// Beyond is the run's TAT ratio. A job's wait runs from its submit time to
// the start of the run that completed it, as ds-server's turnaround counts
// it (time lost to a migration, a kill or a failure is waiting too). It is
// split at the boot time of the type the job completed on: the part up to
// a boot is what powering a server on costs a job (or a queue no longer
// than a boot would), the rest is queueing that no boot explains. This is
// the split frontier's study quotes (docs/frontier-study.md, "Where
// the limits are now"): on the 18 shared configs nearly all of a good
// strategy's wait is the first part.
type Waits struct {
	Jobs           int     // completed jobs
	MeanRuntime    float64 // their mean actual runtime, seconds
	Within, Beyond float64 // the two parts of the waits, as shares of the TAT ratio
	Long           int     // jobs whose wait went beyond their type's boot time
}

// Waits computes the run's wait split from its completed stays.
func (r *Run) Waits() Waits {
	submit := make(map[int]int, len(r.Jobs))
	for _, j := range r.Jobs {
		submit[j.ID] = j.Submit
	}
	var w Waits
	var run, within, beyond float64
	for _, st := range r.Stays {
		sub, ok := submit[st.Job]
		if st.Outcome != Completed || !ok || st.Start < 0 || st.End < st.Start {
			continue
		}
		boot := r.Types[r.Servers[st.Server].Type].Boot
		wait := max(0, st.Start-sub)
		w.Jobs++
		run += float64(st.End - st.Start)
		within += float64(min(wait, boot))
		if wait > boot {
			beyond += float64(wait - boot)
			w.Long++
		}
	}
	if w.Jobs == 0 || run == 0 {
		return w
	}
	w.MeanRuntime = run / float64(w.Jobs)
	w.Within, w.Beyond = within/run, beyond/run // (sum / jobs) / (run / jobs)
	return w
}

// WaitRow is one line of a waits table.
type WaitRow struct {
	Name string
	Waits
}

// WriteWaits writes rows as an aligned table, with a legend.
func WriteWaits(w io.Writer, rows []WaitRow) error {
	lines := make([]string, len(rows))
	for i, r := range rows {
		rt := "-" // a mean row: runtimes of different workloads are not averaged
		if r.MeanRuntime > 0 {
			rt = fmt.Sprintf("%.1f", r.MeanRuntime)
		}
		lines[i] = fmt.Sprintf("%s\t%d\t%s\t%.4f\t%.4f\t%.4f\t%d", r.Name, r.Jobs, rt, r.Within+r.Beyond, r.Within, r.Beyond, r.Long)
	}
	return writeTable(w, "run\tjobs\tmean runtime\twaits\twithin a boot\tbeyond\tjobs beyond", lines,
		"waits: what waiting adds to the TAT ratio (average turnaround / mean actual runtime);\n"+
			"within a boot: each job's wait up to the boot time of the type it completed on; beyond: the rest\n")
}

// writeTable writes the header and the lines (cells separated by tabs)
// aligned, then the legend: the waits' and the costs' tables alike.
func writeTable(w io.Writer, header string, lines []string, legend string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, l := range lines {
		fmt.Fprintln(tw, l)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprint(w, legend)
	return err
}

// WithMean is rows followed by their mean (MeanWaits) as a row named
// label, when there is more than one row to average.
func WithMean(label string, rows []WaitRow) []WaitRow {
	return WithMeanOf(label, rows, MeanWaits)
}

// WithMeanOf is rows followed by mean(label, rows), when there is more
// than one row to average: the waits' and the costs' tables alike.
func WithMeanOf[R any](label string, rows []R, mean func(string, []R) R) []R {
	if len(rows) < 2 {
		return rows
	}
	return append(rows, mean(label, rows))
}

// MeanWaits is the mean of the rows' shares (each run counted once, as
// dsbench averages ratios over configs), with their jobs summed and no
// mean runtime.
func MeanWaits(name string, rows []WaitRow) WaitRow {
	m := WaitRow{Name: name}
	if len(rows) == 0 {
		return m
	}
	for _, r := range rows {
		m.Jobs += r.Jobs
		m.Long += r.Long
		m.Within += r.Within / float64(len(rows))
		m.Beyond += r.Beyond / float64(len(rows))
	}
	return m
}
