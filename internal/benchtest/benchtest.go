// Package benchtest is what the tests of the harness packages and of
// dsbench's command line share: the shared fixtures' paths and sources, a
// command built for a test, bash client scripts speaking newline framing
// (sample-config01, 10 jobs, fits super-silk), and checks of written
// files. Test code only.
package benchtest

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// FixtureConfig is the shared fixture folder of that name.
func FixtureConfig(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(fixtures.Dir(t), "fixtures", name)
}

// FixtureSources are the shared fixtures of those names as sources, all
// of them when none is named.
func FixtureSources(t *testing.T, names ...string) []sources.Source {
	dir := filepath.Join(fixtures.Dir(t), "fixtures")
	if len(names) == 0 {
		srcs, err := sources.Resolve([]string{dir})
		require.NoError(t, err)
		return srcs
	}
	var out []sources.Source
	for _, n := range names {
		s, err := sources.Resolve([]string{filepath.Join(dir, n)})
		require.NoError(t, err)
		out = append(out, s...)
	}
	return out
}

// BuildCmd builds the module's package pkg (cmd/dsmock) into a temporary
// folder and returns the binary.
func BuildCmd(t *testing.T, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	out, err := exec.Command("go", "build", "-o", bin, "github.com/dssim-go/dssim-go/"+pkg).CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// Script writes a bash client script and returns its --client command.
func Script(t *testing.T, body string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "client.sh")
	require.NoError(t, os.WriteFile(f, []byte(body), 0o755))
	return "bash " + f + " {port}"
}

// Quitter connects in newline mode, takes one job and quits: the server
// reports the other jobs as not scheduled.
const Quitter = `exec 3<>/dev/tcp/127.0.0.1/$1
echo HELO >&3; read -r l <&3
echo "AUTH x" >&3; read -r l <&3
echo REDY >&3; read -r l <&3
echo QUIT >&3; read -r l <&3
echo "quitter: giving up after the first job" >&2
`

// MustRead is the file's contents.
func MustRead(t *testing.T, f string) string {
	t.Helper()
	data, err := os.ReadFile(f)
	require.NoError(t, err)
	return string(data)
}

// CheckPNG checks that the file is a PNG image of some size.
func CheckPNG(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err, path)
	b := img.Bounds()
	assert.Greater(t, b.Dx(), 100, path)
	assert.Greater(t, b.Dy(), 100, path)
}

// CheckSVG checks that the file is a whole SVG document.
func CheckSVG(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	s := string(data)
	assert.True(t, strings.Contains(s, "<svg") && strings.HasSuffix(strings.TrimSpace(s), "</svg>"), "%s is not an SVG document", path)
}

// NLClient is the start of every client script here: connect, and say, which sends
// one message and reads the reply into l (exit 1 when there is none).
const NLClient = `exec 3<>/dev/tcp/127.0.0.1/$1
say() { echo "$1" >&3 && read -r l <&3 || exit 1; }
say HELO; say "AUTH x"
`

// SchedulesAll runs every job on super-silk 0 and quits.
const SchedulesAll = NLClient + `say REDY
while [ "$l" != NONE ]; do
	set -- $l
	[ "$1" = JOBN ] && say "SCHD $2 super-silk 0"
	say REDY
done
say QUIT
`

// Early schedules nothing: one refused SCHD, whose stderr line
// ("No such server type by xxx exists!") comes before the count of the
// jobs left unscheduled, then QUIT.
const Early = NLClient + `say REDY
set -- $l
say "SCHD $2 xxx 0"
say QUIT
`

// mdCells splits a Markdown table row at its unescaped '|'s.
func mdCells(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	return regexp.MustCompile(`(^|[^\\])\|`).Split(row, -1)
}

// CheckMarkdownTables checks that every row of every table in md has as
// many cells as the table's separator row, and returns the tables' rows.
func CheckMarkdownTables(t *testing.T, md string) []string {
	t.Helper()
	var rows []string
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") {
			continue
		}
		require.Less(t, i+1, len(lines), "a table's header ends the output")
		want := len(mdCells(lines[i+1]))
		for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			assert.Len(t, mdCells(lines[i]), want, "row %q", lines[i])
			rows = append(rows, lines[i])
		}
	}
	return rows
}
