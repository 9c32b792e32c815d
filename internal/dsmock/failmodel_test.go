package dsmock

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
)

// modelArgs is the reference command line of a failure-models case folder
// CONFIG.MODEL[.variant] (the folder's README), without -v and -p, with
// --year 2025: the cases were recorded with the 2025 server.
func modelArgs(name string) []string {
	parts := strings.Split(name, ".")
	args := []string{"--year", "2025", "-c", parts[0] + ".xml"}
	if parts[0] != "fm-e2-attr" { // that case's model is the config attribute
		args = append(args, "-f", parts[1])
	}
	if len(parts) == 3 {
		var g, s, d int
		if _, err := fmt.Sscanf(parts[2], "g%ds%d", &g, &s); err == nil {
			args = append(args, "-g", fmt.Sprint(g), "-s", fmt.Sprint(s))
		} else if _, err := fmt.Sscanf(parts[2], "d%d", &d); err == nil {
			args = append(args, "-d", fmt.Sprint(d))
		}
	}
	return args
}

// modelWorkdir makes a working directory holding the case's inputs (the
// configuration and any job file), as the reference was run, and enters it.
func modelWorkdir(t *testing.T, dir string) {
	t.Helper()
	t.Chdir(t.TempDir())
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".xml") || e.Name() == "ds-jobs.xml" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(e.Name(), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFailureModelFiles: dsmock with each reference failure model case that
// ends, and the project's ffq over TCP, prints the reference summary and
// writes the same ds-res-failures.txt and ds-jobs.xml as ds-server
// (failure-models.md §11.2; none of ds-jobs.xml with a job file).
func TestFailureModelFiles(t *testing.T) {
	ran := 0
	for _, dir := range fixtures.Glob(t, "failure-models/*.*") {
		name := filepath.Base(dir)
		want, err := os.ReadFile(filepath.Join(dir, name+".ffq.summary"))
		if err != nil {
			continue // README.md, and the three cases that never end
		}
		ran++
		if testing.Short() && shortSkipsModelCase(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			modelWorkdir(t, dir)
			addr, stdout, stderr, code := startDsmock(t, append(modelArgs(name), "-v", "brief")...)
			if err := runClient(t, addr, "ffq", protocol.Plain); err != nil {
				t.Fatal(err)
			}
			if c := <-code; c != 0 {
				t.Fatalf("exit %d: %s", c, stderr.String())
			}
			if out := stdout.String(); !strings.HasSuffix(out, string(want)) {
				t.Fatalf("stdout does not end with the reference summary:\n%s", out[max(0, len(out)-1500):])
			}
			for _, f := range []string{"ds-res-failures.txt", "ds-jobs.xml"} {
				wantF, werr := os.ReadFile(filepath.Join(dir, f))
				got, gerr := os.ReadFile(f)
				if werr != nil {
					if gerr == nil {
						t.Errorf("%s written; the reference wrote none", f)
					}
					continue
				}
				if gerr != nil || !bytes.Equal(got, wantF) {
					t.Errorf("%s differs from the reference (%v):\n%s", f, gerr, got[:min(len(got), 600)])
				}
			}
		})
	}
	if ran != 26 {
		t.Errorf("%d cases ran, want 26", ran)
	}
}

// TestFailureModelLogs: the two whole -v all logs, with dsmock and the
// project's ffq over TCP, byte for byte from line 6 (lines 1-5 name the
// binary and port), and the two model lines of failure-models.md §8 first.
func TestFailureModelLogs(t *testing.T) {
	logs := fixtures.Glob(t, "failure-models/*/*.ffq.vall.log.gz")
	if len(logs) != 2 {
		t.Fatalf("%d logs, want 2", len(logs))
	}
	for _, p := range logs {
		dir := filepath.Dir(p)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			want := string(fixtures.ReadGz(t, p))
			modelWorkdir(t, dir)
			addr, stdout, stderr, code := startDsmock(t, append(modelArgs(name), "-v", "all")...)
			if err := runClient(t, addr, "ffq", protocol.Plain); err != nil {
				t.Fatal(err)
			}
			if c := <-code; c != 0 {
				t.Fatalf("exit %d: %s", c, stderr.String())
			}
			got := strings.SplitAfterN(stdout.String(), "\n", 6)
			w := strings.SplitAfterN(want, "\n", 6)
			if got[0] != w[0] || got[1] != w[1] {
				t.Errorf("model lines %q %q, want %q %q", got[0], got[1], w[0], w[1])
			}
			if got[5] != w[5] {
				gl, wl := strings.Split(got[5], "\n"), strings.Split(w[5], "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("log line %d: got %q, want %q", i+6, gl[i], wl[i])
					}
				}
				t.Fatalf("log: %d lines, want %d", len(gl)+5, len(wl)+5)
			}
		})
	}
}

// TestNoConfigRun: dsmock without -c (failure-models.md §12), as
// `ds-server -r 7 -f teragrid`: the reference ds-system.xml, ds-jobs.xml,
// header-only ds-res-failures.txt and ffq summary.
func TestNoConfigRun(t *testing.T) {
	dir := filepath.Join(fixtures.Dir(t), "failure-models", "no-config", "r7.teragrid")
	t.Chdir(t.TempDir())
	addr, stdout, stderr, code := startDsmock(t, "--year", "2025", "-r", "7", "-f", "teragrid", "-v", "brief")
	if err := runClient(t, addr, "ffq", protocol.Plain); err != nil {
		t.Fatal(err)
	}
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s", c, stderr.String())
	}
	want, err := os.ReadFile(filepath.Join(dir, "r7.teragrid.ffq.summary"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(stdout.String(), string(want)) {
		t.Fatalf("stdout does not end with the reference summary")
	}
	for _, f := range []string{"ds-system.xml", "ds-jobs.xml", "ds-res-failures.txt"} {
		w, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if g, err := os.ReadFile(f); err != nil || !bytes.Equal(g, w) {
			t.Errorf("%s differs (%v):\n%s", f, err, g[:min(len(g), 400)])
		}
	}
}

// TestFailureModelStuckOverTCP: s2-config05 with nd07cpu, where ds-server
// and ffq exchange REDY and JOBP forever: the client over TCP ends with the
// stuck-time error and QUITs, and dsmock ends normally.
func TestFailureModelStuckOverTCP(t *testing.T) {
	name := "s2-config05.nd07cpu"
	modelWorkdir(t, filepath.Join(fixtures.Dir(t), "failure-models", name))
	addr, _, stderr, code := startDsmock(t, modelArgs(name)...)
	err := runClient(t, addr, "ffq", protocol.Plain)
	if err == nil || !strings.Contains(err.Error(), "simulation time stopped advancing at 10679") {
		t.Fatalf("client: %v; want the stuck-time error", err)
	}
	if c := <-code; c != 0 {
		t.Fatalf("dsmock exit %d: %s", c, stderr.String())
	}
}

// TestGrainOnlyWarning: a failureTimeGrain with neither a model nor a trace
// gets a warning, and ds-res-failures.txt is written header-only
// (failure-models.md §9).
func TestGrainOnlyWarning(t *testing.T) {
	dir := filepath.Join(fixtures.Dir(t), "failure-models", "ds-sample-config01.g5k06")
	data, err := os.ReadFile(filepath.Join(dir, "ds-sample-config01.xml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	data = bytes.Replace(data, []byte("<servers>"), []byte(`<servers failureTimeGrain="600">`), 1)
	if err := os.WriteFile("grain.xml", data, 0o644); err != nil {
		t.Fatal(err)
	}
	addr, _, stderr, code := startDsmock(t, "-c", "grain.xml")
	if err := runClient(t, addr, "ffq", protocol.Plain); err != nil {
		t.Fatal(err)
	}
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s", c, stderr.String())
	}
	if !strings.Contains(stderr.String(), "dsmock: warning: grain.xml: <servers>: failureTimeGrain without failureModel or failureFile") {
		t.Errorf("stderr %q", stderr.String())
	}
	if f, err := os.ReadFile("ds-res-failures.txt"); err != nil || !strings.HasPrefix(string(f), "#base_trace: , config_file: grain.xml,") || strings.Count(string(f), "\n") != 1 {
		t.Errorf("ds-res-failures.txt: %v %q", err, f)
	}
}

// shortSkipsModelCase: under -short the command runs the six models on one
// config and every case with options of its own (-g/-s, -d, a config's
// failureModel, no config); the other configs' 15 cases, each a whole TCP
// run, are left to the full suite. mocksrv's TestFailureModelRuns checks
// all 26 summaries and failure traces in-process either way.
func shortSkipsModelCase(name string) bool {
	return strings.HasPrefix(name, "ds-sample-config0") || strings.HasPrefix(name, "s2-config05")
}
