package costreduce

import "github.com/dssim-go/dssim-go/strategies/internal/fakeview"

// The scripted View and the script builders the baselines' tests use too
// (strategies/internal/fakeview), under short names.
type fakeView = fakeview.View

var (
	sysS        = fakeview.SysS
	sysTW       = fakeview.SysTW
	sysTR       = fakeview.SysTR
	sysSample01 = fakeview.SysSample01
	systemOf    = fakeview.SystemOf
	recs        = fakeview.Recs
	ref         = fakeview.Ref
	offer       = fakeview.Offer
	decide      = fakeview.Decide
	capableOf   = fakeview.CapableOf
	availOf     = fakeview.AvailOf
	itoa        = fakeview.Itoa
	gc          = fakeview.GC
	ga          = fakeview.GA
	m           = fakeview.M
)
