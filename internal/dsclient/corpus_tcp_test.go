package dsclient_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/sources"
)

// TestCorpusOverTCP: frontier's three presets and bf, through dsclient
// over TCP against the simulator of either year, give the summary of
// their in-process runs on generated configs of every corpus class, the
// kinds the shared fixtures lack: a price per type, boots of up to 600 s,
// one or two servers a type, failure models. The in-process runs are
// what the pages' figures come from; the strategies are judged against
// the real servers over the wire. frontier keeps its own ledger and sends
// GETS only to resynchronise it, which none of these runs needed when
// this test was written; bf sends GETS Capable for every job, so a 2026
// record's rate that disagreed with ds-system.xml's would show
// (checkOverTCP asks for no such warning).
func TestCorpusOverTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over TCP: four strategies × a generated corpus × two years")
	}
	srcs, err := sources.Corpus("seed=11,all*2:jobs=20-300:boot=0-600,tiny*4")
	require.NoError(t, err)
	for _, src := range srcs {
		cfg, err := src.Load()
		require.NoError(t, err, src.Name)
		for _, spec := range []string{"frontier:preset=cost", "frontier:preset=balanced", "frontier:preset=turnaround", "bf"} {
			t.Run(src.Name+"/"+spec, func(t *testing.T) {
				t.Parallel()
				checkOverTCP(t, cfg, spec)
			})
		}
	}
}
