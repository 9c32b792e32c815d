// Package all registers every strategy of the project with package
// strategies. Import it for its side effect to register every strategy:
//
//	import _ "github.com/dssim-go/dssim-go/strategies/all"
//
// Commands and tests that list, sweep or look strategies up by name import
// it; a program that wants only some families imports those packages
// (strategies/baselines, strategies/costreduce) instead. A new family adds
// one line here.
package all

import (
	_ "github.com/dssim-go/dssim-go/strategies/baselines"    // atl lrr ff bf wf fc fafc ffq bfq wfq
	_ "github.com/dssim-go/dssim-go/strategies/composite"    // composite: members chosen per job by rules, or a portfolio
	_ "github.com/dssim-go/dssim-go/strategies/costreduce"   // cost-reduce
	_ "github.com/dssim-go/dssim-go/strategies/example"      // soonest, the strategy kit's worked example
	_ "github.com/dssim-go/dssim-go/strategies/frontier"     // frontier, the project's own: cost and turnaround at once
	_ "github.com/dssim-go/dssim-go/strategies/libra"        // libra libraplus librasla librariskd, and fcfs sjf edf (seed 004)
	_ "github.com/dssim-go/dssim-go/strategies/provisioning" // thr thr-delay fluidplan costdp costdp-mono costdp-nom bestpack-boot provision
	_ "github.com/dssim-go/dssim-go/strategies/sgme"         // sgme, similarity-group memory estimation (seed 002)
)
