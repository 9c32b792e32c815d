package ports

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePorts(t *testing.T) {
	r, err := Parse("--ports", "50100-50199")
	require.NoError(t, err)
	assert.Equal(t, Range{50100, 50199}, r)
	for in, want := range map[string]string{
		"50100":       `--ports "50100": want LO-HI`,
		"a-b":         `--ports "a-b": want LO-HI`,
		"50200-50100": `--ports "50200-50100": want 1 ≤ LO ≤ HI ≤ 65535`,
		"0-10":        `want 1 ≤ LO`,
		"1-70000":     `want 1 ≤ LO ≤ HI ≤ 65535`,
	} {
		_, err := Parse("--ports", in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want)
	}
}

// FuzzParsePorts: the --ports values.
func FuzzParsePorts(f *testing.F) {
	for _, s := range []string{"50000-50999", "5-3", "0-1", "1-70000", "x", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse("--ports", s)
		if err == nil && (r.Lo < 1 || r.Hi > 65535 || r.Lo > r.Hi) {
			t.Fatalf("%q accepted as %v", s, r)
		}
	})
}
