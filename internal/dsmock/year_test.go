package dsmock

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
)

// TestYearFiles: dsmock speaks the 2026 server by default and the 2025 one
// with --year 2025: a whole run writes the ds-system.xml and ds-jobs.xml
// that year's ds-server writes, byte for byte (the 2026 files recorded
// from the real 2026 server; the 2025 ones are the failure-model case of
// the same config, whose jobs are the same), and its log starts with the
// year's version line. The project's client reads both years' records.
func TestYearFiles(t *testing.T) {
	shared := fixtures.Dir(t)
	for _, tc := range []struct {
		args           []string
		version        string
		system, jobs   string // files to compare with, relative to shared
		config, client string
	}{
		{nil, "# ds-sim server 2-Apr, 2026 @ MQ", "v2026/files/config20-med-med.ds-system.xml", "v2026/files/config20-med-med.ds-jobs.xml", "config20-med-med", "ff"},
		{[]string{"--year", "2026"}, "# ds-sim server 2-Apr, 2026 @ MQ", "v2026/files/sample-config01.ds-system.xml", "", "sample-config01", "bf"},
		{[]string{"--year", "2025"}, "# ds-sim server 4-Apr, 2025 @ MQ - client-server", "", "failure-models/config20-med-med.teragrid/ds-jobs.xml", "config20-med-med", "ff"},
	} {
		t.Run(strings.Join(append(tc.args, tc.config), " "), func(t *testing.T) {
			src := filepath.Join(shared, "configs", tc.config+".xml")
			t.Chdir(t.TempDir())
			data, err := os.ReadFile(src)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile("c.xml", data, 0o644))
			addr, stdout, stderr, code := startDsmock(t, append(tc.args, "-c", "c.xml", "-v", "all")...)
			require.NoError(t, runClient(t, addr, tc.client, protocol.Plain))
			require.Equal(t, 0, <-code, stderr.String())
			assert.True(t, strings.HasPrefix(stdout.String(), tc.version+"\n"), "log starts %q", stdout.String()[:80])
			recLen := regexp.MustCompile(`SENT DATA \d+ (124|135)\n`).FindAllStringSubmatch(stdout.String(), -1)
			require.NotEmpty(t, recLen, "no GETS batch in the log")
			for _, m := range recLen {
				assert.Equal(t, map[bool]string{true: "135", false: "124"}[strings.HasSuffix(tc.version, "2026 @ MQ")], m[1], "GETS record length of the year")
			}
			for got, want := range map[string]string{"ds-system.xml": tc.system, "ds-jobs.xml": tc.jobs} {
				if want == "" {
					continue
				}
				w, err := os.ReadFile(filepath.Join(shared, want))
				require.NoError(t, err)
				g, err := os.ReadFile(got)
				require.NoError(t, err)
				assert.Equal(t, string(w), string(g), "%s against %s", got, want)
			}
		})
	}
}

// TestYearRefusedBeforeTheRun: an unknown year is refused before anything
// listens, naming the accepted values; -h opens with the chosen year's
// version line, as ds-server's -h does.
func TestYearRefusedBeforeTheRun(t *testing.T) {
	for _, bad := range []string{"2024", "26", "", "latest"} {
		var out, errb syncBuffer
		code := run([]string{"dsmock", "--year", bad, "-c", "x.xml"}, &out, &errb, func(net.Addr) { t.Error("listened") }, false)
		assert.Equal(t, 1, code, bad)
		assert.Contains(t, errb.String(), `dsmock: --year: unknown ds-server year "`+bad+`": want 2025 (ds-server 4-Apr-2025) or 2026`, bad)
	}
	for args, want := range map[string]string{
		"-h usage":              "ds-sim (ds-server: 2-Apr, 2026 @ MQ)\nUsage: dsmock",
		"--year 2025 -h limits": "ds-sim (ds-server: 4-Apr, 2025 @ MQ - client-server)\nLimits:",
		"--year 2026 -h all":    "ds-sim (ds-server: 2-Apr, 2026 @ MQ)\nUsage: dsmock",
	} {
		var out, errb syncBuffer
		assert.Equal(t, 1, run(append([]string{"dsmock"}, strings.Fields(args)...), &out, &errb, nil, false), args)
		assert.True(t, strings.HasPrefix(out.String(), want), "%s: %q", args, out.String())
	}
	var out, errb syncBuffer
	assert.Equal(t, 0, run([]string{"dsmock", "--help"}, &out, &errb, nil, false))
	assert.Contains(t, out.String(), "--year y", "--help names the flag")
}

// TestServeYear: --serve takes the year as a single session does: each
// session is the chosen year's server (2026 by default).
func TestServeYear(t *testing.T) {
	bin := buildDsmock(t)
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	for _, tc := range []struct {
		args []string
		data string
	}{{nil, "DATA 5 135"}, {[]string{"--year", "2025"}, "DATA 5 124"}} {
		port := freeTestPort(t)
		cmd := exec.Command(bin, append(tc.args, "-c", cfg, "-p", port, "--serve")...)
		cmd.Dir = t.TempDir()
		require.NoError(t, cmd.Start())
		addr := "127.0.0.1:" + port
		waitDial(t, addr)
		for session := 0; session < 2; session++ {
			c, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			var last string
			buf := make([]byte, 256)
			for _, m := range []string{"HELO", "AUTH x", "REDY", "GETS All"} {
				_, err := c.Write([]byte(m))
				require.NoError(t, err)
				require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
				n, err := c.Read(buf)
				require.NoError(t, err)
				last = string(buf[:n])
			}
			assert.Equal(t, tc.data, last, "session %d of dsmock --serve %v", session+1, tc.args)
			c.Close()
		}
		require.NoError(t, cmd.Process.Kill())
		cmd.Wait()
	}
}
