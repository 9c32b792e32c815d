package dsclient_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// specMade records the parameters the test-spec strategy was last made
// with.
var specMade map[string]any

func init() {
	strategies.Register(strategies.Info{
		Name:    "test-spec",
		Summary: "test only: records its parameters",
		Params: []strategies.Param{{Name: "m", Kind: strategies.Float, Default: "4"}, {Name: "k", Kind: strategies.Int, Default: "1"},
			{Name: "s", Kind: strategies.String, Default: ""}, {Name: "members", Kind: strategies.List, Default: "[]"}},
		New: func(p strategies.Params) (strategies.Strategy, error) {
			specMade = map[string]any{"m": p.Float("m"), "k": p.Int("k"), "s": p.String("s"), "members": p.List("members")}
			return strattest.FirstCapable{}, nil
		},
	})
}

// TestAlgoSpec: -a takes dsbench's "name:k=v,k2=v2" for one strategy, the
// same as --param k=v --param k2=v2, and the two mix; the strategy is made
// with those values (then the connection fails: no server).
func TestAlgoSpec(t *testing.T) {
	closed := closedPort(t)
	ffCR := []strategies.Spec{{Name: "ff"}, {Name: "cost-reduce", Settings: map[string]string{"multiplier": "2"}}}
	for _, tc := range []struct {
		args []string
		want map[string]any
	}{
		{[]string{"-a", "test-spec"}, map[string]any{"m": 4.0, "k": 1, "s": "", "members": []strategies.Spec{}}},
		{[]string{"-a", "test-spec:m=2"}, map[string]any{"m": 2.0, "k": 1, "s": "", "members": []strategies.Spec{}}},
		{[]string{"-a", "test-spec:m=2,"}, map[string]any{"m": 2.0, "k": 1, "s": "", "members": []strategies.Spec{}}}, // a trailing comma, as dsbench
		{[]string{"-a", "test-spec: m = 2 , k=3"}, map[string]any{"m": 2.0, "k": 3, "s": "", "members": []strategies.Spec{}}},
		{[]string{"-a", "test-spec", "--param", "m=2", "--param", "k=3"}, map[string]any{"m": 2.0, "k": 3, "s": "", "members": []strategies.Spec{}}},
		{[]string{"-a", "test-spec:m=2", "--param", "k=3"}, map[string]any{"m": 2.0, "k": 3, "s": "", "members": []strategies.Spec{}}},
		{[]string{"-a", "test-spec:members=[ff; cost-reduce:multiplier=2],s=a=b"}, map[string]any{"m": 4.0, "k": 1, "s": "a=b", "members": ffCR}},
		{[]string{"-a", "test-spec:k=2", "--param", "members=[ff; cost-reduce:multiplier=2]"}, map[string]any{"m": 4.0, "k": 2, "s": "", "members": ffCR}},
		// --algorithm, and dsbench's --algo, are -a.
		{[]string{"--algorithm", "test-spec:m=3"}, map[string]any{"m": 3.0, "k": 1, "s": "", "members": []strategies.Spec{}}},
		{[]string{"--algo", "test-spec:m=2"}, map[string]any{"m": 2.0, "k": 1, "s": "", "members": []strategies.Spec{}}},
		{[]string{"--algo=test-spec:k=5"}, map[string]any{"m": 4.0, "k": 5, "s": "", "members": []strategies.Spec{}}},
		// A list needs no blanks (README: for harnesses that split on spaces).
		{[]string{"-a", "test-spec:members=[ff;cost-reduce:multiplier=2],k=2"}, map[string]any{"m": 4.0, "k": 2, "s": "", "members": ffCR}},
		// Blanks around a key or a value are dropped alike in -a and --param
		// (strategies.CutSetting): a string value is not a number that
		// Bind would trim.
		{[]string{"-a", "test-spec: s = a b "}, map[string]any{"m": 4.0, "k": 1, "s": "a b", "members": []strategies.Spec{}}},
		{[]string{"-a", "test-spec", "--param", " s = a b ", "--param", "k= 3"}, map[string]any{"m": 4.0, "k": 3, "s": "a b", "members": []strategies.Spec{}}},
	} {
		specMade = nil
		r := runMain(append(tc.args, "-p", closed, "--connect-timeout", "0")...)
		assert.Equal(t, dsclient.ExitConnect, r.code, "%q: %s", tc.args, r.stderr)
		assert.Equal(t, tc.want, specMade, "%q", tc.args)
	}
	h := runMain("-h")
	assert.Contains(t, h.stdout, "Usage: dsclient [-a NAME[:KEY=VALUE,...]]")
	assert.Contains(t, h.stdout, "scheduling strategy NAME, or NAME:KEY=VALUE,... as in dsbench -a but one value per key")
}

// TestAlgoSpecRefused: what -a cannot mean for one run is refused before
// connecting, by name: a sweep, several strategies, a key given both in -a
// and with --param, a malformed spec, each as dsbench's -a reads it (one
// tokeniser, strategies.ParseSweeps). An unknown
// parameter in a spec is reported as one, not as an unknown strategy
// "name:k=v".
func TestAlgoSpecRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-a", "test-spec:m=1,2"}, `dsclient: -a "test-spec:m=1,2": m has several values (1, 2), a sweep: dsclient runs one strategy with one value per parameter (sweeps are for dsbench -a)`},
		{[]string{"-a", "test-spec:k=1,m=1,2,4"}, `dsclient: -a "test-spec:k=1,m=1,2,4": m has several values (1, 2, 4), a sweep:`},
		{[]string{"-a", "test-spec:members=[ff],[bf; wf]"}, `dsclient: -a "test-spec:members=[ff],[bf; wf]": members has several values ([ff], [bf; wf]), a sweep:`},
		{[]string{"-a", "test-spec:m=2,ff"}, `dsclient: -a "test-spec:m=2,ff": dsclient runs one strategy, here test-spec and ff (a list of strategies is for dsbench -a)`},
		{[]string{"-a", "ff,bf"}, `dsclient: -a "ff,bf": dsclient runs one strategy, here ff and bf (a list of strategies is for dsbench -a)`},
		// A second spec with parameters, as dsbench reads it.
		{[]string{"-a", "test-spec:m=2,cost-reduce:multiplier=2"}, `dsclient: -a "test-spec:m=2,cost-reduce:multiplier=2": dsclient runs one strategy, here test-spec and cost-reduce (a list of strategies is for dsbench -a)`},
		{[]string{"-a", "test-spec:m=2", "--param", "m=3"}, `dsclient: parameter m given twice, in -a "test-spec:m=2" and as --param m=3: give it once`},
		{[]string{"-a", "test-spec:m=2,m=3"}, `dsclient: -a "test-spec:m=2,m=3": parameter m given twice for test-spec`},
		{[]string{"-a", "test-spec", "--param", "m=2", "--param", "m=3"}, `dsclient: --param: parameter m given twice (m=2, then m=3): give it once`},
		{[]string{"-a", "test-spec", "--param", "s=a", "--param", " s =b"}, `dsclient: --param: parameter s given twice (s=a, then s=b): give it once`},
		{[]string{"-a", "test-spec:"}, `dsclient: -a "test-spec:": empty parameter name in ""`},
		{[]string{"-a", "test-spec:m"}, `dsclient: strategy test-spec: parameter m="": want a number`},
		{[]string{"-a", ":m=2"}, `dsclient: -a ":m=2": no strategy name before ':' in ":m=2"`},
		{[]string{"-a", "test-spec:m=2;"}, `dsclient: strategy test-spec: parameter m="2;": want a number`},
		{[]string{"-a", "test-spec:members=[ff; bf"}, `dsclient: -a: "test-spec:members=[ff; bf", column 19: "[" is not closed`},
		{[]string{"-a", "test-spec:members=[ff; nosuch]"}, `dsclient: strategy test-spec: parameter members: "[ff; nosuch]", column 6: element 2: unknown strategy "nosuch"`},
		{[]string{"-a", "test-spec:foo=1"}, `dsclient: strategy test-spec has no parameter "foo" (it takes: m, k, s, members)`},
		{[]string{"-a", "test-spec:m=x"}, `dsclient: strategy test-spec: parameter m="x": want a number`},
		{[]string{"-a", "cost-redcue:multiplier=2"}, `dsclient: unknown strategy "cost-redcue": did you mean cost-reduce? (known: atl, `},
		{[]string{"-a", "test-spec", "--param", "novalue"}, `dsclient: --param: parameter "novalue": want key=value`},
	} {
		r := runMain(append(tc.args, "-p", "1")...) // refused before any connection
		assert.Equal(t, dsclient.ExitUsage, r.code, "%q", tc.args)
		assert.Contains(t, r.stderr, tc.want, "%q", tc.args)
	}
}

// FuzzStrategySpec: -a and --param never panic; what is accepted makes a
// strategy or an error, never a panic in a constructor, and gives every
// --param key its --param value.
func FuzzStrategySpec(f *testing.F) {
	for _, s := range []string{"ff", "cost-reduce:multiplier=2", "frontier:preset=cost,weight=3", "ff,bf",
		"cost-reduce:multiplier=1,2", "composite:members=[ff; cost-reduce:multiplier=2]", "x:", ":", "a:b=[", "cost-reduce:multiplier=2,ff"} {
		f.Add(s, "")
		f.Add(s, "multiplier=3")
	}
	f.Fuzz(func(t *testing.T, algo, param string) {
		var params []string
		if param != "" {
			params = []string{param}
		}
		name, settings, err := dsclient.StrategySpec(algo, params)
		if err != nil {
			return
		}
		if name == "" && algo != "" && !strings.ContainsAny(algo, ":") {
			t.Fatalf("-a %q gave an empty name", algo)
		}
		// Any registered strategy made from what was accepted either is
		// made or refuses its settings; it never panics.
		if _, err := strategies.New(name, settings); err != nil && strings.Contains(err.Error(), "panic: ") {
			t.Fatalf("-a %q --param %q: %v", algo, param, err)
		}
		if k, v, ok := strings.Cut(param, "="); ok && settings != nil {
			if got, has := settings[strings.TrimSpace(k)]; has && got != strings.TrimSpace(v) && got != v {
				t.Fatalf("--param %q: settings hold %q", param, got)
			}
		}
	})
}
