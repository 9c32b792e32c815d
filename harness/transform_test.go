package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libra.md Part E's rules: submit' = round(f·submit), halves away from
// zero; est' = max(1, round(act + x/100·(est − act))).
func TestTransformRules(t *testing.T) {
	src := Suite()[0]
	loaded, err := src.Load()
	require.NoError(t, err)
	jobs := loaded.Jobs
	require.NotEmpty(t, jobs)
	j := jobs[0]
	j.Submit, j.EstRunTime, j.ActRunTime = 5, 10, 3
	loaded.Jobs = append(jobs[:0:0], j)
	for _, tc := range []struct {
		tr          Transform
		submit, est int
	}{
		{Transform{}, 5, 10},
		{Transform{ArrivalFactor: 0.5, HasArrival: true}, 3, 10},  // 2.5 → 3 (half away from zero)
		{Transform{ArrivalFactor: 0.25, HasArrival: true}, 1, 10}, // 1.25 → 1
		{Transform{Inaccuracy: 0, HasInaccuracy: true}, 5, 3},     // exact: the actual runtime
		{Transform{Inaccuracy: 100, HasInaccuracy: true}, 5, 10},  // the file's own
		{Transform{Inaccuracy: 50, HasInaccuracy: true}, 5, 7},    // 3 + 3.5 = 6.5 → 7
		{Transform{Inaccuracy: 25, HasInaccuracy: true}, 5, 5},    // 3 + 1.75 = 4.75 → 5
	} {
		out := tc.tr.apply(loaded)
		assert.Equal(t, [2]int{tc.submit, tc.est}, [2]int{out.Jobs[0].Submit, out.Jobs[0].EstRunTime}, "%+v", tc.tr)
		assert.Equal(t, 5, loaded.Jobs[0].Submit, "the shared config is never changed")
	}
	zero := loaded.Jobs[0]
	zero.ActRunTime, zero.EstRunTime = 0, 0
	loaded.Jobs[0] = zero
	assert.Equal(t, 1, Transform{Inaccuracy: 0, HasInaccuracy: true}.apply(loaded).Jobs[0].EstRunTime, "at least 1")
}

// Expand is the cartesian product, with the transform in the row name and
// the result's columns.
func TestExpandAndColumns(t *testing.T) {
	srcs := Expand(Suite()[:1], []float64{0.5, 1}, []float64{0, 100})
	require.Len(t, srcs, 4)
	base := Suite()[0].Name
	assert.Equal(t, base+" af=0.5 inacc=0", srcs[0].Name)
	assert.Equal(t, base+" af=1 inacc=100", srcs[3].Name)
	var r Result
	r.setTransform(srcs[1])
	require.NotNil(t, r.ArrivalFactor)
	require.NotNil(t, r.Inaccuracy)
	assert.Equal(t, [3]any{base, 0.5, 100.0}, [3]any{r.Base, *r.ArrivalFactor, *r.Inaccuracy})
	assert.Len(t, Expand(Suite()[:1], nil, []float64{25}), 1)
	assert.Equal(t, Suite()[:2], Expand(Suite()[:2], nil, nil))
}

// Out-of-range sweep values, and transforms with a server binary, are
// usage errors.
func TestTransformUsageErrors(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "server")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--inaccuracy", "-1"}, "--inaccuracy -1: out of range: want a percentage in [0, 100]"},
		{[]string{"--inaccuracy", "0,101"}, "--inaccuracy 101: out of range"},
		{[]string{"--arrival-factor", "0"}, "--arrival-factor 0: out of range"},
		{[]string{"--arrival-factor", "-0.5"}, "--arrival-factor -0.5: out of range"},
		{[]string{"--arrival-factor", "half"}, `--arrival-factor "half": want a number`},
		{[]string{"--inaccuracy", "50", "--server", bin}, "derive job lists for the built-in simulator"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, &stdout, &stderr, nil)
		assert.Equal(t, ExitUsage, code, "%v", tc.args)
		assert.Contains(t, stderr.String(), tc.want)
	}
}

// A sweep writes a metric-against-swept-value plot per metric.
func TestSweepPlots(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main([]string{"-a", "librariskd,ff", "--inaccuracy", "0,100", "--plots", dir, "-f", "csv", "--progress", "never",
		filepath.Join("..", "configs", "light-short-small.xml")}, &stdout, &stderr, nil)
	require.Equal(t, ExitOK, code, stderr.String())
	assert.Contains(t, stdout.String(), "base_config,arrival_factor,inaccuracy,metric:deadlineMetPct")
	for _, f := range []string{"sweep-inacc-tt.svg", "sweep-inacc-co.png", "sweep-inacc-deadlineMetPct.svg"} {
		_, err := os.Stat(filepath.Join(dir, f))
		assert.NoError(t, err, f)
	}
	_, err := os.Stat(filepath.Join(dir, "sweep-af-tt.svg"))
	assert.True(t, os.IsNotExist(err), "no arrival-factor sweep, no such plot")
}

// FuzzParseSweep: the --arrival-factor / --inaccuracy value parser never
// panics, and every value it accepts is finite and in range.
func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"0.25,0.5,1", "0,25,50,75,100", "", ",", "NaN", "1e309", "-0", " 5 ,7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, check := range []func(float64) error{CheckArrivalFactor, CheckInaccuracy} {
			vs, err := ParseSweep("--x", []string{s}, check)
			if err != nil {
				continue
			}
			for _, v := range vs {
				if check(v) != nil {
					t.Fatalf("%q: accepted out-of-range %v", s, v)
				}
			}
		}
	})
}
