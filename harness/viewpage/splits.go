package viewpage

import (
	"fmt"
	"io"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/viewer"
)

// WriteSplits is dsbench --waits and --costs: each run's wait split
// (viewer.Waits: what waiting adds to the TAT ratio, up to a boot and
// beyond) to waits, and its cost split (viewer.Costs: what the cost ratio
// is made of, from the work at the bound's rates to the servers billed
// empty) to costs, per strategy over the configs, then the strategy's
// mean; a nil writer skips its table. The runs are simulated again
// in-process with the simulator's log read back, as --html does (a run's
// result keeps neither its jobs' waits nor its servers' billing), once for
// both tables. A run without a result (a baseline that never dequeues on
// a failure trace) has no row: it is named below each table with the
// reason, and the strategy's mean is over the others, as the report lists
// such runs beside its tables. Runs of an external --client cannot be
// simulated again (dsbench refuses --waits and --costs with --client
// before the run; the check here is for library callers).
func WriteSplits(b *bench.Bench, waits, costs io.Writer) error {
	if b.Target.Client != "" {
		return fmt.Errorf("the runs are an external client's (--client), which dsbench cannot simulate again")
	}
	var ws []viewer.WaitRow
	var cs []viewer.CostRow
	var missing []string
	for _, v := range b.Variants {
		var mw []viewer.WaitRow
		var mc []viewer.CostRow
		n := 0
		for _, src := range b.Sources {
			r, err := RunViewer(src, v)
			if err != nil {
				missing = append(missing, err.Error())
				continue
			}
			n++
			name := v.Label() + " on " + src.Name
			if waits != nil { // only the splits asked for: each walks the whole run
				mw = append(mw, viewer.WaitRow{Name: name, Waits: r.Waits()})
			}
			if costs != nil {
				mc = append(mc, viewer.CostRow{Name: name, Costs: r.Costs()})
			}
		}
		label := fmt.Sprintf("%s: mean of %d", v.Label(), n)
		ws = append(ws, viewer.WithMeanOf(label, mw, viewer.MeanWaits)...)
		cs = append(cs, viewer.WithMeanOf(label, mc, viewer.MeanCosts)...)
	}
	if waits != nil {
		if err := writeSplit(waits, "wait split", missing, func() error { return viewer.WriteWaits(waits, ws) }); err != nil {
			return err
		}
	}
	if costs != nil {
		return writeSplit(costs, "cost split", missing, func() error { return viewer.WriteCosts(costs, cs) })
	}
	return nil
}

// writeSplit writes a table (table), then names the runs without a row
// ("no wait split for …").
func writeSplit(w io.Writer, what string, missing []string, table func() error) error {
	if err := table(); err != nil {
		return err
	}
	for _, m := range missing {
		if _, err := fmt.Fprintf(w, "no %s for %s\n", what, m); err != nil {
			return err
		}
	}
	return nil
}
