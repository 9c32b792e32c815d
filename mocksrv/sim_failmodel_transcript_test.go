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
			want := fixtures.ReadGz(t, p)
			got, _ := replayText(t, cfg, LevelAll, rcvdLines(want))
			if d := simFirstDiff(dropLines(got, 5), dropLines(want, 5)); d != "" {
				t.Fatal(d)
			}
			if g, w := string(got[:len(got)-len(dropLines(got, 2))]), string(want[:len(want)-len(dropLines(want, 2))]); g != w {
				t.Fatalf("model lines:\n%s\nwant\n%s", g, w)
			}
		})
	}
}
