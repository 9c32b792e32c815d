package dsclient_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/corpus"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// TestFrontierCorpusOverTCP: frontier's three presets, through dsclient
// over TCP against the simulator of either year, give the summary of
// their in-process runs on generated configs of every corpus class, the
// kinds the shared fixtures lack: a price per type (each 2026 GETS record
// carries its rate), boots of 0–600 s, one or two servers a type,
// failure models. The in-process runs are what the pages' figures come
// from; frontier is judged against the real servers over the wire.
func TestFrontierCorpusOverTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over TCP: frontier's presets × a generated corpus × two years")
	}
	cs, err := corpus.Generate("seed=11,all*2:jobs=20-300:boot=0-600,tiny*4")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, corpus.WriteDir(dir, cs))
	for _, c := range cs {
		cfg, err := mocksrv.LoadConfig(filepath.Join(dir, c.Path()), mocksrv.LoadOptions{BaseDir: dir})
		require.NoError(t, err, c.Name)
		for _, preset := range []string{"cost", "balanced", "turnaround"} {
			t.Run(c.Name+"/"+preset, func(t *testing.T) {
				t.Parallel()
				checkOverTCP(t, cfg, "frontier:preset="+preset)
			})
		}
	}
}
