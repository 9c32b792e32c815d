package sources

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSources(t *testing.T) {
	suite, err := Resolve(nil)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(suite), 8, "the embedded suite")
	for _, s := range suite {
		cfg, err := s.Load()
		require.NoError(t, err, s.Name)
		require.NotEmpty(t, cfg.Jobs, s.Name)
	}

	dir := t.TempDir()
	write := func(name, body string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	write("a.xml", `<?xml version="1.0"?><!-- c --><config randomSeed="1"/>`)
	write("jobs.xml", `<jobs><job id="0"/></jobs>`)
	write("ds-system.xml", `<system/>`)
	write("fx/config.xml", `<config/>`)
	write("notes.txt", "x")
	srcs, err := Resolve([]string{dir})
	require.NoError(t, err)
	var names []string
	for _, s := range srcs {
		names = append(names, s.Name)
	}
	assert.Equal(t, []string{"a", "fx"}, names, "config files and fixture folders; job lists and ds-system.xml skipped")

	_, err = Resolve([]string{filepath.Join(dir, "nope.xml")})
	assert.ErrorContains(t, err, "nope.xml")
	_, err = Resolve([]string{filepath.Join(dir, "a.xml"), dir})
	assert.ErrorContains(t, err, `both named "a"`)
	empty := t.TempDir()
	_, err = Resolve([]string{empty})
	assert.ErrorContains(t, err, "no config file")
}
