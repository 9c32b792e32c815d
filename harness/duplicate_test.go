package harness

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// TestDuplicateColumnsRun: dsbench runs a merged column once, shows it
// once, says the merge on stderr before the runs, and lets -b name it by
// any of its writings.
func TestDuplicateColumnsRun(t *testing.T) {
	config := filepath.Join("..", "configs", "light-short-small.xml")
	cases := []struct {
		args      []string
		columns   []string
		baselines []string
		stderr    string // the notes, before the runs' line
	}{
		{[]string{"-a", "ff,ff"}, []string{"ff"}, []string{"ff"}, "dsbench: -a ff is given twice: one column\n"},
		{[]string{"-a", "frontier:weight=10,10.0"}, []string{"frontier:weight=10"}, nil,
			"dsbench: -a frontier:weight=10.0 is frontier:weight=10 (the same strategy with the same parameter values, defaults filled in): one column\n"},
		{[]string{"-a", "cost-reduce", "-a", "cost-reduce:multiplier=4"}, []string{"cost-reduce"}, nil,
			"dsbench: -a cost-reduce:multiplier=4 is cost-reduce (the same strategy with the same parameter values, defaults filled in): one column\n"},
		// -b names the column by another writing of it.
		{[]string{"-a", "frontier:weight=10.0,10", "-b", "frontier:weight=10"}, []string{"frontier:weight=10.0"}, []string{"frontier:weight=10.0"},
			"dsbench: -a frontier:weight=10 is frontier:weight=10.0 (the same strategy with the same parameter values, defaults filled in): one column\n"},
		{[]string{"-a", "cost-reduce:multiplier=4.0,ff", "-b", "cost-reduce"}, []string{"cost-reduce:multiplier=4.0", "ff"}, []string{"cost-reduce:multiplier=4.0"}, ""},
		{[]string{"-a", "cost-reduce,ff", "-b", "cost-reduce", "-b", "cost-reduce:multiplier=4"}, []string{"cost-reduce", "ff"}, []string{"cost-reduce"},
			"dsbench: -b cost-reduce:multiplier=4 is cost-reduce (the same strategy with the same parameter values, defaults filled in): one column\n"},
	}
	for _, c := range cases {
		code, out, stderr := runMain(append(c.args, "-f", "json", "--progress", "never", config)...)
		if !assert.Equal(t, ExitOK, code, "%v: %s", c.args, stderr) {
			continue
		}
		var report struct {
			Baselines []string `json:"baselines"`
			Runs      []struct {
				Strategy string `json:"strategy"`
			} `json:"runs"`
			Tables []struct {
				Columns []string `json:"columns"`
			} `json:"tables"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &report), c.args)
		var ran []string
		for _, r := range report.Runs {
			ran = append(ran, r.Strategy)
		}
		assert.Equal(t, c.columns, ran, "%v: the runs", c.args)
		assert.Equal(t, c.columns, report.Tables[0].Columns, "%v: the columns", c.args)
		assert.Equal(t, c.baselines, report.Baselines, c.args)
		notes, _, _ := strings.Cut(stderr, "dsbench: 1 config")
		assert.Equal(t, c.stderr, notes, c.args)
	}
}

// TestDuplicateBaselinesWithClient: with --client and no -a the -b
// strategies are the columns run beside the client, merged by the same
// rule, and the client's label stays a column of its own.
func TestDuplicateBaselinesWithClient(t *testing.T) {
	c := &cliConfig{client: "my-client {port}", label: "mine", baselines: []string{"cost-reduce,mine", "cost-reduce:multiplier=4", "mine"},
		objective: "tt", format: "table", timeout: time.Minute, progress: "never", clientDir: "."}
	bench, _, err := c.bench([]string{filepath.Join("..", "configs", "slow-boot.xml")})
	require.NoError(t, err)
	assert.Equal(t, []string{"cost-reduce", "mine"}, bench.Columns())
	assert.Equal(t, []string{"cost-reduce", "mine"}, c.baselines)
	require.Len(t, c.duplicates, 1)
	assert.Equal(t, Duplicate{Flag: "-b", Kept: "cost-reduce", Dropped: "cost-reduce:multiplier=4"}, c.duplicates[0])

	// A label that is a strategy's name is still refused, whatever -a
	// writes of that strategy.
	code, _, stderr := runMain("--client", "true", "--client-label", "cost-reduce", "-a", "cost-reduce:multiplier=4")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "--client-label cost-reduce: the name of a strategy")
}
