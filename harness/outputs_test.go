package harness

import (
	"os"
	"path/filepath"
	"strconv"
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
		{"--plots", filepath.Join(file, "p"), "dsbench: --plots " + filepath.Join(file, "p") + ": mkdir " + file},
		{"--html", filepath.Join(dir, "new") + "/", "dsbench: --html " + filepath.Join(dir, "new") + "/: names a folder, not a file"},
	} {
		code, out, stderr := runMain(append([]string{tc.flag, tc.path}, run...)...)
		assert.Equal(t, ExitUsage, code, tc.flag)
		assert.Empty(t, out, "no run was made")
		assert.Contains(t, stderr, tc.want, tc.flag)
	}

	assert.NoDirExists(t, filepath.Join(dir, "new"), "the refused path made no folder")

	// --plots into a folder that holds anything, a folder named x too.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "plots", "x"), 0o755))
	code, _, stderr = runMain(append([]string{"--plots", filepath.Join(dir, "plots"), "-f", "csv"}, run...)...)
	assert.Equal(t, ExitOK, code, stderr)

	// A run refused for another reason makes no folder.
	code, _, _ = runMain(append([]string{"--out", filepath.Join(dir, "never", "r.txt"), "--client", "no-such-client-binary {port}"}, run...)...)
	assert.Equal(t, ExitFailure, code)
	assert.NoDirExists(t, filepath.Join(dir, "never"))
	code, _, _ = runMain("merge", "--out", filepath.Join(dir, "never", "m.csv"), filepath.Join(dir, "no-such-piece.json"))
	assert.Equal(t, ExitUsage, code)
	assert.NoDirExists(t, filepath.Join(dir, "never"))

	// An existing file without write permission (root writes anyway).
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "read-only.csv")
		require.NoError(t, os.WriteFile(ro, []byte("keep"), 0o444))
		code, _, stderr = runMain(append([]string{"--out", ro}, run...)...)
		assert.Equal(t, ExitUsage, code)
		assert.Contains(t, stderr, "dsbench: --out "+ro+": open "+ro+": permission denied")
		data, err := os.ReadFile(ro)
		require.NoError(t, err)
		assert.Equal(t, "keep", string(data), "checked, not truncated")
	}

	piece2 := filepath.Join(dir, "pieces", "2.json")
	code, _, stderr = runMain(append([]string{"--shard", "2/2", "--out", piece2}, run...)...)
	require.Equal(t, ExitOK, code, stderr)
	code, _, stderr = runMain("merge", "--out", filepath.Join(file, "m.csv"), piece, piece2)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "dsbench merge: --out "+filepath.Join(file, "m.csv")+": mkdir "+file)
}

// --out - is stdout, as for --waits: the report, a shard's piece and a merge
// print, and no file named "-" appears.
func TestOutDashIsStdout(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	run := []string{"-a", "ff", "--replay000", "seeds=0,limit=3", "--out", "-"}

	code, out, stderr := runMain(append([]string{"-f", "csv"}, run...)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, out, "config,strategy,")

	var pieces []string
	for i := 1; i <= 2; i++ {
		code, out, stderr = runMain(append([]string{"--shard", strconv.Itoa(i) + "/2"}, run...)...)
		require.Equal(t, ExitOK, code, stderr)
		assert.Contains(t, out, `"shard"`)
		pieces = append(pieces, filepath.Join(dir, strconv.Itoa(i)+".json"))
		require.NoError(t, os.WriteFile(pieces[i-1], []byte(out), 0o644))
	}
	code, out, stderr = runMain(append([]string{"merge", "-f", "csv", "--out", "-"}, pieces...)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, out, "config,strategy,")

	assert.NoFileExists(t, filepath.Join(dir, "-"))
}
