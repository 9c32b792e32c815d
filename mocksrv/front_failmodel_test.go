package mocksrv_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
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

// TestFailureModelStuck: the three reference cases that never end
// (s2-config05 with nd07cpu, pl05, g5k06: REDY and JOBP forever at one
// time; the README names 10679, which is where nd07cpu sticks here; pl05
// and g5k06 stick at 14133 and 17511, once the 256-core server has failed
// for good) end in-process with the client's stuck-time error instead, and
// QUIT.
func TestFailureModelStuck(t *testing.T) {
	stuck := 0
	for _, mc := range modelCases(t) {
		if _, err := os.Stat(filepath.Join(mc.dir, mc.name+".ffq.summary")); err == nil {
			continue
		}
		stuck++
		t.Run(mc.name, func(t *testing.T) {
			s, err := mocksrv.NewSession(mc.cfg, mocksrv.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st, err := strategies.New("ffq", nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.Run(st, s, client.Options{User: "root",
				System: func(client.Backend) (*servertypes.System, error) { return s.System() }})
			want := map[string]string{"s2-config05.nd07cpu": "10679", "s2-config05.pl05": "14133", "s2-config05.g5k06": "17511"}[mc.name]
			if err == nil || !strings.Contains(err.Error(), "simulation time stopped advancing at "+want+": ") {
				t.Fatalf("got %v; want the stuck-time error at %s", err, want)
			}
			if s.Report() == nil {
				t.Error("no report: the client did not QUIT")
			}
		})
	}
	if stuck != 3 {
		t.Errorf("%d never-ending cases, want 3", stuck)
	}
}

// TestNoConfig: the four no-configuration runs of failure-models.md §12.6
// (ds-server without -c): ds-system.xml and ds-jobs.xml byte for byte, the
// ffq summary, and with -f the header-only ds-res-failures.txt.
func TestNoConfig(t *testing.T) {
	runs := map[string]mocksrv.LoadOptions{
		"noargs":      {},
		"r5.l3":       {Seed: 5, SeedGiven: true, Limit: 3, LimitGiven: true},
		"r7.teragrid": {Seed: 7, SeedGiven: true, Failure: "teragrid", FailureGiven: true},
		"r42.l2.j200": {Seed: 42, SeedGiven: true, Limit: 2, LimitGiven: true, JobCount: 200, JobCountGiven: true},
	}
	dirs := fixtures.Glob(t, "failure-models/no-config/*")
	if len(dirs) != len(runs) {
		t.Fatalf("%d no-config runs, want %d", len(dirs), len(runs))
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			cfg, err := mocksrv.RandomConfig(runs[name])
			if err != nil {
				t.Fatal(err)
			}
			read := func(f string) []byte {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			if got, want := mocksrv.SystemXML(cfg, mocksrv.Year2025), read("ds-system.xml"); !bytes.Equal(got, want) {
				t.Errorf("ds-system.xml:\n%s\nwant\n%s", got, want)
			}
			if got, want := cfg.JobsXML(mocksrv.Year2025, false), read("ds-jobs.xml"); !bytes.Equal(got, want) {
				t.Errorf("ds-jobs.xml differs (%d vs %d bytes)", len(got), len(want))
			}
			s := runInProcess(t, cfg, "ffq", mocksrv.Options{Level: mocksrv.LevelBrief})
			if got, want := s.Report().Text, read(name+".ffq.summary"); got != string(want) {
				t.Errorf("summary differs:\n--- got\n%s--- want\n%s", got, want)
			}
			got := s.Engine().FailuresTxt()
			if want, err := os.ReadFile(filepath.Join(dir, "ds-res-failures.txt")); err == nil {
				if !bytes.Equal(got, want) {
					t.Errorf("ds-res-failures.txt:\n%s\nwant\n%s", got, want)
				}
			} else if got != nil {
				t.Errorf("ds-res-failures.txt without -f:\n%s", got)
			}
		})
	}
}

// TestGrainOnly: <servers failureTimeGrain="…"> with neither a model nor a
// trace (failure-models.md §9 [UNDEFINED]): nothing fails, the run is the
// plain one, and ds-res-failures.txt is still written, its header with an
// empty model name and zeros where ds-server prints garbage.
func TestGrainOnly(t *testing.T) {
	dir := filepath.Join(fixtures.Dir(t), "failure-models", "ds-sample-config01.g5k06")
	data, err := os.ReadFile(filepath.Join(dir, "ds-sample-config01.xml"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("<servers>"), []byte(`<servers failureTimeGrain="600">`), 1)
	cfg, err := mocksrv.ParseConfig("grain.xml", data, mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.GrainOnly || cfg.Simulated() || len(cfg.Failures) != 0 {
		t.Fatalf("GrainOnly %v, Simulated %v, %d failures", cfg.GrainOnly, cfg.Simulated(), len(cfg.Failures))
	}
	s := runInProcess(t, cfg, "ffq", mocksrv.Options{})
	want := "#base_trace: , config_file: grain.xml, total_servers: 5, total_time: 604800, time_dist_mean: 0.000000, time_dist_stdev: 0.000000, node_dist_mean: 0.000000, node_dist_stdev: 0.000000\n"
	if got := string(s.Engine().FailuresTxt()); got != want {
		t.Errorf("ds-res-failures.txt %q, want %q", got, want)
	}
	plain, err := mocksrv.ParseConfig("plain.xml", bytes.Replace(data, []byte(` failureTimeGrain="600"`), nil, 1), mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.GrainOnly || runInProcess(t, plain, "ffq", mocksrv.Options{}).Report().Text != s.Report().Text {
		t.Error("the grain changed the run")
	}
}
