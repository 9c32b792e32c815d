package dsmock

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDuplicateTypeRefusedBeforeListening: a config with two server types
// of one name is refused as it loads, with --serve too (it was refused only
// when a client connected, without the file's name), and dsmock never
// listens.
func TestDuplicateTypeRefusedBeforeListening(t *testing.T) {
	dir := fixtureDir(t, "sample-config01")
	src, err := os.ReadFile(filepath.Join(dir, "config.xml"))
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	data, err := os.ReadFile(filepath.Join(dir, "jobs.xml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile("jobs.xml", data, 0o644))
	cfg := strings.Replace(string(src), `type="super-silk"`, `type="joon"`, 1)
	require.NotEqual(t, string(src), cfg, "the fixture has a super-silk type")
	require.NoError(t, os.WriteFile("dup.xml", []byte(cfg), 0o644))
	var out, errb syncBuffer
	listened := make(chan net.Addr, 1)
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"dsmock", "-c", "dup.xml", "-p", "0", "--serve"}, &out, &errb, func(a net.Addr) { listened <- a }, false)
	}()
	select {
	case a := <-listened:
		t.Fatalf("dsmock listens on %v with the config: it must be refused as it loads", a) // (serving on: the process ends it)
	case c := <-code:
		assert.Equal(t, 1, c)
	}
	assert.Regexp(t, `dsmock: dup\.xml: line \d+: <server> \d \(joon\): attribute type: server type "joon" listed twice \(first as <server> \d, line \d+\)`, errb.String())
}

// TestSystemXMLFolderNamedOnce: a folder named ds-system.xml in the
// working directory ends the session at AUTH with one line that names the
// file once and says a folder is in the way (it said "ds-system.xml:
// ds-system.xml: rename ./.dsmock-NNN ds-system.xml: file exists").
func TestSystemXMLFolderNamedOnce(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	require.NoError(t, os.Mkdir("ds-system.xml", 0o755))
	addr, _, stderr, code := startOn(t, "-c", cfg, "-p", "0")
	c, err := net.Dial("tcp", addr.String())
	require.NoError(t, err)
	defer c.Close()
	buf := make([]byte, 64)
	for _, m := range []string{"HELO", "AUTH x"} {
		_, err := c.Write([]byte(m))
		require.NoError(t, err)
		_, _ = c.Read(buf)
	}
	assert.Equal(t, 1, <-code)
	assert.Equal(t, "ds-system.xml: cannot write the file: a folder of that name is in the way\n", stderr.String())
	left, err := filepath.Glob(".dsmock-*")
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary file left behind")
}
