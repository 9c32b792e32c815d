package baselines

import (
	"github.com/dssim-go/dssim-go/strategies/internal/fakeview"
	// cost-reduce shares the events, error, bench and fuzz tests here.
	_ "github.com/dssim-go/dssim-go/strategies/costreduce"
)

// The scripted View and the script builders are shared with the other
// strategy packages' tests (strategies/internal/fakeview); these short
// names keep the expected message lists readable.
type fakeView = fakeview.View

var (
	mkSys       = fakeview.MkSys
	ty          = fakeview.Ty
	sysS        = fakeview.SysS
	sysTW       = fakeview.SysTW
	sysTR       = fakeview.SysTR
	typesT      = fakeview.TypesT
	capableOf   = fakeview.CapableOf
	availOf     = fakeview.AvailOf
	sysSample01 = fakeview.SysSample01
	systemOf    = fakeview.SystemOf
	recs        = fakeview.Recs
	jobRecs     = fakeview.JobRecs
	lstjMap     = fakeview.LSTJMap
	ref         = fakeview.Ref
	offer       = fakeview.Offer
	mustNew     = fakeview.MustNew
	decide      = fakeview.Decide
	shuffled    = fakeview.Shuffled
	reversed    = fakeview.Reversed
	itoa        = fakeview.Itoa
	gc          = fakeview.GC
	ga          = fakeview.GA
	m           = fakeview.M
)
