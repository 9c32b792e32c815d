package frontier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// A job no server type can hold (job files are not checked against the
// servers, ds-server.md §2.7) ends the run at its first offer, with an
// error naming the job, what it needs and the largest type; pushed back
// (PSHJ), it went round until ds-server gave up at 1.5 × the end time.
func TestJobNoTypeCanHold(t *testing.T) {
	for _, tc := range []struct {
		what string
		job  protocol.Job
		msg  string
	}{
		{"too many cores", protocol.Job{ID: 3, Cores: 64, Memory: 100, Disk: 100, EstRunTime: 10},
			"frontier: no server can take the job: job 3 (cores 64, memory 100, disk 100) fits no server type (the largest, big, has cores 8, memory 32000, disk 64000)"},
		{"too much memory, on the type with the most cores too", protocol.Job{ID: 4, Cores: 1, Memory: 40000, Disk: 100, EstRunTime: 10},
			"frontier: no server can take the job: job 4 (cores 1, memory 40000, disk 100) fits no server type (the largest, big, has cores 8, memory 32000, disk 64000)"},
	} {
		f, v := cluster(t, nil)
		offer(v, tc.job)
		_, err := f.Job(v, tc.job)
		assert.ErrorIs(t, err, strategies.ErrNoServer, tc.what)
		assert.EqualError(t, err, tc.msg, tc.what)
	}
}

// With no rate above 0 (GETS All gives none; ds-system.xml prints a rate
// below 0.005 as 0.00) delay keeps a price, a unit per core-hour: every
// server costs the same, so delay decides, and three long jobs start on
// three servers instead of queueing behind the first (a price of 0 tied
// every score and the tie went to the powered server). Migration is on:
// the unit is set, and a server freed takes a job that waits. No server is
// kept on: its idle time has no price to bet with.
func TestUnpricedRates(t *testing.T) {
	f, v := clusterOf(t, map[string]string{"warm": "on"},
		servertypes.Type{Name: "small", Limit: 2, BootupTime: 60, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 300, Cores: 8, Memory: 32000, Disk: 64000},
	)
	var got []protocol.Action
	for id := range 3 {
		j := jb(id, id, 2, 10000)
		acts := decide(t, f, v, j)
		require.Len(t, acts, 1)
		require.NoError(t, v.Book.Applied(acts[0], "OK"))
		_, err := f.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "OK"})
		require.NoError(t, err)
		got = append(got, acts...)
	}
	assert.Equal(t, []protocol.Action{
		protocol.Schedule{JobID: 0, Server: ref("small", 0)},
		protocol.Schedule{JobID: 1, Server: ref("small", 1)},
		protocol.Schedule{JobID: 2, Server: ref("big", 0)},
	}, got)
	assert.InDelta(t, servertypes.UnpricedPerCore/3600, f.perCoreSecond, 1e-15)
	assert.Zero(t, f.hold(mustMachine(t, v, ref("small", 0))), "no bet on a server whose idle time has no price")
}
