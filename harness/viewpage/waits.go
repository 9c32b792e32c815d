package viewpage

import (
	"fmt"
	"io"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/viewer"
)

// WriteWaits is dsbench --waits: each run's wait split (viewer.Waits: what
// waiting adds to the TAT ratio, up to a boot and beyond), per strategy
// over the configs, then the strategy's mean. The runs are simulated again
// in-process with the simulator's log read back, as --html does: a run's
// result does not keep its jobs' waits. A run without a result (a baseline
// that never dequeues on a failure trace) has no split: it is named below
// the table with the reason, and the strategy's mean is over the others,
// as the report lists such runs beside its tables. Runs of an external
// --client cannot be simulated again (dsbench refuses --waits with
// --client before the run; the check here is for library callers).
func WriteWaits(w io.Writer, b *bench.Bench) error {
	if b.Target.Client != "" {
		return fmt.Errorf("the runs are an external client's (--client), which dsbench cannot simulate again")
	}
	var rows []viewer.WaitRow
	var missing []string
	for _, v := range b.Variants {
		var mine []viewer.WaitRow
		for _, src := range b.Sources {
			r, err := RunViewer(src, v)
			if err != nil {
				missing = append(missing, err.Error())
				continue
			}
			mine = append(mine, viewer.WaitRow{Name: v.Label() + " on " + src.Name, Waits: r.Waits()})
		}
		rows = append(rows, viewer.WithMean(fmt.Sprintf("%s: mean of %d", v.Label(), len(mine)), mine)...)
	}
	if err := viewer.WriteWaits(w, rows); err != nil {
		return err
	}
	for _, m := range missing {
		if _, err := fmt.Fprintf(w, "no wait split for %s\n", m); err != nil {
			return err
		}
	}
	return nil
}
