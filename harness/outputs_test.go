package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file flag's missing folder is made before the run (a shard's
// pieces/1.json on a fresh machine), and a path that cannot be written is
// refused before any run, naming the flag, where it used to fail after
// the runs with their results lost.
func TestOutputsCheckedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	run := []string{"-a", "ff", "--replay000", "seeds=0,limit=3"}

	piece := filepath.Join(dir, "pieces", "1.json")
	code, _, stderr := runMain(append([]string{"--shard", "1/2", "--out", piece}, run...)...)
	require.Equal(t, ExitOK, code, stderr)
	data, err := os.ReadFile(piece)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"shard"`)

	code, _, stderr = runMain(append([]string{"--html", filepath.Join(dir, "view", "run.html"),
		"--plots", filepath.Join(dir, "plots"), "-f", "csv"}, run...)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.FileExists(t, filepath.Join(dir, "view", "run.html"))
	assert.DirExists(t, filepath.Join(dir, "plots"))

	file := filepath.Join(dir, "a-file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, tc := range []struct{ flag, path, want string }{
		{"--out", filepath.Join(file, "1.json"), "dsbench: --out " + filepath.Join(file, "1.json") + ": mkdir " + file + ": not a directory"},
		{"--out", dir, "dsbench: --out " + dir + ": is a folder, not a file"},
		{"--html", filepath.Join(file, "x.html"), "dsbench: --html " + filepath.Join(file, "x.html") + ": mkdir " + file},
		{"--waits", filepath.Join(file, "w.txt"), "dsbench: --waits " + filepath.Join(file, "w.txt") + ": mkdir " + file},
		{"--plots", filepath.Join(file, "p"), "dsbench: --plots: mkdir " + file},
	} {
		code, out, stderr := runMain(append([]string{tc.flag, tc.path}, run...)...)
		assert.Equal(t, ExitUsage, code, tc.flag)
		assert.Empty(t, out, "no run was made")
		assert.Contains(t, stderr, tc.want, tc.flag)
	}

	code, _, stderr = runMain("merge", "--out", filepath.Join(file, "m.csv"), piece)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "dsbench merge: --out "+filepath.Join(file, "m.csv")+": mkdir "+file)
}
