package viewpage

import _ "github.com/dssim-go/dssim-go/strategies/all" // every strategy, for the runs of these tests
