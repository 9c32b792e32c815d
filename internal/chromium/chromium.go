// Package chromium finds headless Chromium and leaves nothing of a run
// behind: what the run viewer's browser tests and pageshot share.
package chromium

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// ErrNotFound: no Chromium on PATH and none named by $CHROMIUM.
var ErrNotFound = errors.New("no chromium on PATH (apt-get install chromium, or set CHROMIUM)")

// Find returns the path of $CHROMIUM, else of the first of chromium,
// chromium-browser and google-chrome on PATH.
func Find() (string, error) {
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
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

// isSocketDir: dir is a directory Chromium made for its socket, never the
// TMPDIR above it or anything else a link could name.
func isSocketDir(dir string) bool {
	base := filepath.Base(dir)
	for _, p := range socketDirPrefixes {
		if strings.HasPrefix(base, p) && len(base) > len(p) {
			return true
		}
	}
	return false
}
