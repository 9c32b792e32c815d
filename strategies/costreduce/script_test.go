package costreduce

import (
	"github.com/dssim-go/dssim-go/strategies/internal/script"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The scripted View is strattest's; the script builders are the ones the
// baselines' tests use too (strategies/internal/script), under short names.
type fakeView = strattest.FakeView

var (
	sysS        = script.SysS
	sysTW       = script.SysTW
	sysTR       = script.SysTR
	sysSample01 = script.SysSample01
	systemOf    = script.SystemOf
	recs        = script.Recs
	ref         = script.Ref
	offer       = script.Offer
	decide      = script.Decide
	capableOf   = script.CapableOf
	availOf     = script.AvailOf
	itoa        = script.Itoa
	gc          = script.GC
	ga          = script.GA
	m           = script.M
)
