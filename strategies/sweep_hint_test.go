package strategies_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

// A misspelt strategy in a -a list gets the same did-you-mean as alone,
// also where it follows a parameter and would read as one of its values;
// a value the parameter takes is not second-guessed.
func TestParseSweepsDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		spec, err string
	}{
		{"ff,frontir", `-a "ff,frontir": "frontir" is neither a strategy nor a parameter value; did you mean frontier?`},
		{"ff,zzzzzz", `-a "ff,zzzzzz": "zzzzzz" is neither a strategy nor a parameter value`},
		{"cost-reduce:multiplier=2,frontir", `-a "cost-reduce:multiplier=2,frontir": "frontir" is neither a value of multiplier nor a strategy; did you mean frontier?`},
		{"cost-reduce:multiplier=2,4", ""},
		{"frontier:preset=cost,balanced", ""},
	} {
		specs, err := strategies.ParseSweeps("-a", []string{tc.spec})
		if tc.err == "" {
			require.NoError(t, err, tc.spec)
			assert.Len(t, specs, 1, tc.spec)
			continue
		}
		require.Error(t, err, tc.spec)
		assert.Equal(t, tc.err, err.Error())
	}
}
