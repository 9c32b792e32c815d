package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fn is a function of exactly n lines, from `func` to the closing brace,
// with a doc comment (not counted) and, when lit, a function literal
// inside (counted in fn).
func fn(name string, n int, lit bool) string {
	var b strings.Builder
	b.WriteString("// " + name + " is long.\nfunc " + name + "() {\n")
	body := n - 2
	if lit {
		b.WriteString("\tf := func() {\n")
		for range body - 3 {
			b.WriteString("\t\t_ = 0\n")
		}
		b.WriteString("\t}\n\tf()\n")
	} else {
		for range body {
			b.WriteString("\t_ = 0\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func write(t *testing.T, path, src string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
}

func TestLimit(t *testing.T) {
	for _, lit := range []bool{false, true} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "ok.go"), "package p\n\n"+fn("exactly80", 80, lit))
		var out, errb bytes.Buffer
		assert.Equal(t, 0, run([]string{dir}, &out, &errb), "80 lines pass (literal inside: %v)", lit)
		assert.Empty(t, out.String())

		write(t, filepath.Join(dir, "sub", "long.go"), "package sub\n\n"+fn("tooLong", 81, lit))
		out.Reset()
		assert.Equal(t, 1, run([]string{dir}, &out, &errb), "81 lines fail (literal inside: %v)", lit)
		assert.Equal(t, filepath.Join(dir, "sub", "long.go")+":4 tooLong 81 lines\n", out.String())
	}
}

// Methods are named as Go writes method expressions; tests, testdata,
// hidden folders and literals outside functions are not checked.
func TestWhatIsChecked(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("\t_ = 0\n", 90)
	write(t, filepath.Join(dir, "m.go"), "package p\n\ntype T struct{}\ntype G[K any] struct{}\n\n"+
		"func (T) Value() {\n"+body+"}\n\nfunc (t *T) Ptr() {\n"+body+"}\n\nfunc (g *G[K]) Gen() {\n"+body+"}\n\n"+
		"var lit = func() {\n"+body+"}\n")
	write(t, filepath.Join(dir, "m_test.go"), "package p\n\n"+fn("testHelper", 200, false))
	write(t, filepath.Join(dir, "testdata", "x.go"), "package x\n\n"+fn("fixture", 200, false))
	write(t, filepath.Join(dir, ".git", "x.go"), "package x\n\n"+fn("hidden", 200, false))
	f, err := check(dir, MaxLines)
	require.NoError(t, err)
	var got []string
	for _, x := range f {
		got = append(got, x.name+" "+x.file[len(dir)+1:])
	}
	assert.Equal(t, []string{"T.Value m.go", "(*T).Ptr m.go", "(*G).Gen m.go"}, got)
	assert.Equal(t, 92, f[0].lines)
}

func TestBadFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "bad.go"), "package p\nfunc {")
	var out, errb bytes.Buffer
	assert.Equal(t, 2, run([]string{dir}, &out, &errb))
	assert.Contains(t, errb.String(), "bad.go")
}
