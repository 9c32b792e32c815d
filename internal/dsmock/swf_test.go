package dsmock

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/dsswf"
	"github.com/dssim-go/dssim-go/protocol"
)

// The SWF test trace of package mocksrv/swf: 5 jobs kept, one of them
// (32 processors) too big for the given servers.xml's 8-core largest type.
var (
	swfTrace   = mustAbs("../../mocksrv/swf/testdata/small.swf")
	swfServers = mustAbs("../../mocksrv/swf/testdata/servers.xml")
)

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

// TestSWFRuns: dsmock runs a converted trace to the end with every job
// done, from the files dsswf writes (-c, as ds-server would take them) and
// straight from the trace (--swf, servers derived or from -c).
func TestSWFRuns(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	if code := dsswf.Main([]string{"-o", "conv", swfTrace}, &out, &errb); code != 0 {
		t.Fatalf("dsswf exit %d: %s", code, errb.String())
	}
	// What a --swf conversion left out is said on stderr, as dsswf says it.
	skipped := "dsmock: --swf " + swfTrace + ": skipped 1: cancelled (status 5)\n"
	tooBig := "dsmock: --swf " + swfTrace + ": skipped 1: larger than the largest server type\n"
	for _, c := range []struct {
		name    string
		args    []string
		jobs    string
		notes   []string // on stderr
		noNotes bool
	}{
		{"dsswf files", []string{"-c", "conv/config.xml"}, "#jobs: 5 (failed 0 times)", nil, true},
		{"--swf derived", []string{"--swf", swfTrace}, "#jobs: 5 (failed 0 times)", []string{skipped,
			"dsmock: --swf " + swfTrace + ": 2 jobs had no requested time: their estimate is their run time\n",
			"dsmock: --swf " + swfTrace + ": derived cluster: 112 cores (6 server types, each sized to the whole machine) against the trace's MaxProcs 16\n"}, false},
		{"--swf on -c servers", []string{"-c", swfServers, "--swf", swfTrace + ":time-scale=2"}, "#jobs: 4 (failed 0 times)", []string{skipped, tooBig}, false},
		// The trace's used memory is the extension's actMemory (2 jobs carry
		// it), so the extension accepts the workload.
		{"--swf with --mem-fail", []string{"--swf", swfTrace, "--mem-fail", "hard"}, "#jobs: 5 (failed 0 times)", []string{skipped, "actMemory capped at the request for 1 jobs"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr, stdout, stderr, code := startDsmock(t, append(c.args, "-v", "brief")...)
			if err := runClient(t, addr, "ff", protocol.Plain); err != nil {
				t.Fatal(err)
			}
			if k := <-code; k != 0 {
				t.Fatalf("exit %d: %s", k, stderr.String())
			}
			if !strings.Contains(stdout.String(), c.jobs) {
				t.Fatalf("report lacks %q:\n%s", c.jobs, stdout.String())
			}
			for _, want := range c.notes {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr %q lacks %q", stderr.String(), want)
				}
			}
			if c.noNotes && stderr.String() != "" {
				t.Errorf("stderr %q, want none", stderr.String())
			}
			if !strings.Contains(c.jobs, "4") && strings.Contains(stderr.String(), tooBig) {
				t.Errorf("stderr %q: a job skipped as too big", stderr.String())
			}
			if strings.Contains(c.jobs, "4") && strings.Contains(stderr.String(), "derived cluster") {
				t.Errorf("stderr %q: the given servers reported as derived", stderr.String())
			}
		})
	}
}

// TestSWFErrors: a bad trace, spec or combination is refused before
// listening, naming the file and line or the option.
func TestSWFErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(bad, []byte("1 0 5 100 4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	servers, err := os.ReadFile(swfServers)
	if err != nil {
		t.Fatal(err)
	}
	cores0 := filepath.Join(dir, "cores0.xml")
	if err := os.WriteFile(cores0, bytes.Replace(servers, []byte(`cores="2"`), []byte(`cores="0"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--swf", bad}, "dsmock: " + bad + ": line 1: 19 fields, want 18"},
		{[]string{"--swf", swfTrace + ":procs-per-core=0"}, "procs-per-core=0: want a positive integer"},
		{[]string{"--swf", swfTrace, "-f", bad}, "-f cannot be combined with a trace"},
		{[]string{"--swf", filepath.Join(dir, "none.swf")}, "none.swf: no such file"},
		// A bad server is named in its own file, not in the converted config,
		// in ds-server's lines too.
		{[]string{"--swf", swfTrace, "-c", cores0}, "0: Out of bound! (1 - 1024); Core count limit\nConfiguration file (" + cores0 + ") invalid!\n" +
			"dsmock: " + cores0 + ": <server> 1 (small): attribute cores: 0: Out of bound! (1 - 1024); Core count limit\n"},
		{[]string{"--swf", swfTrace + ":servers=" + cores0}, "0: Out of bound! (1 - 1024); Core count limit\nConfiguration file (" + cores0 + ") invalid!\n" +
			"dsmock: " + cores0 + ": <server> 1 (small): attribute cores: 0: Out of bound! (1 - 1024); Core count limit\n"},
	} {
		var stdout, stderr bytes.Buffer
		// ready is never called: every case is refused before listening.
		code := run(append([]string{"dsmock", "-p", "0"}, c.args...), &stdout, &stderr, func(net.Addr) {}, false)
		if code != 1 || !strings.Contains(stderr.String(), c.want) || strings.Contains(c.want, "invalid!") && stderr.String() != c.want {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}
