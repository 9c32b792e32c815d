package dsbench

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// An output flag naming one of the inputs (the same file, by any name) is
// refused before any run, naming the flag and both paths; the input is
// left as it was. They used to be overwritten by the report without a word.
func TestOutputThatIsAnInputIsRefused(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join(dir, "fx")
	copyFiles(t, fixtureConfig(t, "sample-config01"), fx, "config.xml", "jobs.xml")
	copyFiles(t, "../../configs", dir, "flaky-servers.xml", "flaky-servers.failures.txt")
	copyFiles(t, "../../mocksrv/swf/testdata", dir, "small.swf", "servers.xml")
	jobs, trace, servers := filepath.Join(fx, "jobs.xml"), filepath.Join(dir, "small.swf"), filepath.Join(dir, "servers.xml")
	failures := filepath.Join(dir, "flaky-servers.failures.txt")
	link := filepath.Join(dir, "link.xml")
	require.NoError(t, os.Link(jobs, link))
	// Inputs under names --plots and --keep-logs write.
	odd := filepath.Join(dir, "odd")
	copyFiles(t, fx, odd, "config.xml")
	copyFileAs(t, jobs, filepath.Join(odd, "tradeoff.svg"))
	copyFileAs(t, jobs, filepath.Join(odd, "x.server.log"))
	for _, name := range []string{"tradeoff.svg", "x.server.log"} {
		cfg := filepath.Join(odd, strings.TrimSuffix(name, filepath.Ext(name))+".xml")
		data, err := os.ReadFile(filepath.Join(fx, "config.xml"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(string(data), `file="jobs.xml"`, `file="`+name+`"`, 1)), 0o644))
	}
	require.NoError(t, os.Remove(filepath.Join(odd, "config.xml")))
	// An input named as the ds-system.xml a --client run writes into
	// --client-dir.
	sysDir := filepath.Join(dir, "sys")
	copyFiles(t, fx, sysDir, "config.xml")
	require.NoError(t, os.Rename(filepath.Join(sysDir, "config.xml"), filepath.Join(sysDir, "sys.xml")))
	copyFileAs(t, jobs, filepath.Join(sysDir, "ds-system.xml"))
	sysCfg := filepath.Join(sysDir, "sys.xml")
	data, err := os.ReadFile(sysCfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(sysCfg, []byte(strings.Replace(string(data), `file="jobs.xml"`, `file="ds-system.xml"`, 1)), 0o644))

	// A ds-system.xml in the client's folder that is the config under
	// another name: a hard link, a symbolic link (the check compared
	// names, and the write followed the link onto the config).
	hard, soft := filepath.Join(dir, "hard"), filepath.Join(dir, "soft")
	require.NoError(t, os.MkdirAll(hard, 0o755))
	require.NoError(t, os.MkdirAll(soft, 0o755))
	require.NoError(t, os.Link(filepath.Join(fx, "config.xml"), filepath.Join(hard, "ds-system.xml")))
	require.NoError(t, os.Symlink(filepath.Join(fx, "config.xml"), filepath.Join(soft, "ds-system.xml")))

	var pieces []string
	for i := 1; i <= 2; i++ {
		p := filepath.Join(dir, strconv.Itoa(i)+".json")
		code, _, stderr := runMain("-a", "ff", "--shard", strconv.Itoa(i)+"/2", "--out", p, fx)
		require.Equal(t, ExitOK, code, stderr)
		pieces = append(pieces, p)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"config", []string{"--out", filepath.Join(fx, "config.xml"), fx}, "--out " + filepath.Join(fx, "config.xml") + ": the same file as " + filepath.Join(fx, "config.xml") + " (config fx)"},
		{"job file", []string{"--out", jobs, fx}, "--out " + jobs + ": the same file as " + jobs + " (the job file of config fx)"},
		{"job file by a link", []string{"--waits", link, fx}, "--waits " + link + ": the same file as " + jobs + " (the job file of config fx)"},
		{"failure trace", []string{"--html", failures, filepath.Join(dir, "flaky-servers.xml")}, "--html " + failures + ": the same file as " + failures + " (the failure trace of config flaky-servers)"},
		{"SWF trace", []string{"--html", trace, trace}, "--html " + trace + ": the same file as " + trace + " (the SWF trace of config small)"},
		{"servers= file", []string{"--out", servers, trace + ":servers=" + servers}, "--out " + servers + ": the same file as " + servers + " (the servers= file of config small:servers="},
		{"plot name", []string{"--plots", odd, odd}, "--plots " + odd + ": would write " + filepath.Join(odd, "tradeoff.svg") + ", the same file as " + filepath.Join(odd, "tradeoff.svg") + " (the job file of config tradeoff)"},
		{"log name", []string{"--keep-logs", odd, odd}, "--keep-logs " + odd + ": would write " + filepath.Join(odd, "x.server.log") + ", the same file as " + filepath.Join(odd, "x.server.log") + " (the job file of config x.server)"},
		{"client folder", []string{"--client", "true", "--client-dir", sysDir, sysCfg}, "--client-dir " + sysDir + ": would write " + filepath.Join(sysDir, "ds-system.xml") + ", the same file as " + filepath.Join(sysDir, "ds-system.xml") + " (the job file of config sys)"},
		{"client folder, hard link", []string{"--client", "true", "--client-dir", hard, fx}, "--client-dir " + hard + ": would write " + filepath.Join(hard, "ds-system.xml") + ", the same file as " + filepath.Join(fx, "config.xml") + " (config fx) under another name (a hard link)"},
		{"client folder, symbolic link", []string{"--client", "true", "--client-dir", soft, fx}, "--client-dir " + soft + ": would write " + filepath.Join(soft, "ds-system.xml") + ", the same file as " + filepath.Join(fx, "config.xml") + " (config fx) through a symbolic link"},
		{"merge piece", append([]string{"merge", "--out", pieces[0]}, pieces...), "dsbench merge: --out " + pieces[0] + ": the same file as " + pieces[0] + " (a piece to merge)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, dir)
			args := tc.args
			if args[0] != "merge" {
				args = append([]string{"-a", "ff", "--progress", "never"}, args...)
			}
			code, out, stderr := runMain(args...)
			assert.Equal(t, ExitUsage, code)
			assert.Empty(t, out, "no run was made")
			assert.Contains(t, stderr, tc.want)
			assert.Contains(t, stderr, "would overwrite an input")
			assert.Equal(t, before, snapshot(t, dir), "no input changed")
		})
	}

	// The same folders, with nothing of the inputs under the names written.
	code, _, stderr := runMain("-a", "ff", "--plots", fx, "--keep-logs", fx, "-f", "csv", fx)
	assert.Equal(t, ExitOK, code, stderr)
}

func copyFiles(t *testing.T, from, to string, names ...string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(to, 0o755))
	for _, n := range names {
		copyFileAs(t, filepath.Join(from, n), filepath.Join(to, n))
	}
}

func copyFileAs(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, data, 0o644))
}

// snapshot is every file under dir with its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	}))
	return out
}

// Without -f, --out's extension chooses the format (.csv, .json, .md), in
// dsbench and in merge; a -f that contradicts it is kept, with a warning.
// "--out r.csv" used to write the text table, and "merge --out m.json"
// text that a later "merge pieces/*.json" could not read.
func TestOutExtensionChoosesTheFormat(t *testing.T) {
	dir := t.TempDir()
	run := []string{"-a", "ff", "--replay000", "seeds=0,limit=3"}
	pieces := writeShards(t, 2, run...)
	for _, tc := range []struct {
		args        []string
		out         string
		head, warns string
	}{
		{nil, "r.csv", "config,strategy,", ""},
		{nil, "r.JSON", "{\n", ""},
		{nil, "r.md", "dsbench: ", ""},
		{nil, "r.txt", "dsbench: ", ""},
		{[]string{"-f", "table"}, "r.txt", "dsbench: ", ""},
		{[]string{"-f", "json"}, "r.csv", "{\n", "dsbench: warning: --out R is written as -f json, not the csv its name says\n"},
		{[]string{"-f", "csv"}, "r.csv", "config,strategy,", ""},
		{[]string{"-f", ""}, "r.csv", "config,strategy,", ""},
		{[]string{"merge", "-f", ""}, "m.json", "{\n", ""},
		{[]string{"merge"}, "m.json", "{\n", ""},
		{[]string{"merge", "-f", "md"}, "m.csv", "dsbench: ", "dsbench merge: warning: --out R is written as -f markdown, not the csv its name says\n"},
	} {
		out := filepath.Join(dir, tc.out)
		args := append(append(slices.Clone(tc.args), "--out", out), run...)
		if len(tc.args) > 0 && tc.args[0] == "merge" {
			args = append(append(slices.Clone(tc.args), "--out", out), pieces...)
		}
		code, _, stderr := runMain(args...)
		require.Equal(t, ExitOK, code, stderr)
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(data), tc.head), "%v %s: %.40q", tc.args, tc.out, data)
		// The text table and markdown begin alike: tell them apart by a
		// table's first row.
		md := strings.HasSuffix(tc.out, ".md") || slices.Contains(tc.args, "md")
		if tc.head == "dsbench: " {
			assert.Equal(t, md, strings.Contains(string(data), "\n| Config |"), "%v %s: markdown?", tc.args, tc.out)
			table := slices.Contains(tc.args, "table")
			assert.Equal(t, table, strings.Contains(string(data), "\nConfig "), "%v %s: text table?", tc.args, tc.out)
			// Without -f, a .txt is the summary.
			assert.Equal(t, !md && !table, strings.Contains(string(data), "\nRanked by "), "%v %s: summary?", tc.args, tc.out)
		}
		assert.Equal(t, strings.ReplaceAll(tc.warns, "R", out), stderr, "%v %s", tc.args, tc.out)
		require.NoError(t, os.Remove(out))
	}

	// A shard's piece is JSON whatever --out's name: no warning.
	code, _, stderr := runMain(append([]string{"--shard", "1/2", "--out", filepath.Join(dir, "p.csv")}, run...)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.Empty(t, stderr)
}
