package harness

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Plots are checked as files: written, non-empty and decodable (PNG by
// image/png, SVG as an <svg> document).
func TestWritePlots(t *testing.T) {
	res := handResults()
	c := Compare(res, []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff"}, Turnaround)
	dir := t.TempDir()
	files, err := WritePlots(dir, c)
	require.NoError(t, err)
	want := []string{"tradeoff", "metric-tt", "metric-ru", "metric-co"}
	require.Len(t, files, len(want)*len(PlotFormats))
	for _, name := range want {
		checkPNG(t, filepath.Join(dir, name+".png"))
		checkSVG(t, filepath.Join(dir, name+".svg"))
	}
	// Without baselines the plots use raw values and must still render.
	c = Compare(res, []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, nil, Turnaround)
	_, err = WritePlots(t.TempDir(), c)
	require.NoError(t, err)
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err, path)
	b := img.Bounds()
	assert.Greater(t, b.Dx(), 100, path)
	assert.Greater(t, b.Dy(), 100, path)
}

func checkSVG(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	s := string(data)
	assert.True(t, strings.Contains(s, "<svg") && strings.HasSuffix(strings.TrimSpace(s), "</svg>"), "%s is not an SVG document", path)
}
