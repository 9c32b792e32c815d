package columns

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

// TestParseColumnsMergesDuplicates: variants that name the same strategy
// with the same parameters once bound (canonical values, defaults filled
// in) are one column, under the first writing, and each merge is said.
// spec-b's defaults are m=4, k=1.
func TestParseColumnsMergesDuplicates(t *testing.T) {
	cases := []struct {
		in   []string
		want []string // column labels
		dups []string // Duplicate.String of each merge
	}{
		{[]string{"spec-a,spec-a"}, []string{"spec-a"}, []string{"-a spec-a is given twice: one column"}},
		{[]string{"spec-b:m=2,2.0"}, []string{"spec-b:m=2"},
			[]string{"-a spec-b:m=2.0 is spec-b:m=2 (the same strategy with the same parameter values, defaults filled in): one column"}},
		{[]string{"spec-b:m=2e0", "spec-b:m=2"}, []string{"spec-b:m=2e0"},
			[]string{"-a spec-b:m=2 is spec-b:m=2e0 (the same strategy with the same parameter values, defaults filled in): one column"}},
		{[]string{"spec-b", "spec-b:m=4"}, []string{"spec-b"},
			[]string{"-a spec-b:m=4 is spec-b (the same strategy with the same parameter values, defaults filled in): one column"}},
		{[]string{"spec-b:k=01,m=4.0,spec-a,spec-b"}, []string{"spec-b:k=01,m=4.0", "spec-a"},
			[]string{"-a spec-b is spec-b:k=01,m=4.0 (the same strategy with the same parameter values, defaults filled in): one column"}},
		// A sweep that meets the default: the rest of the sweep stays.
		{[]string{"spec-b", "spec-b:m=1,2,4,8"}, []string{"spec-b", "spec-b:m=1", "spec-b:m=2", "spec-b:m=8"},
			[]string{"-a spec-b:m=4 is spec-b (the same strategy with the same parameter values, defaults filled in): one column"}},
		{[]string{"spec-b:m=1,2,k=1,2", "spec-b:m=2"}, []string{"spec-b:k=1,m=1", "spec-b:k=2,m=1", "spec-b:k=1,m=2", "spec-b:k=2,m=2"},
			[]string{"-a spec-b:m=2 is spec-b:k=1,m=2 (the same strategy with the same parameter values, defaults filled in): one column"}},
		// List elements are strategies: compared by the same rule.
		{[]string{"spec-c:members=[spec-b:m=4.0; spec-a]", "spec-c:members=[spec-b; spec-a]"}, []string{"spec-c:members=[spec-b:m=4.0; spec-a]"},
			[]string{"-a spec-c:members=[spec-b; spec-a] is spec-c:members=[spec-b:m=4.0; spec-a] (the same strategy with the same parameter values, defaults filled in): one column"}},
		{[]string{"spec-c,spec-c:members=[]"}, []string{"spec-c"},
			[]string{"-a spec-c:members=[] is spec-c (the same strategy with the same parameter values, defaults filled in): one column"}},
		// The brief's own: real strategies' defaults.
		{[]string{"frontier:weight=10,10.0"}, []string{"frontier:weight=10"},
			[]string{"-a frontier:weight=10.0 is frontier:weight=10 (the same strategy with the same parameter values, defaults filled in): one column"}},
		{[]string{"frontier,frontier:preset=balanced"}, []string{"frontier"},
			[]string{"-a frontier:preset=balanced is frontier (the same strategy with the same parameter values, defaults filled in): one column"}},
		{[]string{"cost-reduce,cost-reduce:multiplier=4"}, []string{"cost-reduce"},
			[]string{"-a cost-reduce:multiplier=4 is cost-reduce (the same strategy with the same parameter values, defaults filled in): one column"}},
	}
	for _, c := range cases {
		vs, dups, err := ParseColumns(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, labels(vs), c.in)
		var said []string
		for _, d := range dups {
			said = append(said, d.String())
		}
		assert.Equal(t, c.dups, said, c.in)
	}
}

// TestParseColumnsKeepsDistinct guards the rule against merging more than
// it says: other values, another strategy, a string as written, and no
// strategy's own meaning (frontier's balanced preset weighs 10, yet
// weight=10 is another parameter). These rows pass without the merge too.
func TestParseColumnsKeepsDistinct(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want int // columns
	}{
		{[]string{"spec-b:m=4,4.5"}, 2},
		{[]string{"spec-b:k=2", "spec-b"}, 2},
		{[]string{"spec-a,spec-c"}, 2},
		{[]string{"spec-c:members=[spec-a; spec-b]", "spec-c:members=[spec-b; spec-a]"}, 2},
		{[]string{"frontier:weight=10,frontier:preset=balanced"}, 2},
		{[]string{"frontier:weight=1,3,10", "frontier"}, 4},
		{[]string{"frontier:warm=on", "frontier:warm=preset,off"}, 3},
	} {
		vs, dups, err := ParseColumns(c.in)
		require.NoError(t, err, c.in)
		assert.Len(t, vs, c.want, c.in)
		assert.Empty(t, dups, c.in)
	}
}
