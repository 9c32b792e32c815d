package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// The spec tests' strategies are strattest.FirstCapable: registration is
// global, so they also show up in the default runs of this package's
// tests, where they schedule sensibly.
func init() {
	newNop := func(strategies.Params) (strategies.Strategy, error) { return strattest.FirstCapable{}, nil }
	strategies.Register(strategies.Info{Name: "spec-a", Summary: "test", New: newNop})
	strategies.Register(strategies.Info{Name: "spec-b", Summary: "test", New: newNop,
		Params: []strategies.Param{
			{Name: "m", Kind: strategies.Float, Default: "4"},
			{Name: "k", Kind: strategies.Int, Default: "1"},
		}})
	strategies.Register(strategies.Info{Name: "spec-c", Summary: "test: a List parameter", New: newNop,
		Params: []strategies.Param{
			{Name: "members", Kind: strategies.List, Default: "[]"},
			{Name: "k", Kind: strategies.Int, Default: "1"},
		}})
}

func labels(vs []Variant) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Label())
	}
	return out
}

func TestParseVariants(t *testing.T) {
	cases := []struct {
		in   []string
		want []string
	}{
		{[]string{"spec-a"}, []string{"spec-a"}},
		{[]string{"spec-a,spec-b"}, []string{"spec-a", "spec-b"}},
		{[]string{"spec-a", "spec-b"}, []string{"spec-a", "spec-b"}},
		{[]string{"spec-b:m=1,2,4,8"}, []string{"spec-b:m=1", "spec-b:m=2", "spec-b:m=4", "spec-b:m=8"}},
		{[]string{"spec-a,spec-b:m=1,2,spec-a"}, []string{"spec-a", "spec-b:m=1", "spec-b:m=2"}},
		{[]string{"spec-b:m=1,2,k=3,5"}, []string{"spec-b:k=3,m=1", "spec-b:k=5,m=1", "spec-b:k=3,m=2", "spec-b:k=5,m=2"}},
		{[]string{"spec-b:m=0.5", "spec-a"}, []string{"spec-b:m=0.5", "spec-a"}},
	}
	for _, c := range cases {
		vs, err := ParseVariants(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, labels(vs), c.in)
	}
}

func TestParseVariantsErrors(t *testing.T) {
	cases := map[string]string{
		"nosuch":          `unknown strategy "nosuch"`,
		"spec-b:x=1":      `has no parameter "x"`,
		"spec-b:m=abc":    `parameter m="abc": want a number`,
		"spec-a:m=1":      `has no parameter "m"`,
		"m=1":             `comes before any strategy name`,
		"spec-b:m=1,m=2":  `given twice`,
		"spec-b:k=1,2,x!": `parameter k="x!": want an integer`,
	}
	for in, want := range cases {
		_, err := ParseVariants([]string{in})
		assert.ErrorContains(t, err, want, in)
	}
}

// TestParseVariantsAmbiguousName: a bare registered name after a key's
// values used to start a new spec even where the key takes it as a value
// (thr:queue=gq,fcfs ran gq and the strategy fcfs, silently, while
// thr:queue=fcfs,gq ran both policies). Where the strategy accepts it as a
// value the token is refused; where it does not, it starts a spec as
// before.
func TestParseVariantsAmbiguousName(t *testing.T) {
	guesses := map[string]string{ // "" where the token is no value of the key
		"thr:queue=gq,fcfs":                   `"fcfs" is both a strategy and a value thr's queue takes`,
		"provision:target=thr,fluidplan":      `"fluidplan" is both a strategy and a value provision's target takes`,
		"frontier:preset=cost,warm=on,off,ff": "", // warm=ff is no value of frontier: ff is a spec
	}
	for in, want := range guesses {
		vs, err := ParseVariants([]string{in})
		if want == "" {
			require.NoError(t, err, in)
			assert.Equal(t, "ff", vs[len(vs)-1].Label(), in)
			continue
		}
		assert.ErrorContains(t, err, want, in)
		assert.ErrorContains(t, err, "give each value its own spec", in)
	}
	cases := []struct {
		in   []string
		want []string
	}{
		{[]string{"frontier:preset=cost,ff"}, []string{"frontier:preset=cost", "ff"}},
		{[]string{"thr:queue=fcfs,gq"}, []string{"thr:queue=fcfs", "thr:queue=gq"}},
		{[]string{"thr:queue=gq", "thr:queue=fcfs"}, []string{"thr:queue=gq", "thr:queue=fcfs"}},
		{[]string{"fcfs,thr:queue=gq"}, []string{"fcfs", "thr:queue=gq"}},
		// A name in an -a of its own starts a spec: the way the refusal
		// tells to write the strategy beside the sweep.
		{[]string{"thr:queue=gq", "fcfs"}, []string{"thr:queue=gq", "fcfs"}},
		{[]string{"sgme:base=ff", "ff"}, []string{"sgme:base=ff", "ff"}},
		{[]string{"provision:target=costdp", "fluidplan,ff"}, []string{"provision:target=costdp", "fluidplan", "ff"}},
		{[]string{"spec-b:m=1,spec-a"}, []string{"spec-b:m=1", "spec-a"}},
	}
	for _, c := range cases {
		vs, err := ParseVariants(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, labels(vs), c.in)
	}
}

// TestParseVariantsLists: a bracketed value is one sweep value, whatever
// commas, colons and "=" it holds; lists are labelled in canonical form.
func TestParseVariantsLists(t *testing.T) {
	cases := []struct {
		in   []string
		want []string
	}{
		{[]string{"spec-c:members=[spec-a; spec-b:m=2,k=3]"}, []string{"spec-c:members=[spec-a; spec-b:k=3,m=2]"}},
		{[]string{"spec-c:members=[spec-a],[spec-b],spec-a"}, []string{"spec-c:members=[spec-a]", "spec-c:members=[spec-b]", "spec-a"}},
		{[]string{"spec-c:members=[spec-a;spec-b]", "spec-c:members=[ spec-a ; spec-b ]"}, []string{"spec-c:members=[spec-a; spec-b]"}},
		{[]string{"spec-c:members=[spec-a],[spec-b],k=1,2"}, []string{"spec-c:k=1,members=[spec-a]", "spec-c:k=2,members=[spec-a]",
			"spec-c:k=1,members=[spec-b]", "spec-c:k=2,members=[spec-b]"}},
		{[]string{"spec-a,spec-c:members=[spec-c:members=[spec-a; spec-b:m=1]; spec-a],spec-b:m=1,2"},
			[]string{"spec-a", "spec-c:members=[spec-c:members=[spec-a; spec-b:m=1]; spec-a]", "spec-b:m=1", "spec-b:m=2"}},
		{[]string{"spec-c:members=[]"}, []string{"spec-c:members=[]"}},
	}
	for _, c := range cases {
		vs, err := ParseVariants(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, labels(vs), c.in)
	}
	vs, err := ParseVariants([]string{"spec-c:members=[spec-a; spec-b:m=2]"})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"members": "[spec-a; spec-b:m=2]"}, vs[0].Settings)
	_, err = vs[0].New()
	require.NoError(t, err)
}

// TestParseVariantsListErrors: bad lists are reported with the column of
// the problem in the text quoted.
func TestParseVariantsListErrors(t *testing.T) {
	cases := map[string][]string{
		"spec-c:members=[spec-a; nosuch]":  {`"[spec-a; nosuch]", column 10: element 2: unknown strategy "nosuch"`},
		"spec-c:members=[spec-a":           {`"spec-c:members=[spec-a", column 16: "[" is not closed`},
		"spec-a,spec-c:members=[spec-a":    {`"spec-a,spec-c:members=[spec-a", column 23: "[" is not closed`},
		"spec-c:members=spec-a]":           {`column 22: "]" without "["`},
		"spec-c:members=[spec-a;;spec-b]":  {`parameter members: "[spec-a;;spec-b]", column 9: empty list element`},
		"spec-c:members=[spec-b:m=abc]":    {`column 2: element 1: strategy spec-b: parameter m="abc": want a number`},
		"spec-c:members=[spec-b:m=1,2]":    {`"[spec-b:m=1,2]", column 13: want key=value`},
		"spec-c:members=[spec-a],[nosuch]": {`"[nosuch]", column 2: element 1: unknown strategy "nosuch"`},
		"spec-c:members=[spec-a]x":         {`column 9: text after the list's closing "]"`},
	}
	for in, wants := range cases {
		_, err := ParseVariants([]string{in})
		for _, w := range wants {
			assert.ErrorContains(t, err, w, in)
		}
	}
}

func TestVariantNewUsesSettings(t *testing.T) {
	vs, err := ParseVariants([]string{"spec-b:m=2"})
	require.NoError(t, err)
	s, err := vs[0].New()
	require.NoError(t, err)
	assert.IsType(t, strattest.FirstCapable{}, s)
}
