package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWritesTheSpecsConfigs(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"seed=3,tiny*2,estimate:jobs=30", dir}, &out, &errs), errs.String())
	assert.Equal(t, "tiny-001.xml\ntiny-002.xml\nestimate-001.xml\n", out.String())
	for _, p := range []string{"tiny-001.xml", "tiny-002.xml", "estimate-001.xml", "jobs/estimate-001.xml"} {
		_, err := os.Stat(filepath.Join(dir, p))
		assert.NoError(t, err, p)
	}
}

func TestRefusesBeforeWriting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"tiny:jobs=0", dir}, &out, &errs))
	assert.Contains(t, errs.String(), "jobs=0: want")
	_, err := os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "nothing written")
	assert.Equal(t, 2, run([]string{"tiny"}, &out, &errs))
	assert.Contains(t, errs.String(), "usage: writecorpus SPEC FOLDER")
}
