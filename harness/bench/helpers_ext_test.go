package bench_test

import "github.com/dssim-go/dssim-go/internal/benchtest"

// The helpers these tests share with the other harness packages' tests.
var (
	fixtureSources = benchtest.FixtureSources
	script         = benchtest.Script
	mustRead       = benchtest.MustRead
	buildCmd       = benchtest.BuildCmd
)

// The bash clients (benchtest's doc says what each does).
const (
	nlClient     = benchtest.NLClient
	schedulesAll = benchtest.SchedulesAll
	early        = benchtest.Early
	quitter      = benchtest.Quitter
)
