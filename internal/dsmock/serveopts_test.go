package dsmock

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"1048576", 1 << 20, true}, {"512MiB", 512 << 20, true}, {"1GiB", 1 << 30, true},
		{"64KiB", 64 << 10, true}, {"100MB", 100e6, true}, {"2GB", 2e9, true}, {"5KB", 5000, true}, {"7B", 7, true},
		{"10 MiB", 10 << 20, true},
		{"", 0, false}, {"MiB", 0, false}, {"-1", 0, false}, {"+5", 0, false}, {"1.5GiB", 0, false}, {"1TB", 0, false},
		{"lots", 0, false}, {"9223372036854775807GiB", 0, false},
	} {
		got, err := parseSize(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// FuzzParseSize: any text is a size or an error, never a negative size
// or a panic; a size written back in bytes reads the same.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"0", "1GiB", "512MiB", "100MB", "7B", "-1", "9223372036854775807", "1e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("parseSize(%q) = %d", s, n)
		}
		if m, err := parseSize(strings.TrimSpace(formatBytes(n))); err != nil || m != n {
			t.Fatalf("%d bytes read back as %d, %v", n, m, err)
		}
	})
}

func formatBytes(n int64) string { return strconv.FormatInt(n, 10) }

// The --serve bounds: refused when not numbers, or without --serve.
func TestServeLimitOptions(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"--serve", "--max-sessions", "0"}, "dsmock: --max-sessions \"0\": want a number of sessions, 1 or more\n"},
		{[]string{"--serve", "--session-log-max", "1XB"}, "dsmock: --session-log-max \"1XB\": want a size such as 512MiB, 1GiB or 100000000 (bytes), or 0 for no limit\n"},
		{[]string{"--max-sessions", "5"}, "dsmock: --max-sessions bounds --serve's sessions: without --serve dsmock runs one, as ds-server does\n"},
		{[]string{"--session-log-max", "1MiB", "--max-sessions", "5"}, "dsmock: --session-log-max bounds --serve's sessions: without --serve dsmock runs one, as ds-server does\n"},
	} {
		var out, errb syncBuffer
		code := run(append([]string{"dsmock", "-c", cfg}, tc.args...), &out, &errb, nil, false)
		assert.Equal(t, 1, code, "%q", tc.args)
		assert.Equal(t, tc.stderr, errb.String(), "%q", tc.args)
	}
}
