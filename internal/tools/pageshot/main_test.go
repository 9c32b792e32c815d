package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/chromium"
)

// Bad command lines are refused (2) before Chromium starts; a page that
// does not exist is an error (1) naming it.
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage"},
		{[]string{"-o", "x.png"}, 2, "usage"},
		{[]string{"page.html"}, 2, "usage"},
		{[]string{"-o", "x.png", "-time", "3", "page.html"}, 2, "usage"},
		{[]string{"-width", "wide", "page.html"}, 2, "invalid value"},
		{[]string{"-o", "x.png", filepath.Join(dir, "none.html")}, 1, "none.html"},
	} {
		var out, errw bytes.Buffer
		if code := run(tc.args, &out, &errw); code != tc.code || !strings.Contains(errw.String(), tc.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", tc.args, code, errw.String(), tc.code, tc.want)
		}
	}
}

// markedPage sets the marks the run viewer's pages set.
const markedPage = `<!DOCTYPE html><html><body><h1>page</h1><script>
performance.mark('dsview-tables');
performance.mark('dsview-ready');
requestAnimationFrame(function () { requestAnimationFrame(function () { performance.mark('dsview-tables-frame'); performance.mark('dsview-ready-frame'); }); });
</script></body></html>`

// With Chromium: a screenshot is a PNG; -time prints each load and the
// median; a page without the marks is refused instead of timed.
func TestInChromium(t *testing.T) {
	chromium.ForTest(t)
	dir := t.TempDir()
	page, plain, shot := filepath.Join(dir, "p.html"), filepath.Join(dir, "plain.html"), filepath.Join(dir, "p.png")
	if err := os.WriteFile(page, []byte(markedPage), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, []byte("<html><body>no marks</body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	if code := run([]string{"-width", "300", "-height", "200", "-o", shot, page}, &out, &errw); code != 0 {
		t.Fatalf("screenshot: exit %d: %s", code, errw.String())
	}
	if png, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n")) {
		t.Errorf("the screenshot is not a PNG (%v)", err)
	}
	out.Reset()
	if code := run([]string{"-time", "2", page}, &out, &errw); code != 0 || len(regexp.MustCompile(`(?m)^load \d+: comparison built \d+, painted \d+; page built`).FindAllString(out.String(), -1)) != 2 ||
		!strings.Contains(out.String(), "median of 2: comparison built") {
		t.Errorf("-time 2: exit %d, %q, %s", code, out.String(), errw.String())
	}
	markWait = 300
	t.Cleanup(func() { markWait = 60000 })
	errw.Reset()
	if code := run([]string{"-time", "1", plain}, &out, &errw); code != 1 || !strings.Contains(errw.String(), "no dsview-ready mark") {
		t.Errorf("a page without marks: exit %d, %q", code, errw.String())
	}
}
