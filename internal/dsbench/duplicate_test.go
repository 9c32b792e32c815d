package dsbench

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/columns"
)

// TestDuplicateColumnsRun: dsbench runs a merged column once, shows it
// once, says the merge on stderr before the runs, and lets -b name it by
// any of its writings.
func TestDuplicateColumnsRun(t *testing.T) {
	config := filepath.Join("..", "..", "configs", "light-short-small.xml")
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
	bench, _, err := c.bench([]string{filepath.Join("..", "..", "configs", "slow-boot.xml")})
	require.NoError(t, err)
	assert.Equal(t, []string{"cost-reduce", "mine"}, bench.Columns())
	assert.Equal(t, []string{"cost-reduce", "mine"}, c.baselines)
	require.Len(t, c.duplicates, 1)
	assert.Equal(t, columns.Duplicate{Flag: "-b", Kept: "cost-reduce", Dropped: "cost-reduce:multiplier=4"}, c.duplicates[0])

	// A label that is a strategy's name is still refused, whatever -a
	// writes of that strategy.
	code, _, stderr := runMain("--client", "true", "--client-label", "cost-reduce", "-a", "cost-reduce:multiplier=4")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "--client-label cost-reduce: the name of a strategy")
}
