package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two types: 2 cores at $0.40/h (0.20 a core) and 8 cores at $0.80/h
// (0.10 a core, the cheapest per core). A 1-core job of 100 s alone on
// the 2-core type costs 0.40 × 100; the bound prices its core-seconds at
// 0.10: 0.10 × 1 × 100. A 4-core job of 50 s must go to the 8-core type:
// alone 0.80 × 50, bound 0.10 × 4 × 50. Floor (40 + 40) / (10 + 20).
const config = `<config randomSeed="1">
<servers>
<server type="two" limit="1" bootupTime="60" hourlyRate="0.4" cores="2" memory="4000" disk="16000" />
<server type="eight" limit="1" bootupTime="60" hourlyRate="0.8" cores="8" memory="16000" disk="64000" />
</servers>
<jobs file="jobs.xml" />
</config>
`

const jobs = `<jobs>
<job id="0" type="a" submitTime="0" estRunTime="100" actRunTime="100" cores="1" memory="100" disk="100" />
<job id="1" type="a" submitTime="5" estRunTime="50" actRunTime="50" cores="4" memory="100" disk="100" />
</jobs>
`

func TestFloor(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.xml"), []byte(config), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobs.xml"), []byte(jobs), 0o644))
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{filepath.Join(dir, "c.xml")}, &out, &errs), errs.String())
	assert.Equal(t, "config,jobs,alone_floor\nc,2,2.6667\n", out.String())

	out.Reset()
	assert.Equal(t, 1, run([]string{filepath.Join(dir, "missing.xml")}, &out, &errs))
	assert.Contains(t, errs.String(), "missing.xml")
	assert.Equal(t, 2, run(nil, &out, &errs))
}
