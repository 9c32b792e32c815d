package chromium

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RemoveProfile removes the profile, and the directory its SingletonSocket
// links to only when Chromium or Chrome made it for the socket.
func TestRemoveProfile(t *testing.T) {
	cases := []struct {
		name, target string // target: the link's, under the test's TMPDIR ("" none; "rel:" relative)
		removed      bool   // the target's directory is removed
	}{
		{"chromium", "org.chromium.Chromium.Ab12Cd/SingletonSocket", true},
		{"chrome", "com.google.Chrome.Xy9/SingletonSocket", true},
		{"no link", "", false},
		{"another directory", "keep/SingletonSocket", false},
		{"the prefix alone", "org.chromium.Chromium./SingletonSocket", false},
		{"relative", "rel:org.chromium.Chromium.Rel/SingletonSocket", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			profile := filepath.Join(tmp, "profile")
			require.NoError(t, os.MkdirAll(filepath.Join(profile, "Default"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(profile, "Default", "Preferences"), []byte("{}"), 0o644))
			var dir string
			if c.target != "" {
				link, relative := c.target, len(c.target) > 4 && c.target[:4] == "rel:"
				if relative {
					link = c.target[4:]
					dir = filepath.Join(tmp, filepath.Dir(link)) // where it would be read from tmp
				} else {
					link = filepath.Join(tmp, link)
					dir = filepath.Dir(link)
				}
				require.NoError(t, os.MkdirAll(dir, 0o700))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "SingletonSocket"), nil, 0o600))
				require.NoError(t, os.Symlink(link, filepath.Join(profile, "SingletonSocket")))
				if relative {
					t.Chdir(tmp) // a relative link must not be followed from the working directory
				}
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
// in TMPDIR; RemoveProfile takes it with the profile.
func TestKilledBrowserLeavesNothing(t *testing.T) {
	path, err := Find()
	if err != nil {
		if os.Getenv("DSSIM_CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	profile, err := os.MkdirTemp("", "chromium-test-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(profile) })
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), Options(path, profile, 300, 200)...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, time.Minute)
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate("about:blank")))
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	require.NoError(t, err)
	socketDir := filepath.Dir(target)
	t.Cleanup(func() { os.RemoveAll(socketDir) })
	require.Equal(t, filepath.Clean(os.TempDir()), filepath.Dir(socketDir), "the socket's directory is in TMPDIR")
	cancelT()
	cancel()
	cancelA()
	require.DirExists(t, socketDir, "killed, Chromium leaves its socket directory")
	RemoveProfile(profile)
	assert.NoDirExists(t, profile)
	assert.NoDirExists(t, socketDir)
}
