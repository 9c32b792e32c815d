package corpus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A bad spec is refused before anything is generated, and the error names
// the item and what is wrong with it.
func TestBadSpecRefused(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"", "item 1 is empty"},
		{"all*2,,tiny", "item 2 is empty"},
		{"seed=1", "names no class"},
		{"load=10-20", "names no class"},
		{"seed=x,all", `item 1 "seed=x": seed "x": want a whole number`},
		{"seed=1,seed=2,all", "the seed is given twice"},
		{"all,tiny,tiny*3", `item 3 "tiny*3": class tiny is given twice`},
		{"huge*3", `unknown class "huge"`},
		{"all*0", `count "0" of class all: want a whole number 1 … 1000`},
		{"all*1001", "want a whole number 1 … 1000"},
		{"tiny*x", `count "x" of class tiny`},
		{"tiny*2:jobs", `"jobs" after class tiny: want KEY=VALUE`},
		{"tiny:speed=3", `unknown key "speed"`},
		{"all,speed=3", `unknown key "speed"`},
		{"tiny:jobs=0", "jobs=0: want a whole number or a range LO-HI within 1 … 1000000"},
		{"tiny:jobs=50-20", "jobs=50-20: want"},
		{"tiny:load=1-101", "load=1-101: want a whole number or a range LO-HI within 1 … 100"},
		{"tiny:types=1", "types=1: want a whole number or a range LO-HI within 2 … 12"},
		{"tiny:boot=-5", "boot=-5: want"},
		{"tiny:limit=1001", "limit=1001"},
		{"tiny:price=cheap", `price=cheap: "cheap" is not one of uniform, scale, premium, discount`},
		{"tiny:price=scale|", `"" is not one of`},
		{"tiny:price=scale|scale", `"scale" given twice`},
		{"tiny:failure=sometimes", `"sometimes" is not one of none, teragrid`},
		{"tiny:estimate=guess", `"guess" is not one of dssim, exact, over, noisy`},
		{"tiny:runs=forever", `"forever" is not one of short, medium, long, mixed`},
	} {
		_, err := Parse(tc.spec)
		require.Error(t, err, tc.spec)
		assert.Contains(t, err.Error(), tc.want, tc.spec)
	}
}

// Settings resolve in order: class defaults, the spec's, all's, the
// class's own; a class named on its own takes its own count.
func TestSpecResolves(t *testing.T) {
	s, err := Parse(" seed=7 , jobs=30-40,all*2:limit=3,tiny*4:jobs=25:price=scale|premium ")
	require.NoError(t, err)
	assert.Equal(t, uint64(7), s.Seed)
	plan := s.plan()
	require.Len(t, plan, len(classes))
	for _, p := range plan {
		assert.Equal(t, Range{3, 3}, p.Class.Dims.Limit, p.Class.Name)
		if p.Class.Name == "tiny" {
			assert.Equal(t, 4, p.Count)
			assert.Equal(t, Range{25, 25}, p.Class.Dims.Jobs)
			assert.Equal(t, []string{"scale", "premium"}, p.Class.Dims.Price)
			continue
		}
		assert.Equal(t, 2, p.Count, p.Class.Name)
		assert.Equal(t, Range{30, 40}, p.Class.Dims.Jobs, p.Class.Name)
	}
	assert.Equal(t, "seed=7,jobs=30-40,all*2:limit=3,tiny*4:jobs=25:price=scale|premium", s.String())
	// The defaults are not changed by a spec's settings.
	c, _ := classNamed("tiny")
	assert.Equal(t, Range{1, 2}, c.Dims.Limit)
	assert.Equal(t, []string{"uniform", "scale", "premium", "discount"}, c.Dims.Price)
}

// The canonical form is a fixed point: Parse(String()) gives the same spec.
func TestSpecRoundTrip(t *testing.T) {
	for _, spec := range []string{"all", "seed=2,all*10,tiny*20:load=90-100,large*3:jobs=20000",
		"failure*3:failure=g5k06|pl05:limit=2-4,jobs=100-100,boot=0"} {
		s, err := Parse(spec)
		require.NoError(t, err, spec)
		again, err := Parse(s.String())
		require.NoError(t, err, s.String())
		assert.Equal(t, s, again, spec)
	}
}

// FuzzParse: no spec panics the parser; one it accepts prints as a
// canonical spec that parses back to the same thing.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"all", "seed=2,all*10,tiny*20:load=90-100,large*3:jobs=20000", "tiny:price=scale|premium",
		"jobs=1-1000000,all*1000", "seed=18446744073709551615,estimate", "tiny*3:jobs", ",", "all*-1", "tiny:load=5-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := Parse(spec)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", spec)
			}
			return
		}
		again, err := Parse(s.String())
		if err != nil {
			t.Fatalf("%q: canonical %q refused: %v", spec, s.String(), err)
		}
		if again.String() != s.String() {
			t.Fatalf("%q: canonical %q parses as %q", spec, s.String(), again.String())
		}
		if n := s.size(); n < 1 || n > MaxCount*len(classes) {
			t.Fatalf("%q: %d configs accepted", spec, n)
		}
		for _, p := range s.plan() {
			d := p.Class.Dims
			for _, r := range []Range{d.Types, d.Limit, d.Boot, d.Jobs, d.Load} {
				if r.Lo > r.Hi {
					t.Fatalf("%q: %s range %v", spec, p.Class.Name, r)
				}
			}
			if len(d.Price) == 0 || len(d.Runs) == 0 || len(d.Estimate) == 0 || len(d.Failure) == 0 {
				t.Fatalf("%q: %s has an empty choice: %+v", spec, p.Class.Name, d)
			}
		}
	})
}
