package bench

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// TestSWFSourceRuns: a trace given as a config argument runs like a config:
// its 5 kept jobs (mocksrv/swf's test trace, 5 lines skipped) all complete
// under every strategy, in-process and over TCP with the same numbers, and
// the execution time is the trace's run times: (100+30+51+1+12)/5.
func TestSWFSourceRuns(t *testing.T) {
	srcs, err := sources.Resolve([]string{swfTrace, swfTrace + ":time-scale=0.5,procs-per-core=2"})
	require.NoError(t, err)
	require.Len(t, srcs, 2)
	require.Equal(t, "small", srcs[0].Name)
	require.Equal(t, "small:time-scale=0.5,procs-per-core=2", srcs[1].Name)
	for spec, want := range map[string]string{
		":time-scale=0.5,":                     "small:time-scale=0.5",
		":time-scale=0.5, ,":                   "small:time-scale=0.5",
		":,time-scale=0.5":                     "small:time-scale=0.5",
		":time-scale=0.5,,procs-per-core=2":    "small:time-scale=0.5,procs-per-core=2",
		": procs-per-core=2 , time-scale=0.5,": "small:procs-per-core=2,time-scale=0.5",
		":":                                    "small",
	} {
		more, err := sources.Resolve([]string{swfTrace + spec})
		require.NoError(t, err, spec)
		require.Equal(t, want, more[0].Name, spec)
	}
	vs, err := columns.ParseVariants([]string{"ff,bf,fc"})
	require.NoError(t, err)
	for _, target := range []Target{{}, {Server: ServerDsmock}} {
		b := &Bench{Sources: srcs, Variants: vs, Target: target}
		res := b.Run(context.Background())
		require.Len(t, res, 6)
		for _, r := range res {
			require.True(t, r.OK(), "%s/%s: %s %s", r.Config, r.Variant, r.Status, r.Err)
			require.Equal(t, 5, r.Summary.Jobs, "%s/%s", r.Config, r.Variant)
			require.Equal(t, 38, r.Summary.AvgExec, "%s/%s", r.Config, r.Variant)
		}
	}
}

// TestSWFSourceStaged: the in-memory files are what a server binary gets
// (stageConfig), and they load from disk as they did from memory.
func TestSWFSourceStaged(t *testing.T) {
	srcs, err := sources.Resolve([]string{swfTrace})
	require.NoError(t, err)
	cfg, err := srcs[0].Load()
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, stageConfig(srcs[0], cfg, dir))
	disk, err := mocksrv.LoadConfig(filepath.Join(dir, "config.xml"), mocksrv.LoadOptions{BaseDir: dir})
	require.NoError(t, err)
	require.Equal(t, cfg.Jobs, disk.Jobs)
	require.Equal(t, cfg.Types, disk.Types)
}

const swfTrace = "../../mocksrv/swf/testdata/small.swf"
