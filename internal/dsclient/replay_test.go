package dsclient_test

import (
	"fmt"
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

// TestReplayTranscripts is the end-to-end check of the client: for every
// shared -v all transcript, a fake server on a real loopback socket sends
// the logged SENT messages (plain framing, as recorded) and requires every
// message dsclient sends to equal the logged RCVD message, in order, up to
// QUIT, with the project's strategy of the transcript's name. The same
// replay then runs in newline framing (-n), which the transcripts do not
// cover otherwise.
//
// The 2026 server's transcripts (GETS records with the rate) are replayed
// the same way: dsclient needs no flag to tell the years apart.
func TestReplayTranscripts(t *testing.T) {
	for _, y := range []struct {
		year  mocksrv.Year
		glob  string
		count int
	}{{mocksrv.Year2025, "transcripts/*.vall.log.gz", 21}, {mocksrv.Year2026, "v2026/transcripts/*.vall.log.gz", 22}} {
		files := fixtures.Glob(t, y.glob)
		require.Len(t, files, y.count)
		passed := 0
		for _, f := range files {
			base := strings.TrimSuffix(filepath.Base(f), ".vall.log.gz")
			name, algo, _ := strings.Cut(strings.TrimSuffix(base, ".n"), ".")
			tr, err := transcript.ParseBytes(fixtures.ReadGz(t, f))
			require.NoError(t, err)
			xml := pairtest.SystemXML(t, filepath.Join(fixtures.Dir(t), "fixtures", name, "config.xml"), y.year)
			for _, nl := range []bool{false, true} {
				mode := map[bool]string{false: "plain", true: "newline"}[nl]
				t.Run(fmt.Sprintf("%v/%s/%s", y.year, base, mode), func(t *testing.T) {
					replay(t, tr, algo, xml, nl)
					if !nl && !t.Failed() {
						passed++
					}
				})
			}
		}
		t.Logf("%v: %d/%d transcripts replayed identically (plain framing)", y.year, passed, len(files))
		assert.Equal(t, len(files), passed)
	}
}

func replay(t *testing.T, tr *transcript.Transcript, algo string, xml []byte, nl bool) {
	args := []string{"-a", algo, "--read-timeout", "20s"}
	if nl {
		args = append(args, "-n")
	}
	err, r := pairtest.Replay(t, tr, xml, transcript.ReplayOptions{
		Newline: nl,
		OnAuth: func(user string) error {
			if user != "root" {
				t.Errorf("AUTH %q, want root", user)
			}
			return nil
		},
	}, args...)
	require.NoError(t, err, "the client's messages must equal the transcript's")
	assert.Equal(t, dsclient.ExitOK, r.Code, "stderr: %s", r.Stderr.String())
	assert.Empty(t, r.Stderr.String(), "a normal run is quiet")
	assert.Empty(t, r.Stdout.String())
}

// TestReplayNegativeControl: the replay has teeth. The ff transcript run
// with wf differs at the first decision that differs, and Replay says where.
func TestReplayNegativeControl(t *testing.T) {
	f := filepath.Join(fixtures.Dir(t), "transcripts", "sample-config01.ff.vall.log.gz")
	tr, err := transcript.ParseBytes(fixtures.ReadGz(t, f))
	require.NoError(t, err)
	xml := pairtest.SystemXML(t, filepath.Join(fixtures.Dir(t), "fixtures", "sample-config01", "config.xml"), mocksrv.Year2025)
	err, r := pairtest.Replay(t, tr, xml, transcript.ReplayOptions{}, "-a", "wf", "--read-timeout", "5s") // the server gives up: the client must notice
	require.Error(t, err)
	assert.Regexp(t, `^transcript line \d+ \(message \d+ of \d+\): client sent "SCHD \d+ [a-z-]+ \d+", transcript has "SCHD`, err.Error())
	assert.Equal(t, dsclient.ExitFailed, r.Code)
	assert.Contains(t, r.Stderr.String(), "dsclient: ")
	assert.Contains(t, r.Stderr.String(), "the server closed the connection")
}
