package baselines

import (
	"github.com/dssim-go/dssim-go/strategies/internal/script"
	"github.com/dssim-go/dssim-go/strategies/strattest"
	// cost-reduce shares the events, error, bench and fuzz tests here.
	_ "github.com/dssim-go/dssim-go/strategies/costreduce"
)

// The scripted View is strattest's; the script builders are shared with
// the other strategy packages' tests (strategies/internal/script). These
// short names keep the expected message lists readable.
type fakeView = strattest.FakeView

var (
	mkSys       = script.MkSys
	ty          = script.Ty
	sysS        = script.SysS
	sysTW       = script.SysTW
	sysTR       = script.SysTR
	typesT      = script.TypesT
	capableOf   = script.CapableOf
	availOf     = script.AvailOf
	sysSample01 = script.SysSample01
	systemOf    = script.SystemOf
	recs        = script.Recs
	jobRecs     = script.JobRecs
	lstjMap     = script.LSTJMap
	ref         = script.Ref
	offer       = script.Offer
	mustNew     = script.MustNew
	decide      = script.Decide
	shuffled    = script.Shuffled
	reversed    = script.Reversed
	itoa        = script.Itoa
	gc          = script.GC
	ga          = script.GA
	m           = script.M
)
