package mocksrv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// TestFailureModelTranscripts: the two whole -v all logs of
// ../dssim/failure-models, replayed message by message through the text
// front, give the same log from line 6 on (lines 1-2 are the model lines
// of failure-models.md §8, 3-5 the banner naming the binary and port), and
// our first two lines are the model lines.
func TestFailureModelTranscripts(t *testing.T) {
	paths := fixtures.Glob(t, "failure-models/*/*.ffq.vall.log.gz")
	if len(paths) != 2 {
		t.Fatalf("%d -v all logs, want 2", len(paths))
	}
	for _, p := range paths {
		dir := filepath.Dir(p)
		name := filepath.Base(dir) // CONFIG.MODEL
		cfgName, model, _ := strings.Cut(name, ".")
		cfgName += ".xml"
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, cfgName))
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := simconfig.ParseConfig(cfgName, data, simconfig.LoadOptions{BaseDir: dir, Failure: model, FailureGiven: true})
			if err != nil {
				t.Fatal(err)
			}
			checkModelTranscript(t, cfg, Year2025, fixtures.ReadGz(t, p))
		})
	}
}

// TestFailureModelTranscript2026: the 2026 server's -v all log of the same
// teragrid run, whose GETS records have 16 fields (the rate, then the six
// failure fields), replayed through the text front of that year.
func TestFailureModelTranscript2026(t *testing.T) {
	p := filepath.Join(fixtures.Dir(t), "v2026/failure-models/config20-med-med.teragrid.ffq.vall.log.gz")
	dir := filepath.Join(fixtures.Dir(t), "failure-models/config20-med-med.teragrid")
	data, err := os.ReadFile(filepath.Join(dir, "config20-med-med.xml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := simconfig.ParseConfig("config20-med-med.xml", data, simconfig.LoadOptions{BaseDir: dir, Failure: "teragrid", FailureGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	want := fixtures.ReadGz(t, p)
	if !strings.Contains(string(want), "SENT DATA 20 177") {
		t.Fatal("the 2026 log has no batch of 16-field records")
	}
	checkModelTranscript(t, cfg, Year2026, want)
}

// checkModelTranscript replays a failure model's -v all log through the
// text front of year: the same log from line 6 on (lines 1-2 are the model
// lines of failure-models.md §8, 3-5 the banner naming the binary and
// port), and our first two lines are the model lines.
func checkModelTranscript(t *testing.T, cfg *simconfig.Config, year Year, want []byte) {
	t.Helper()
	got, _ := replayTextWith(t, cfg, Options{Level: LevelAll, Year: year}, rcvdLines(want))
	if d := simFirstDiff(dropLines(got, 5), dropLines(want, 5)); d != "" {
		t.Fatal(d)
	}
	if g, w := string(got[:len(got)-len(dropLines(got, 2))]), string(want[:len(want)-len(dropLines(want, 2))]); g != w {
		t.Fatalf("model lines:\n%s\nwant\n%s", g, w)
	}
}
