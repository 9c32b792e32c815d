package costreduce_test

import (
	"path/filepath"
	"testing"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/costreduce" // registers cost-reduce
)

// TestCostReduceRunsEveryFixture: cost-reduce, run in-process against the
// simulator on every shared fixture (the failure one included, where killed
// jobs go through ENQJ/CHKQ/DEQJ), completes every job and ends with NONE;
// no refusal, no stuck queue. With multiplier 0 and 1e9 too.
func TestCostReduceRunsEveryFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 29 fixtures × 3 multipliers through the simulator")
	}
	dirs := fixtures.Glob(t, "fixtures/*/config.xml")
	for _, p := range dirs {
		cfg, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: filepath.Dir(p)})
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(p))
		for _, mult := range []string{"4", "0", "1e9"} {
			sess, err := mocksrv.NewSession(cfg, mocksrv.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st, err := strategies.New("cost-reduce", map[string]string{"multiplier": mult})
			if err != nil {
				t.Fatal(err)
			}
			res, err := client.Run(st, sess, client.Options{User: "root",
				System: func(client.Backend) (*servertypes.System, error) { return sess.System() }})
			if err != nil {
				t.Fatalf("%s multiplier %s: %v", name, mult, err)
			}
			r := sess.Report()
			if r == nil || res.Refusals != 0 {
				t.Fatalf("%s multiplier %s: report %v, %d refusals", name, mult, r, res.Refusals)
			}
			if mult == "4" {
				t.Logf("%-28s cost $%.2f  turnaround %d  util %.2f%%  servers %d", name, r.TotalCost, r.AvgTurnaround, r.AvgUtil, r.ServersUsed)
			}
		}
	}
}
