package mocksrv_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// The timeline agrees with the report: as many completed jobs, every job
// runs inside one of its server's powered periods (after boot), powered
// periods do not overlap, and the servers with a powered period are the
// servers the report counts as used.
func TestTimelineAgreesWithReport(t *testing.T) {
	for _, c := range []struct{ fixture, algo string }{
		{"sample-config01", "ff"}, {"config20-med-med", "bf"}, {"sample-config02", "wf"},
		{"ds-sample-config05-failures", "ffq"},
	} {
		t.Run(c.fixture+"/"+c.algo, func(t *testing.T) {
			cfg := fixtureConfig(t, c.fixture)
			s := runInProcess(t, cfg, c.algo, mocksrv.Options{})
			tl := s.Engine().Timeline()
			rep := s.Report()
			assert.Equal(t, rep.EndTime, tl.End)
			completed, powered := 0, 0
			for _, srv := range tl.Servers {
				if len(srv.Power) > 0 {
					powered++
				}
				for i, p := range srv.Power {
					require.LessOrEqual(t, p.BootStart, p.BootEnd)
					if i > 0 {
						require.GreaterOrEqual(t, p.BootStart, srv.Power[i-1].Off, "%s %d: powered periods overlap", srv.Type, srv.ID)
					}
				}
				for _, j := range srv.Jobs {
					if j.Outcome == mocksrv.JobCompleted {
						completed++
						require.Less(t, j.Start, j.End+1)
					}
					in := false
					for _, p := range srv.Power {
						off := p.Off
						if off < 0 {
							off = tl.End
						}
						if j.Start >= p.BootEnd && j.End <= off {
							in = true
						}
					}
					require.True(t, in, "job %d on %s %d [%d,%d] outside every powered period %v", j.ID, srv.Type, srv.ID, j.Start, j.End, srv.Power)
				}
			}
			assert.Equal(t, rep.Jobs, completed)
			assert.Equal(t, rep.ServersUsed, powered)
		})
	}
}
