package mocksrv_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// modelCase is one reference run of ../dssim/failure-models: the folder
// CONFIG.MODEL[.variant] (variant gNsN for -g/-s, dN for -d), its
// configuration loaded as ds-server was started in that folder.
type modelCase struct {
	name, dir string
	cfg       *mocksrv.Config
	args      string // the options after -c, as the reference was run
}

// modelCases loads every case of failure-models.md §11.2.
func modelCases(t testing.TB) []modelCase {
	t.Helper()
	var cases []modelCase
	for _, dir := range fixtures.Glob(t, "failure-models/*.*") {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		name := filepath.Base(dir)
		parts := strings.Split(name, ".")
		opt := mocksrv.LoadOptions{BaseDir: dir}
		var args []string
		if parts[0] != "fm-e2-attr" { // that case's model is the config attribute
			opt.Failure, opt.FailureGiven = parts[1], true
			args = append(args, "-f", parts[1])
		}
		if len(parts) == 3 {
			var g, s, d int
			if _, err := fmt.Sscanf(parts[2], "g%ds%d", &g, &s); err == nil {
				opt.Grain, opt.GrainGiven, opt.Scale, opt.ScaleGiven = g, true, s, true
				args = append(args, "-g", strconv.Itoa(g), "-s", strconv.Itoa(s))
			} else if _, err := fmt.Sscanf(parts[2], "d%d", &d); err == nil {
				opt.EndTime, opt.EndTimeGiven = d, true
				args = append(args, "-d", strconv.Itoa(d))
			}
		}
		cfgName := parts[0] + ".xml"
		data, err := os.ReadFile(filepath.Join(dir, cfgName))
		if err != nil {
			t.Fatal(err)
		}
		// The path as given to ds-server's -c: ds-res-failures.txt names it.
		cfg, err := mocksrv.ParseConfig(cfgName, data, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, modelCase{name: name, dir: dir, cfg: cfg, args: strings.Join(args, " ")})
	}
	if len(cases) != 29 {
		t.Fatalf("%d failure-model cases, want 29", len(cases))
	}
	return cases
}

// TestFailureModelRuns: every reference case that ends, run in-process with
// the project's ffq at -v brief, gives the reference summary byte for
// byte, and ds-res-failures.txt (cut at the actual end time) equals the
// reference's (failure-models.md §13 items 4-7).
func TestFailureModelRuns(t *testing.T) {
	ran := 0
	for _, mc := range modelCases(t) {
		want, err := os.ReadFile(filepath.Join(mc.dir, mc.name+".ffq.summary"))
		if err != nil {
			continue // the three cases that never end (README): TestFailureModelStuck
		}
		t.Run(mc.name, func(t *testing.T) {
			s := runInProcess(t, mc.cfg, "ffq", mocksrv.Options{Level: mocksrv.LevelBrief})
			if got := s.Report().Text; got != string(want) {
				t.Fatalf("summary differs:\n--- got\n%s--- want\n%s", got, want)
			}
			wantF, err := os.ReadFile(filepath.Join(mc.dir, "ds-res-failures.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Engine().FailuresTxt(); !bytes.Equal(got, wantF) {
				t.Fatalf("ds-res-failures.txt differs:\n--- got\n%s--- want\n%s", head(got, 5), head(wantF, 5))
			}
		})
		ran++
	}
	if ran != 26 {
		t.Errorf("%d cases ran, want 26 (failure-models.md §11.2)", ran)
	}
}

// head returns the first n lines.
func head(b []byte, n int) []byte {
	for i, c := range b {
		if c == '\n' {
			if n--; n == 0 {
				return b[:i+1]
			}
		}
	}
	return b
}
