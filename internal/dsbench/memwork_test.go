package dsbench

import (
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/harness/sources"
)

// TestMainMemwork: dsbench --memwork generates the memory-extension
// workloads (one config per f) and --mem-fail switches the extension on:
// sgme in mock mode has memory failures (counted in the summary's failed
// jobs) where the extension off has none; a bad model or spec is refused
// before any run.
func TestMainMemwork(t *testing.T) {
	code, out, stderr := runMain("--memwork", "jobs=200,f=1/4", "--mem-fail", "hard", "-a", "sgme:mode=mock", "-f", "csv", "--progress", "never")
	if code != 0 || !strings.Contains(out, "memwork-s1-f1_4") {
		t.Fatalf("status %d\n%s\n%s", code, out, stderr)
	}
	failed := func(csv string) string {
		lines := strings.Split(strings.TrimSpace(csv), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "config,strategy,status,end_time,jobs,failed,") {
			t.Fatalf("csv:\n%s", csv)
		}
		return strings.Split(lines[1], ",")[5]
	}
	if f := failed(out); f == "0" {
		t.Errorf("extension on: no failed jobs in the summary\n%s", out)
	}
	code, out, stderr = runMain("--memwork", "jobs=200,f=1/4", "-a", "sgme:mode=mock", "-f", "csv", "--progress", "never")
	if f := failed(out); code != 0 || f != "0" {
		t.Errorf("extension off: status %d, failed %s\n%s", code, f, stderr)
	}
	code, _, stderr = runMain("--memwork", "jobs=200", "--mem-fail", "soft", "-a", "ff")
	if code == 0 || !strings.Contains(stderr, `--mem-fail: memory failure model "soft"`) {
		t.Errorf("bad model: status %d, stderr %q", code, stderr)
	}
	code, _, stderr = runMain("--memwork", "jobs=x", "-a", "ff")
	if code == 0 || !strings.Contains(stderr, `jobs: "x": want a whole number`) {
		t.Errorf("bad spec: status %d, stderr %q", code, stderr)
	}
	code, _, stderr = runMain("--mem-fail", "hard", "-a", "ff")
	if code == 0 || !strings.Contains(stderr, "--mem-fail: config ") || !strings.Contains(stderr, "needs a job file whose <job> elements carry actMemory") {
		t.Errorf("the suite (no actMemory) with --mem-fail: status %d, stderr %q", code, stderr)
	}
	srcs, err := sources.Memwork("seeds=1-2,f=1/32|1")
	if err != nil || len(srcs) != 4 || srcs[3].Name != "memwork-s2-f1_1" {
		t.Fatalf("sources %v, err %v", srcs, err)
	}
}
