package harness_test

import (
	"context"
	"fmt"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/sources"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every strategy, for columns.ParseVariants
)

// Two strategies on the embedded suite, in-process, compared with ff as
// the baseline: the package doc's example. The averages leave out the
// config with resource failures, which neither finishes (they never take
// a job back from the global queue).
func Example() {
	vs, err := columns.ParseVariants([]string{"ff,bf"})
	if err != nil {
		panic(err)
	}
	b := &bench.Bench{Sources: sources.Suite(), Variants: vs}
	results := b.Run(context.Background())
	cmp := report.Compare(results, sources.Names(b.Sources), b.Columns(), []string{"ff"}, report.Turnaround)
	tt := cmp.Tables[report.Turnaround]
	fmt.Printf("%d runs, averaged over %d of %d configs\n", len(results), len(tt.Complete), len(tt.Configs))
	for _, r := range results {
		if !r.OK() {
			fmt.Println(r.Variant, "on", r.Config, "has no result:", r.NeedsQueue())
		}
	}
	// Output:
	// 20 runs, averaged over 9 of 10 configs
	// ff on flaky-servers has no result: true
	// bf on flaky-servers has no result: true
}
