package dsbench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The walk's run: dsbench -f markdown with a column whose label holds '|'.
func TestMarkdownReportOfAPipeLabel(t *testing.T) {
	code, out, stderr := runMain("-f", "markdown", "-a", "ff,composite:members=[ff; bf],rules=cores>2->2|1", fixtureConfig(t, "config20-med-med"))
	require.Equal(t, ExitOK, code, stderr)
	assert.NotEmpty(t, checkMarkdownTables(t, out))
	assert.Contains(t, out, `| Config | ff | composite:members=[ff; bf],rules=cores>2->2\|1 |`)
}
