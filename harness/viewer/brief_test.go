package viewer

import (
	"bytes"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/transcript"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// briefLog replays the client's side of a -v all transcript into the
// simulator at -v brief: the same run's -v brief log.
func briefLog(t *testing.T, cfg *mocksrv.Config, vall []byte) []byte {
	t.Helper()
	tr, err := transcript.ParseBytes(vall)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	txt, err := mocksrv.NewText(cfg, mocksrv.Options{Level: mocksrv.LevelBrief, Log: &log, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tr.Messages {
		if m.Dir == transcript.Rcvd {
			if _, _, err := txt.Handle(m.Text); err != nil {
				t.Fatal(err)
			}
		}
	}
	txt.Flush()
	return log.Bytes()
}

// The -v brief log of each shared run gives the same run as its -v all
// transcript: same stays, power, queue, cores and cost (no reference
// client run uses TERM, the one thing brief hides).
func TestParseLogBriefEqualsAll(t *testing.T) {
	for _, path := range fixtures.Glob(t, "transcripts/*.vall.log.gz") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			all, data := transcriptRun(t, path)
			cfg := fixtureConfig(t, strings.SplitN(filepath.Base(path), ".", 2)[0])
			brief, err := ParseLog("brief.log", bytes.NewReader(briefLog(t, cfg, data)), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if brief.Level != "brief" {
				t.Errorf("level %q", brief.Level)
			}
			if !reflect.DeepEqual(brief.Stays, all.Stays) || !reflect.DeepEqual(brief.Servers, all.Servers) ||
				!reflect.DeepEqual(brief.Queue, all.Queue) || !reflect.DeepEqual(brief.Cost, all.Cost) || brief.TotalCost != all.TotalCost {
				t.Errorf("the brief log gives another run than the -v all one")
			}
		})
	}
}
