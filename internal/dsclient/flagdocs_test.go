package dsclient_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/dsclient"
)

// flagNames lists every dsclient flag as "--name" (with "-x" when it has
// a shorthand).
func flagNames() [][2]string {
	var out [][2]string
	dsclient.FlagSet().VisitAll(func(f *pflag.Flag) {
		short := ""
		if f.Shorthand != "" {
			short = "-" + f.Shorthand
		}
		out = append(out, [2]string{"--" + f.Name, short})
	})
	return out
}

// mentions reports whether text names the flag by either of its spellings
// as a whole word: "-a" in "[-a NAME" or "`-a`", not in "-all".
func mentions(text string, flag [2]string) bool {
	for _, spelling := range flag {
		word := regexp.MustCompile("(^|[\\s\\[(`])" + regexp.QuoteMeta(spelling) + "($|[\\s\\]=),`])")
		if spelling != "" && word.MatchString(text) {
			return true
		}
	}
	return false
}

// The usage line (the synopsis before the first blank line of -h) names
// every flag pflag defines: --spin, --metrics and --list were missing.
func TestUsageLineNamesEveryFlag(t *testing.T) {
	r := runMain("-h")
	require.Equal(t, dsclient.ExitOK, r.code)
	synopsis, _, _ := strings.Cut(r.stdout, "\n\n")
	for _, f := range flagNames() {
		assert.True(t, mentions(synopsis, f), "the usage line does not name %s:\n%s", f[0], synopsis)
	}
}

// The flag table of dsclient's page (docs/dsclient.md) has a row for every
// flag.
func TestDocsFlagTableNamesEveryFlag(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "dsclient.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(data), "\n## Flags\n")
	require.True(t, ok, "docs/dsclient.md's Flags section")
	section, _, _ = strings.Cut(section, "\n## ")
	var firstCells []string
	for _, line := range strings.Split(section, "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 2 && strings.HasPrefix(line, "| `-") {
			firstCells = append(firstCells, cells[1])
		}
	}
	require.NotEmpty(t, firstCells, "docs/dsclient.md's flag table")
	table := strings.Join(firstCells, "\n")
	for _, f := range flagNames() {
		assert.True(t, mentions(table, f), "docs/dsclient.md's flag table has no row for %s", f[0])
	}
}
