package chromium

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RemoveProfile removes the profile, and the directory its SingletonSocket
// links to only when Chromium or Chrome made it for the socket, directly
// in TMPDIR.
func TestRemoveProfile(t *testing.T) {
	cases := []struct {
		name, target string // the link's, under TMPDIR ("" none; "rel:" relative; "out:" outside TMPDIR)
		removed      bool   // the target's directory is removed
	}{
		{"chromium", "org.chromium.Chromium.Ab12Cd/SingletonSocket", true},
		{"chrome", "com.google.Chrome.Xy9/SingletonSocket", true},
		{"no link", "", false},
		{"another directory", "keep/SingletonSocket", false},
		{"the prefix alone", "org.chromium.Chromium./SingletonSocket", false},
		{"relative", "rel:org.chromium.Chromium.Rel/SingletonSocket", false},
		{"outside TMPDIR", "out:org.chromium.Chromium.Out/SingletonSocket", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			tmp := filepath.Join(root, "tmp")
			t.Setenv("TMPDIR", tmp)
			profile := filepath.Join(tmp, "profile")
			require.NoError(t, os.MkdirAll(filepath.Join(profile, "Default"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(profile, "Default", "Preferences"), []byte("{}"), 0o644))
			var dir string
			if c.target != "" {
				link := filepath.Join(tmp, c.target)
				rel, relative := strings.CutPrefix(c.target, "rel:")
				out, outside := strings.CutPrefix(c.target, "out:")
				switch {
				case relative:
					link = rel
				case outside:
					link = filepath.Join(root, out)
				}
				dir = filepath.Dir(link)
				if relative {
					dir = filepath.Join(tmp, dir) // where it would be read from the working directory
					t.Chdir(tmp)
				}
				require.NoError(t, os.MkdirAll(dir, 0o700))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "SingletonSocket"), nil, 0o600))
				require.NoError(t, os.Symlink(link, filepath.Join(profile, "SingletonSocket")))
			}
			RemoveProfile(profile)
			assert.NoDirExists(t, profile)
			if dir != "" {
				_, err := os.Stat(dir)
				assert.Equal(t, c.removed, os.IsNotExist(err), "%s removed: %v", dir, err)
			}
		})
	}
}

// A browser killed at the end of its context leaves its socket directory
// in TMPDIR; RemoveProfile takes it with the profile, and nothing is left.
func TestKilledBrowserLeavesNothing(t *testing.T) {
	path := ForTest(t)
	// Not t.TempDir, which nests two levels: one level keeps the socket's
	// path within 107 bytes under a TMPDIR of up to 48 characters.
	tmp, err := os.MkdirTemp("", "chr")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("TMPDIR", tmp) // the browser's, and RemoveProfile's
	profile := filepath.Join(tmp, "profile")
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), Options(path, profile, 300, 200)...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, time.Minute)
	stop := func() { cancelT(); cancel(); cancelA() }
	t.Cleanup(stop) // also when the test fails before it stops the browser
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate("about:blank")))
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	require.NoError(t, err)
	socketDir := filepath.Dir(target)
	require.Equal(t, tmp, filepath.Dir(socketDir), "the socket's directory is in TMPDIR")
	stop()
	require.DirExists(t, socketDir, "killed, Chromium leaves its socket directory")
	RemoveProfile(profile)
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// $CHROMIUM naming no browser is an error naming it, not a quiet fall
// back to PATH.
func TestFindNamesABadCHROMIUM(t *testing.T) {
	t.Setenv("CHROMIUM", filepath.Join(t.TempDir(), "no-such-browser"))
	_, err := Find()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "CHROMIUM=")
	assert.Contains(t, err.Error(), "no-such-browser")
}
