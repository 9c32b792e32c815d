package dsbench

import (
	"github.com/dssim-go/dssim-go/internal/benchtest"
	"github.com/dssim-go/dssim-go/internal/benchtest/hand"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every strategy, for the runs of these tests
)

// The helpers these tests share with the other harness packages' tests.
var (
	fixtureConfig  = benchtest.FixtureConfig
	fixtureSources = benchtest.FixtureSources
	buildCmd       = benchtest.BuildCmd
	script         = benchtest.Script
	mustRead       = benchtest.MustRead
	checkPNG       = benchtest.CheckPNG
	checkSVG       = benchtest.CheckSVG

	checkMarkdownTables = benchtest.CheckMarkdownTables
	handResults         = hand.Results
)

// The bash clients (benchtest's doc says what each does).
const (
	nlClient     = benchtest.NLClient
	schedulesAll = benchtest.SchedulesAll
	early        = benchtest.Early
	quitter      = benchtest.Quitter
)
