package mocksrv_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

var cfgCache = map[string]*mocksrv.Config{}

func fixtureConfig(t testing.TB, name string) *mocksrv.Config {
	t.Helper()
	if c, ok := cfgCache[name]; ok {
		return c
	}
	p := filepath.Join(fixtures.Dir(t), "fixtures", name, "config.xml")
	c, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: filepath.Dir(p)})
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	cfgCache[name] = c
	return c
}

// runInProcess runs a registered strategy against a Session and returns it.
func runInProcess(t testing.TB, cfg *mocksrv.Config, algo string, opt mocksrv.Options) *mocksrv.Session {
	t.Helper()
	s, err := mocksrv.NewSession(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	st, err := strategies.New(algo, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Run(st, s, client.Options{User: "root",
		System: func(client.Backend) (*servertypes.System, error) { return s.System() }})
	if err != nil {
		t.Fatalf("%s: %v", algo, err)
	}
	if s.Report() == nil {
		t.Fatal("no report after the run")
	}
	return s
}

// splitExpected: "NAME.ALGO.summary".
func splitExpected(p string) (name, algo string) {
	base := strings.TrimSuffix(filepath.Base(p), ".summary")
	i := strings.LastIndexByte(base, '.')
	return base[:i], base[i+1:]
}

// TestSummaries: every expected/NAME.ALGO.summary, run in-process at -v
// brief with the project's baseline, gives the summary block byte for byte.
func TestSummaries(t *testing.T) {
	paths := fixtures.Glob(t, "expected/*.summary")
	same := 0
	for _, p := range paths {
		name, algo := splitExpected(p)
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name+"."+algo, func(t *testing.T) {
			s := runInProcess(t, fixtureConfig(t, name), algo, mocksrv.Options{Level: mocksrv.LevelBrief})
			if got := s.Report().Text; got != string(want) {
				t.Fatalf("summary differs:\n--- got\n%s--- want\n%s", got, want)
			}
			same++
		})
	}
	t.Logf("%d/%d summaries identical", same, len(paths))
	if len(paths) < 273 {
		t.Errorf("only %d expected summaries; the shared set has at least 273", len(paths))
	}
}
