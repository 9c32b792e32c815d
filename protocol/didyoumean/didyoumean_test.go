package didyoumean

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"", "ab", 2}, {"wary", "wary", 0}, {"wray", "wary", 1}, {"wary", "wry", 1},
		{"wary", "warty", 1}, {"wary", "wiry", 1}, {"ca", "abc", 3}, {"cost-redcue", "cost-reduce", 1}, {"héllo", "hello", 1},
	} {
		assert.Equal(t, c.d, Distance(c.a, c.b), "%q %q", c.a, c.b)
	}
}

// TestNearest: a typo within the limit (one edit under six characters,
// two from six) gets the first nearest name; case is ignored; a word far
// from every name gets none.
func TestNearest(t *testing.T) {
	names := []string{"frontier", "ff", "bf", "randomSeed", "balanced", "2025", "2026"}
	for word, want := range map[string]string{
		"frontir": "frontier", "fronteir": "frontier", "frontierr": "frontier", "fff": "ff", "xf": "ff",
		"randomseed": "randomSeed", "RANDOMSEED": "randomSeed", "randomSed": "randomSeed", "balance": "balanced",
		"2062": "2026", "2024": "2025", "frnt": "", "zzzzzz": "", "": "",
	} {
		assert.Equal(t, want, Nearest(word, names), "%q", word)
	}
	assert.Equal(t, "; did you mean frontier?", Hint("frontir", names))
	assert.Equal(t, "", Hint("ff", names), "the word itself is no suggestion")
	assert.Equal(t, "", Hint("qqqq", names))
}

func FuzzNearest(f *testing.F) {
	for _, s := range []string{"frontir", "", "é", "randomseed"} {
		f.Add(s)
	}
	names := []string{"frontier", "ff", "randomSeed", "héllo"}
	f.Fuzz(func(t *testing.T, word string) {
		n := Nearest(word, names)
		if n == "" {
			return
		}
		found := false
		for _, c := range names {
			found = found || c == n
		}
		if !found {
			t.Fatalf("Nearest(%q) = %q, not a name", word, n)
		}
		if d := Distance(word, n); d > len([]rune(word))+len([]rune(n)) {
			t.Fatalf("distance %d beyond both lengths", d)
		}
	})
}
