package composite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// With no rate above 0 (GETS All gives none; ds-system.xml prints a rate
// below 0.005 as 0.00), delay is priced at a unit per core-hour
// (servertypes.System.CheapestPerCore), so the proposal that starts the
// job sooner wins: at a price of 0 every proposal scored 0 and the first
// member always won, here a boot over a server idle now.
func TestPortfolioUnpricedRates(t *testing.T) {
	sys := strattest.System(
		servertypes.Type{Name: "small", Limit: 2, BootupTime: 60, Cores: 2, Memory: 4000, Disk: 16000},
	)
	v := &strattest.FakeView{Sys: sys, Book: strategies.NewLedger(sys), Capable: []protocol.Server{}}
	early := protocol.Job{ID: 0, Submit: 0, Cores: 1, Memory: 100, Disk: 100, EstRunTime: 10}
	v.Book.Observe(&protocol.JobOffer{Job: early})
	require.NoError(t, v.Book.Applied(protocol.Schedule{JobID: 0, Server: ref("small", 1)}, "OK"))
	v.Book.Observe(&protocol.JobCompleted{Time: 120, JobID: 0, Server: ref("small", 1)})

	c := makeComposite(t, map[string]string{"members": "[test-fixed:to=small,id=0; test-fixed:to=small,id=1]", "mode": "portfolio", "weight": "10"})
	j := jb(1, 2, 100)
	offer(v, j)
	assert.InDelta(t, 10*60.0/3600*2*servertypes.UnpricedPerCore, c.score(v.Book, j, strategies.Sched(j, ref("small", 0))), 1e-12, "the boot's 60 s")
	acts, err := c.Job(v, j)
	require.NoError(t, err)
	assert.Equal(t, strategies.Sched(j, ref("small", 1)), acts, "idle now beats a boot")
}
