package dsswf

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

const trace = "../../mocksrv/swf/testdata/small.swf"

// TestWrite: the folder dsswf writes loads through the simulator's config
// loader (what dsmock -c does) with the jobs the conversion made, and the
// report lists every skip reason with its count.
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-o", dir, "--time-scale", "2", trace}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, s := range []string{
		trace + ": 5 jobs, 6 server types (procs-per-core=1,time-scale=2,offset=0,disk=100,mem-per-core=100)\n",
		"skipped 1: cancelled (status 5)\nskipped 1: partial execution line (status 2, 3 or 4)\nskipped 1: no submit time\nskipped 1: no run time\nskipped 1: no processor count\n",
		"actMemory capped at the request for 1 jobs",
	} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, stdout.String())
		}
	}
	cfg, err := mocksrv.LoadConfig(filepath.Join(dir, "config.xml"), mocksrv.LoadOptions{BaseDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	w, err := swf.LoadFile(trace, swf.Options{TimeScale: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Jobs) != 5 || len(cfg.Types) != 6 || cfg.ActMemoryJobs != 2 {
		t.Fatalf("loaded %d jobs, %d types, %d with actMemory", len(cfg.Jobs), len(cfg.Types), cfg.ActMemoryJobs)
	}
	for i, j := range cfg.Jobs {
		if j != w.Jobs[i].Job {
			t.Errorf("job %d: file %+v, conversion %+v", i, j, w.Jobs[i].Job)
		}
	}
	if cfg.Jobs[2].Submit != 20 { // 2 × 10
		t.Errorf("time-scale not applied: job 2 at %d", cfg.Jobs[2].Submit)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "jobs.xml"))
	if !bytes.Equal(data, w.JobsXML()) {
		t.Error("jobs.xml differs from the conversion's JobsXML")
	}
}

// TestErrors: a bad command line is status 2, a bad trace status 1 with
// the file, line and field; nothing is written.
func TestErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.swf")
	if err := os.WriteFile(bad, []byte("; MaxProcs: 4\n1 0 5 100 -4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, ExitUsage, "want one trace file, got 0 arguments"},
		{[]string{"a.swf", "b.swf"}, ExitUsage, "want one trace file, got 2 arguments"},
		{[]string{"--procs-per-core", "-3", trace}, ExitUsage, "procs-per-core=-3: want a positive integer"},
		{[]string{"--time-scale", "fast", trace}, ExitUsage, `time-scale="fast": want a positive number`},
		{[]string{"--bogus", trace}, ExitUsage, "unknown flag: --bogus"},
		{[]string{"-o", out, bad}, ExitInput, bad + `: line 2: field 5 (allocated processors): "-4": negative`},
		{[]string{"-o", out, "--servers", "/nonexistent.xml", trace}, ExitInput, "servers config: open /nonexistent.xml"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(c.args, &stdout, &stderr)
		if code != c.code || !strings.HasPrefix(stderr.String(), "dsswf: ") || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output folder written after an error: %v", err)
	}
}

// TestHelp: -h prints the usage with every option, status 0.
func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-h"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, f := range swfFlags {
		if !strings.Contains(stdout.String(), "--"+f.name) {
			t.Errorf("usage lacks --%s", f.name)
		}
	}
}
