// Package chromium finds headless Chromium and leaves nothing of a run
// behind: what the run viewer's browser tests and pageshot share.
package chromium

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Find returns the path of the browser $CHROMIUM names (an error if it
// names none), else of the first of chromium, chromium-browser and
// google-chrome on PATH.
func Find() (string, error) {
	if name := os.Getenv("CHROMIUM"); name != "" {
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("CHROMIUM=%s: %w", name, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (apt-get install chromium, or set CHROMIUM)")
}

// ForTest is Find for a test that needs the browser: without one the test
// skips, except under CI (DSSIM_CI set), where .ci/run installs Debian's
// chromium and a skip would hide a broken page.
func ForTest(t testing.TB) string {
	t.Helper()
	p, err := Find()
	if err == nil {
		return p
	}
	if os.Getenv("DSSIM_CI") != "" {
		t.Fatalf("%v: under CI the browser tests must run (.ci/run installs Debian's chromium)", err)
	}
	t.Skipf("%v: browser test skipped", err)
	return ""
}

// Options are the allocator options of a headless browser at path with
// the profile directory profile and a window of width × height: no
// sandbox (CI runs as root), no GPU.
func Options(path, profile string, width, height int) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.UserDataDir(profile), chromedp.WindowSize(width, height))
}

// socketDirPrefixes name the directories Chromium and Chrome make in
// TMPDIR for their singleton socket.
var socketDirPrefixes = []string{"org.chromium.Chromium.", "com.google.Chrome."}

// RemoveProfile removes a profile once its browser has stopped, with the
// directory in TMPDIR that holds the browser's singleton socket (the
// profile's SingletonSocket links to it): Chromium, killed rather than
// closed, removes neither, and one such directory a launch piles up in
// /tmp. The socket is left in TMPDIR, not moved into the profile, because
// a socket's path is limited to 107 bytes. RemoveProfile retries for up
// to a second, as Chromium's crashpad handler may still write to the
// profile for a moment after the browser exits.
func RemoveProfile(profile string) {
	if target, err := os.Readlink(filepath.Join(profile, "SingletonSocket")); err == nil {
		if dir := filepath.Dir(target); filepath.IsAbs(target) && isSocketDir(dir) {
			_ = os.RemoveAll(dir)
		}
	}
	for range 20 {
		if os.RemoveAll(profile) == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// isSocketDir: dir is a directory Chromium made for its socket: directly
// in TMPDIR, and named as Chromium names it. Nothing else a link could
// name, TMPDIR itself included, is removed.
func isSocketDir(dir string) bool {
	if filepath.Dir(dir) != filepath.Clean(os.TempDir()) {
		return false
	}
	base := filepath.Base(dir)
	for _, p := range socketDirPrefixes {
		if strings.HasPrefix(base, p) && len(base) > len(p) {
			return true
		}
	}
	return false
}
