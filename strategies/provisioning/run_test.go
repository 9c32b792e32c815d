package provisioning

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// names are every strategy of the package, with the gq mode and each
// target of provision as extra runs.
var variants = []struct {
	name     string
	settings map[string]string
}{
	{"thr", nil}, {"thr-delay", nil}, {"fluidplan", nil}, {"costdp", nil}, {"costdp-mono", nil},
	{"costdp-nom", nil}, {"bestpack-boot", nil}, {"provision", nil},
	{"provision", map[string]string{"target": "costdp"}}, {"provision", map[string]string{"target": "thr-delay"}},
	{"thr", map[string]string{"queue": "gq"}}, {"bestpack-boot", map[string]string{"queue": "gq"}},
}

func label(name string, s map[string]string) string {
	for k, v := range s {
		name += ":" + k + "=" + v
	}
	return name
}

// Every strategy completes every shared fixture and every config of the
// embedded suite in-process: all jobs done, no TERM that killed a job (the
// outcome hook would have failed the run), the metrics reported.
func TestEveryStrategyCompletesEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("12 variants × 39 whole runs; the costdp ones take seconds each on the config100 fixtures")
	}
	dir := filepath.Join(fixtures.Dir(t), "fixtures")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, vr := range variants {
		t.Run(label(vr.name, vr.settings), func(t *testing.T) {
			for _, e := range entries {
				s, err := strategies.New(vr.name, vr.settings)
				require.NoError(t, err)
				m, err := strattest.Run(filepath.Join(dir, e.Name()), s)
				require.NoError(t, err, e.Name())
				assert.Zero(t, m.Unscheduled, e.Name())
				assert.Positive(t, m.Jobs, e.Name())
				assert.NotEmpty(t, m.Reported, e.Name())
			}
			for _, name := range configs.Names() {
				s, err := strategies.New(vr.name, vr.settings)
				require.NoError(t, err)
				m, err := strattest.RunFS(configs.FS(), name, s)
				require.NoError(t, err, name)
				assert.Zero(t, m.Unscheduled, name)
			}
		})
	}
}
