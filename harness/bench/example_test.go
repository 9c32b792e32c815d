package bench_test

import (
	"context"
	"fmt"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every registered strategy
)

// dsbench from Go: strategies × configs, in-process (Target's zero value),
// one Result per run with ds-server's summary numbers; the comparison
// tables dsbench prints are report.Compare and Output over these.
func ExampleBench() {
	suite, err := sources.Resolve(nil) // no argument: the embedded suite
	if err != nil {
		panic(err)
	}
	variants, err := columns.ParseVariants([]string{"ff,cost-reduce:multiplier=1,8"})
	if err != nil {
		panic(err)
	}
	b := &bench.Bench{Sources: suite[:2], Variants: variants, Parallel: 1}
	for _, r := range b.Run(context.Background()) {
		fmt.Printf("%-17s %-26s turnaround %5d s  cost $%7.2f\n", r.Config, r.Variant, r.Summary.AvgTurnaround, r.Summary.TotalCost)
	}
	// Output:
	// discount-mixed    ff                         turnaround  1989 s  cost $ 245.19
	// discount-mixed    cost-reduce:multiplier=1   turnaround  2145 s  cost $ 210.58
	// discount-mixed    cost-reduce:multiplier=8   turnaround  2367 s  cost $ 197.31
	// flaky-servers     ff                         turnaround  1246 s  cost $ 119.94
	// flaky-servers     cost-reduce:multiplier=1   turnaround  2872 s  cost $  93.45
	// flaky-servers     cost-reduce:multiplier=8   turnaround  3501 s  cost $  82.37
}
