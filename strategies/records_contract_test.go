package strategies_test

import (
	"path/filepath"
	"testing"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every strategy is held to the contract
)

// TestRecordsContract: every registered strategy honours the Queries
// contract (GETS results are valid until the next GETS). The in-process
// simulator reuses one buffer for them by default; a strategy that kept
// records across GETS queries would see them overwritten and decide
// differently than with FreshRecords. The reports must be identical.
func TestRecordsContract(t *testing.T) {
	names := []string{"config20-med-high", "ds-sample-config02", "ds-sample-config05-failures"}
	if testing.Short() {
		names = names[1:2] // every strategy twice over three fixtures is the slowest test here
	}
	for _, name := range names {
		p := filepath.Join(fixtures.Dir(t), "fixtures", name, "config.xml")
		cfg, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: filepath.Dir(p)})
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range strategies.All() {
			run := func(fresh bool) string {
				sess, err := mocksrv.NewSession(cfg, mocksrv.Options{FreshRecords: fresh})
				if err != nil {
					t.Fatal(err)
				}
				st, err := strategies.New(info.Name, nil)
				if err != nil {
					t.Fatal(err)
				}
				_, err = client.Run(st, sess, client.Options{User: "root",
					System: func(client.Backend) (*servertypes.System, error) { return sess.System() }})
				out := ""
				if err != nil {
					out = err.Error() + "\n"
				}
				if rep := sess.Report(); rep != nil {
					out += rep.Text
				}
				return out
			}
			if a, b := run(false), run(true); a != b {
				t.Errorf("%s on %s: results differ with shared GETS buffers:\n%s\nwith fresh ones:\n%s", info.Name, name, a, b)
			}
		}
	}
}
