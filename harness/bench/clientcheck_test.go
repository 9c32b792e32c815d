package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A client command naming a file of the client's that is not in the
// client's folder is refused before any run, naming both; the client's
// other arguments (files it writes, ds-system.xml) are not looked at.
func TestCheckClientFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"client.py", "run.sh", "x.js", "client.jar", "dist/client.js"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), nil, 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "venv", "bin"), 0o755))
	py, err := exec.LookPath("python3")
	require.NoError(t, err)
	require.NoError(t, os.Symlink(py, filepath.Join(dir, "venv", "bin", "python")))
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	for cmd, want := range map[string]string{
		"python3 client.py -p {port}":                        "",
		"python3 " + abs + "/client.py":                      "",
		"java -cp bin:lib/x.jar MyClient":                    "",
		"java -jar Client.jar -p {port}":                     "no Client.jar in " + abs + ", the folder the client runs in (run dsbench there, or give it with --client-dir)",
		"python3 src/client.py":                              "no src/client.py in " + abs,
		"bash ./nope.sh {port}":                              "no ./nope.sh in " + abs,
		"java MyClient.class":                                "no MyClient.class in " + abs,
		"python3 " + abs + "/nope.py":                        abs + "/nope.py does not exist",
		"python3 -u --log=out/x.py client.py":                "",
		"python3 client.py --out ./results/run.txt":          "",
		"python3 client.py ./ds-system.xml -p {port}":        "",
		"python3 client.py --log ./run-{port}.log -p {port}": "",
		"python3 client.py --log run-{port}.py":              "",
		"python3 -u nope":                                    "",
		"python3 -u nope.py":                                 "no nope.py in " + abs,
		"bash -euo pipefail run.sh":                          "",
		"python3 -um pkg.client":                             "",
		"python3 -uc print(1)":                               "",
		"node --env-file .env dist/client.js":                "",
		"node --experimental-loader ts-node/esm x.js":        "",
		"node --inspect-port 9230 x.js":                      "",
		"bash --rcfile x run.sh":                             "",
		"java -jar client.jar --out results.jar":             "",
		"python3 -W ignore client.py":                        "",
		"python3 -m client.main -p {port}":                   "",
		"bash -c ./run.sh":                                   "",
		"./venv/bin/python client.py":                        "",
		"./venv/bin/python nope.py -p {port}":                "no nope.py in " + abs,
	} {
		err := Target{Client: cmd, ClientDir: dir}.CheckClient()
		if want == "" {
			assert.NoError(t, err, cmd)
			continue
		}
		if assert.Error(t, err, cmd) {
			assert.Contains(t, err.Error(), want, cmd)
			assert.Contains(t, err.Error(), "--client "+`"`+cmd+`"`, cmd)
		}
	}
}

// The files of a command are its interpreter's script, the jar of java
// -jar and any .py, .jar or .class argument, by the interpreter's options.
func TestClientFiles(t *testing.T) {
	for cmd, want := range map[string][]string{
		"python3.11 -u -X dev client.py a.txt":        {"client.py"},
		"python3 -Wignore client.py":                  {"client.py"},
		"python3 -mpkg x.py":                          {"x.py"},
		"python3 -c print(1)":                         nil,
		"node --require ./hook.js client.js 5":        {"client.js"},
		"node -e 1":                                   nil,
		"sh -o errexit run.sh":                        {"run.sh"},
		"ruby -I lib client.rb":                       {"client.rb"},
		"perl -Ilib client.pl":                        {"client.pl"},
		"java -Xmx1g -jar c.jar -p {port}":            {"c.jar"},
		"java -cp . Client":                           nil,
		"./client {port}":                             nil,
		"/usr/bin/env python3 client.py":              {"client.py"},
		"python3 {port}.py":                           nil,
		"bash -euo pipefail run.sh":                   {"run.sh"},
		"bash +o posix run.sh":                        {"run.sh"},
		"python3 -um pkg.client":                      nil,
		"python3 -uc print(1)":                        nil,
		"python3 -bWignore client.py":                 {"client.py"},
		"perl -ne print":                              nil,
		"node --env-file .env dist/client.js":         {"dist/client.js"},
		"node --env-file=.env dist/client.js":         {"dist/client.js"},
		"node --experimental-loader ts-node/esm x.js": {"x.js"},
		"node --inspect-port 9230 x.js":               {"x.js"},
		"node --unknown-here 9230 x.js":               nil,
		"bash --rcfile x run.sh":                      {"run.sh"},
		"java -jar client.jar --out results.jar":      {"client.jar"},
		"env python3 client.py --out a.py":            {"client.py"},
	} {
		assert.Equal(t, want, clientFiles(strings.Fields(cmd)), cmd)
	}
}

// replaceFile replaces a link at the path, hard or symbolic, with the new
// file: the file the link led to keeps its contents.
func TestReplaceFileNeverWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "config.xml")
	for _, link := range []func(string, string) error{os.Link, os.Symlink} {
		require.NoError(t, os.WriteFile(target, []byte("<config/>"), 0o644))
		sys := filepath.Join(dir, "ds-system.xml")
		os.Remove(sys)
		require.NoError(t, link(target, sys))
		require.NoError(t, replaceFile(sys, []byte("<system/>")))
		got, err := os.ReadFile(target)
		require.NoError(t, err)
		assert.Equal(t, "<config/>", string(got), "the linked file is untouched")
		got, err = os.ReadFile(sys)
		require.NoError(t, err)
		assert.Equal(t, "<system/>", string(got))
		st, err := os.Lstat(sys)
		require.NoError(t, err)
		assert.True(t, st.Mode().IsRegular(), "a file of its own: %v", st.Mode())
		tst, err := os.Stat(target)
		require.NoError(t, err)
		assert.False(t, os.SameFile(st, tst))
		left, err := filepath.Glob(filepath.Join(dir, ".dsbench-*"))
		require.NoError(t, err)
		assert.Empty(t, left)
	}
}

// A folder where the file goes is said in words, and nothing is left
// behind.
func TestReplaceFileOverAFolder(t *testing.T) {
	dir := t.TempDir()
	sys := filepath.Join(dir, "ds-system.xml")
	require.NoError(t, os.Mkdir(sys, 0o755))
	err := replaceFile(sys, []byte("<system/>"))
	require.Error(t, err)
	assert.Equal(t, sys+": cannot write the file: a folder of that name is in the way", err.Error())
	left, err := filepath.Glob(filepath.Join(dir, ".dsbench-*"))
	require.NoError(t, err)
	assert.Empty(t, left)
}
