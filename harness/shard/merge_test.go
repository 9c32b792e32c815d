package shard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// Every option that changes what a run computes is in the fingerprint:
// the memory extension's failure model, the target. (Not the timeout:
// TestMergeAcrossTimeouts.)
func TestSweepFingerprintHasTheRunOptions(t *testing.T) {
	vs, err := columns.ParseVariants([]string{"ff"})
	require.NoError(t, err)
	base := &bench.Bench{Sources: sources.Suite()[:1], Variants: vs}
	sw := FingerprintOf(base, report.Turnaround, []string{"ff"})
	for name, change := range map[string]func(b *bench.Bench){
		"mem_fail": func(b *bench.Bench) { b.Target.MemFail = mocksrv.MemFailHard },
		"server":   func(b *bench.Bench) { b.Target.Server = bench.ServerDsmock },
		"newline":  func(b *bench.Bench) { b.Target.Newline = true },
	} {
		b := *base
		change(&b)
		err := SameSweep("a.json", sw, "b.json", FingerprintOf(&b, report.Turnaround, []string{"ff"}))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "target differs", name)
		assert.Contains(t, err.Error(), name, name)
	}
	err = SameSweep("a.json", sw, "b.json", FingerprintOf(base, report.Cost, []string{"ff"}))
	assert.ErrorContains(t, err, "a.json and b.json are pieces of different sweeps: objective differs (")
}
