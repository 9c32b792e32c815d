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
