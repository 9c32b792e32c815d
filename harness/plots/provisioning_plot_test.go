package plots

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/provisioning"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// poweredCores(t) and targetCores(t) of one run of provision on
// config20-med-high, drawn as SVG; PROVISIONING_PLOT=dir keeps the file
// (README's strategies/provisioning/study/powered-vs-target.svg is made so).
func TestProvisioningPlot(t *testing.T) {
	s, err := strategies.New("provision", nil)
	require.NoError(t, err)
	_, err = strattest.Run(filepath.Join(fixtures.Dir(t), "fixtures", "config20-med-high"), s)
	require.NoError(t, err)
	samples := provisioning.Trace(s)
	require.NotEmpty(t, samples)
	dir := os.Getenv("PROVISIONING_PLOT")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "powered-vs-target.svg")
	require.NoError(t, WriteProvisioningPlot(path, "provision (target=fluidplan) on config20-med-high", samples))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), "poweredCores(t)")
	// README shows the committed plot: it must be what the code draws now
	// (a change to provision's decisions left it stale once).
	committed, err := os.ReadFile(filepath.Join("..", "..", "strategies", "provisioning", "study", "powered-vs-target.svg"))
	require.NoError(t, err)
	assert.True(t, string(committed) == string(data),
		"strategies/provisioning/study/powered-vs-target.svg is stale: redraw it with PROVISIONING_PLOT=$PWD/strategies/provisioning/study go test -run TestProvisioningPlot ./harness/")
	assert.Error(t, WriteProvisioningPlot(path, "empty", nil))
}
