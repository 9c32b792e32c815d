package plots

import (
	"github.com/dssim-go/dssim-go/internal/benchtest"
	"github.com/dssim-go/dssim-go/internal/benchtest/hand"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every strategy, for the runs of these tests
)

// The helpers these tests share with the other harness packages' tests.
var (
	fixtureSources = benchtest.FixtureSources
	checkPNG       = benchtest.CheckPNG
	checkSVG       = benchtest.CheckSVG
	handResults    = hand.Results
)
