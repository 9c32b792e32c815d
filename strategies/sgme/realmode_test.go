package sgme_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/pairtest"
	"github.com/dssim-go/dssim-go/internal/transcript"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// Real mode must be indistinguishable from the base policy (estimation.md
// B.3, Part F): the shared ff transcripts are replayed by a fake server on
// loopback, and every message dsclient sends running `sgme` with base=ff
// must be, byte for byte, the reference client's ff message at that point.

func TestRealModeReplaysFFTranscripts(t *testing.T) {
	files := fixtures.Glob(t, "transcripts/*.ff.vall.log.gz")
	require.Len(t, files, 3)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ff.vall.log.gz")
		t.Run(name, func(t *testing.T) {
			tr, err := transcript.ParseBytes(fixtures.ReadGz(t, f))
			require.NoError(t, err)
			xml := pairtest.SystemXML(t, filepath.Join(fixtures.Dir(t), "fixtures", name, "config.xml"), mocksrv.Year2025)
			err, r := pairtest.Replay(t, tr, xml, transcript.ReplayOptions{}, "-a", "sgme", "--param", "base=ff", "--read-timeout", "20s")
			require.NoError(t, err, "sgme base=ff must send exactly ff's messages")
			assert.Equal(t, dsclient.ExitOK, r.Code, r.Stderr.String())
		})
	}
}

// The replay has teeth for this strategy: in mock mode the first job goes
// out as SCHM, which the transcript does not have.
func TestMockModeDivergesFromTranscript(t *testing.T) {
	f := filepath.Join(fixtures.Dir(t), "transcripts", "sample-config01.ff.vall.log.gz")
	tr, err := transcript.ParseBytes(fixtures.ReadGz(t, f))
	require.NoError(t, err)
	xml := pairtest.SystemXML(t, filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01", "config.xml"), mocksrv.Year2025)
	err, _ = pairtest.Replay(t, tr, xml, transcript.ReplayOptions{}, "-a", "sgme", "--param", "base=ff", "--param", "mode=mock", "--read-timeout", "20s")
	require.Error(t, err)
	assert.Regexp(t, `client sent "SCHM 0 [a-z]+ \d+ \d+", transcript has "SCHD 0 `, err.Error())
}

// Against the simulator over TCP (dsmock's engine and text front, the
// extension off), `sgme` with base=ff gives ff's reference summary on every
// fixture, byte for byte; in mock mode the first SCHM is refused as an
// invalid command and the run proceeds as ff, with the same summary.
func TestAgainstDsmockFFSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs over TCP")
	}
	for _, cfgPath := range fixtures.Glob(t, "fixtures/*/config.xml") {
		name := filepath.Base(filepath.Dir(cfgPath))
		want, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "expected", name+".ff.summary"))
		if err != nil {
			continue // no ff reference for this fixture (the failure trace: only queue variants finish it)
		}
		cfg, err := mocksrv.LoadConfig(cfgPath, mocksrv.LoadOptions{BaseDir: filepath.Dir(cfgPath)})
		require.NoError(t, err)
		for _, mode := range []string{"real", "mock"} {
			r := pairtest.Run(t, cfg, mocksrv.Options{Level: mocksrv.LevelBrief, NoHeader: true},
				"-a", "sgme", "--param", "base=ff", "--param", "mode="+mode)
			require.Equal(t, dsclient.ExitOK, r.Code, "%s %s: %s", name, mode, r.Stderr)
			assert.True(t, strings.HasSuffix(r.Log, string(want)), "%s mode=%s: summary differs from ff's:\n%s", name, mode, lastLines(r.Log, 12))
			assert.Regexp(t, `(?m)^# metric extension +0\.0000 `, r.Stdout.String(), "%s %s", name, mode)
		}
	}
}

// The refusal itself, on the wire: dsmock without the extension answers
// the first SCHM with ds-server's invalid-command ERR, then gets the SCHD
// ff would send.
func TestMockModeFallbackOnTheWire(t *testing.T) {
	cfgPath := filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01", "config.xml")
	cfg, err := mocksrv.LoadConfig(cfgPath, mocksrv.LoadOptions{BaseDir: filepath.Dir(cfgPath)})
	require.NoError(t, err)
	r := pairtest.Run(t, cfg, mocksrv.Options{Level: mocksrv.LevelAll, NoHeader: true},
		"-a", "sgme", "--param", "base=ff", "--param", "mode=mock")
	require.Equal(t, dsclient.ExitOK, r.Code, r.Stderr)
	i := strings.Index(r.Log, "RCVD SCHM 0 ")
	require.GreaterOrEqual(t, i, 0, "the first job goes out as SCHM")
	rest := r.Log[i:]
	assert.Regexp(t, `^RCVD SCHM 0 \S+ \d+ \d+\n\s*(t \d+: )?SENT ERR: invalid command`, rest)
	assert.Equal(t, 1, strings.Count(r.Log, "RCVD SCHM"), "one SCHM only: estimation is off after the refusal")
	assert.Contains(t, rest, "RCVD SCHD 0 ")
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

func fixturePath(t *testing.T, name string) string {
	return filepath.Join(fixtures.Dir(t), "fixtures", name)
}

// dsclient refuses a bad sgme parameter before connecting (exit status 2,
// the parameter named), so no run starts with a setting it cannot honour.
func TestDsclientRefusesBadParameters(t *testing.T) {
	for _, c := range []struct{ param, want string }{
		{"base=nosuch", `parameter base=nosuch: unknown base policy "nosuch"`},
		{"alpha=1", "parameter alpha: alpha=1: want a finite number > 1"},
		{"beta=2", "parameter beta: beta=2"},
		{"key=k7", `parameter key="k7": want k1, k2, k3 or k4; did you mean k1?`},
		{"rounding=up", `parameter rounding="up": want granularity, levels or paper`},
		{"mode=mokc", `parameter mode="mokc": want real or mock; did you mean mock?`},
	} {
		var stdout, stderr bytes.Buffer
		code := dsclient.Main([]string{"-p", "1", "-a", "sgme", "--param", c.param}, &stdout, &stderr)
		assert.Equal(t, dsclient.ExitUsage, code, c.param)
		assert.Contains(t, stderr.String(), c.want, c.param)
	}
}
