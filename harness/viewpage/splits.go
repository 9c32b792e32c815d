package viewpage

import (
	"fmt"
	"io"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/viewer"
)

// WriteWaits is dsbench --waits: each run's wait split (viewer.Waits: what
// waiting adds to the TAT ratio, up to a boot and beyond), per strategy
// over the configs, then the strategy's mean (see perRun).
func WriteWaits(w io.Writer, b *bench.Bench) error {
	return writeSplit(w, b, "wait split", func(name string, r *viewer.Run) viewer.WaitRow {
		return viewer.WaitRow{Name: name, Waits: r.Waits()}
	}, viewer.MeanWaits, viewer.WriteWaits)
}

// WriteCosts is dsbench --costs: each run's cost split (viewer.Costs: what
// the cost ratio is made of, from the work at the bound's rates to the
// servers billed empty), per strategy over the configs, then the
// strategy's mean (see perRun).
func WriteCosts(w io.Writer, b *bench.Bench) error {
	return writeSplit(w, b, "cost split", func(name string, r *viewer.Run) viewer.CostRow {
		return viewer.CostRow{Name: name, Costs: r.Costs()}
	}, viewer.MeanCosts, viewer.WriteCosts)
}

// writeSplit writes the table of perRun's rows, then names the runs
// without one ("no wait split for …").
func writeSplit[R any](w io.Writer, b *bench.Bench, what string, row func(string, *viewer.Run) R, mean func(string, []R) R, table func(io.Writer, []R) error) error {
	rows, missing, err := perRun(b, row, mean)
	if err != nil {
		return err
	}
	if err := table(w, rows); err != nil {
		return err
	}
	for _, m := range missing {
		if _, err := fmt.Fprintf(w, "no %s for %s\n", what, m); err != nil {
			return err
		}
	}
	return nil
}

// perRun makes a row of every run of b, per strategy over the configs,
// then the strategy's mean row. The runs are simulated again in-process
// with the simulator's log read back, as --html does: a run's result keeps
// neither its jobs' waits nor its servers' billing. A run without a result
// (a baseline that never dequeues on a failure trace) has no row: it is
// returned in missing with the reason, and the strategy's mean is over the
// others, as the report lists such runs beside its tables. Runs of an
// external --client cannot be simulated again (dsbench refuses --waits
// and --costs with --client before the run; the check here is for library
// callers).
func perRun[R any](b *bench.Bench, row func(string, *viewer.Run) R, mean func(string, []R) R) (rows []R, missing []string, err error) {
	if b.Target.Client != "" {
		return nil, nil, fmt.Errorf("the runs are an external client's (--client), which dsbench cannot simulate again")
	}
	for _, v := range b.Variants {
		var mine []R
		for _, src := range b.Sources {
			r, err := RunViewer(src, v)
			if err != nil {
				missing = append(missing, err.Error())
				continue
			}
			mine = append(mine, row(v.Label()+" on "+src.Name, r))
		}
		rows = append(rows, viewer.WithMeanOf(fmt.Sprintf("%s: mean of %d", v.Label(), len(mine)), mine, mean)...)
	}
	return rows, missing, nil
}
