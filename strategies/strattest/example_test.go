package strattest_test

import (
	"fmt"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every registered strategy
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// One call runs a registered strategy in-process on a config and returns
// typed metrics: ds-server's summary numbers and the client's counts
// (Metrics.Reported holds what a strategy reports about itself).
func ExampleRunFS() {
	for _, name := range []string{"ff", "cost-reduce"} {
		s, err := strategies.New(name, nil)
		if err != nil {
			panic(err)
		}
		m, err := strattest.RunFS(configs.FS(), "slow-boot.xml", s)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-11s turnaround %4d s  cost $%6.2f  utilisation %.2f%%  %d jobs, %d actions\n",
			name, m.AvgTurnaround, m.TotalCost, m.AvgUtil, m.Jobs, m.Actions)
	}
	// Output:
	// ff          turnaround  278 s  cost $ 29.12  utilisation 49.17%  700 jobs, 700 actions
	// cost-reduce turnaround  263 s  cost $ 24.81  utilisation 64.02%  700 jobs, 700 actions
}
