package dsmock

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDidYouMean: a misspelt flag value dsmock accepts from a list (a
// failure model, a memory failure model, a year) is refused with the
// nearest right one.
func TestDidYouMean(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", cfg, "-f", "teragird"}, "(nor is it a failure model: teragrid, nd07cpu, websites02, ldns04, pl05, g5k06); did you mean teragrid?"},
		{[]string{"--mem-fail", "hrd", "-c", cfg}, `dsmock: --mem-fail: memory failure model "hrd": want hard, machine or contention (or off); did you mean hard?`},
		{[]string{"--year", "2062", "-c", cfg}, `; did you mean 2026?`},
	} {
		var out, errb syncBuffer
		assert.Equal(t, 1, run(append([]string{"dsmock"}, tc.args...), &out, &errb, nil, false), tc.args)
		assert.Contains(t, errb.String(), tc.want, strings.Join(tc.args, " "))
	}
}
