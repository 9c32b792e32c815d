package viewpage

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/viewer"
)

// synthOutput is a report of n strategies × n configs (the first five
// columns, or two of a small bench, the baselines), every strategy reporting two metrics of its
// own, one run in ten without a result.
func synthOutput(n int) report.Output {
	var res []bench.Result
	var configs, cols []string
	for j := range n {
		cols = append(cols, fmt.Sprintf("strategy-%02d", j))
	}
	for i := range n {
		cfg := fmt.Sprintf("config-%02d", i)
		configs = append(configs, cfg)
		for j, col := range cols {
			r := bench.Result{Config: cfg, Variant: col, Status: bench.StatusOK,
				Summary: bench.Summary{AvgTurnaround: 1000 + (i*37+j*91)%5000, AvgUtil: float64(40 + (i*13+j*7)%60), TotalCost: float64(100+(i*53+j*29)%900) + 0.25},
				Bounds:  bench.Bounds{MeanActualRuntime: 900, PackingCost: 90},
				Metrics: bench.Reported{{Name: "boots", Value: float64(i + j)}, {Name: "net", Value: float64(i*j) / 3, Unit: "$"}}}
			if (i+j)%10 == 3 {
				r.Status, r.Err = bench.StatusTimeout, "no result within 10m0s"
			}
			res = append(res, r)
		}
	}
	return report.Output{Results: res, Comparison: report.Compare(res, configs, cols, cols[:min(5, n/2)], report.Turnaround)}
}

// Building dsbench's comparison for the page (Compare) and rendering the
// page with it (no timelines: those are simulation, measured apart), for
// the 30 strategies × 30 configs and a small bench; the page's
// size is reported too.
func BenchmarkComparePage(b *testing.B) {
	for _, n := range []int{4, 30} {
		out := synthOutput(n)
		runOf := func(string, string) int { return 0 }
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			var buf bytes.Buffer
			if err := (&viewer.Page{Title: "dsbench", Compare: Compare(out, runOf)}).Render(&buf); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				p := &viewer.Page{Title: "dsbench", Compare: Compare(out, runOf)}
				if err := p.Render(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len())/1e3, "kB/page")
		})
	}
}
