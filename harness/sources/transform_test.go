package sources

import (
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
