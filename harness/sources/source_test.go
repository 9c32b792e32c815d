package sources

import (
	"os"
	"path/filepath"
	"strings"
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
	assert.EqualError(t, err, "config "+filepath.Join(dir, "nope.xml")+": no such file or folder", "the path once, nothing near")
	_, err = Resolve([]string{filepath.Join(dir, "a.xml"), dir})
	assert.ErrorContains(t, err, `both named "a"`)
	empty := t.TempDir()
	_, err = Resolve([]string{empty})
	assert.ErrorContains(t, err, "no config file")
}

// A missing input names its path once and, when its folder holds a name a
// slip away, that name with the folder as typed.
func TestMissingInput(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config20-short-med.xml"), []byte(`<config/>`), 0o644))
	for _, tc := range []struct{ arg, want string }{
		{filepath.Join(dir, "config20-short-med.xm"), ": no such file or folder; did you mean " + filepath.Join(dir, "config20-short-med.xml") + "?"},
		{filepath.Join(dir, "config20-shrot-med.xml"), "; did you mean " + filepath.Join(dir, "config20-short-med.xml") + "?"},
		{filepath.Join(dir, "config100-long-high.xml"), ": no such file or folder"},
		{filepath.Join(dir, "gone", "config20-short-med.xml"), ": no such file or folder"},
	} {
		_, err := Resolve([]string{tc.arg})
		require.Error(t, err, tc.arg)
		assert.True(t, strings.HasSuffix(err.Error(), tc.want), "%s: %v", tc.arg, err)
		assert.True(t, strings.HasPrefix(err.Error(), "config "+tc.arg+": no such file or folder"), "the path once: %v", err)
		assert.NotContains(t, err.Error(), "stat ", "os.Stat's own error repeats the path")
	}
}
