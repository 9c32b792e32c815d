package simconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// TestLoadFixtureConfigs: every fixtures/*/config.xml loads with its job file
// (and failure trace), with the job count of the file, the termination reset
// of ds-server.md §2.7 and the types stably sorted by cores (§2.9).
func TestLoadFixtureConfigs(t *testing.T) {
	paths := fixtures.Glob(t, "fixtures/*/config.xml")
	for _, p := range paths {
		name := filepath.Base(filepath.Dir(p))
		t.Run(name, func(t *testing.T) {
			c, err := LoadConfig(p, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(filepath.Dir(p), "jobs.xml"))
			if err != nil {
				t.Fatal(err)
			}
			want := bytes.Count(data, []byte("<job "))
			if len(c.Jobs) != want || c.JobCount != want {
				t.Errorf("%d jobs, JobCount %d; the file has %d", len(c.Jobs), c.JobCount, want)
			}
			if c.EndTime != 2592000 {
				t.Errorf("EndTime %d after the job-file reset, want 2592000", c.EndTime)
			}
			if c.Generated || c.JobFile != "jobs.xml" {
				t.Errorf("Generated %v JobFile %q", c.Generated, c.JobFile)
			}
			for i, j := range c.Jobs {
				if j.ID != i || j.Cores < 1 || j.ActRunTime < 1 || j.Type == "" {
					t.Fatalf("job %d: %+v", i, j)
				}
			}
			checkSorted(t, c)
			if len(c.Types) == 0 || len(c.Types) != len(c.ConfigOrder) {
				t.Fatalf("%d types, %d in config order", len(c.Types), len(c.ConfigOrder))
			}
			if name == "ds-sample-config05-failures" {
				if c.FailureFile != "failures.txt" || len(c.Failures) != 539 {
					t.Errorf("FailureFile %q with %d records, want failures.txt with 539", c.FailureFile, len(c.Failures))
				}
			} else if c.Simulated() {
				t.Errorf("failures simulated without a trace")
			}
		})
	}
}

// checkSorted checks that Types is ConfigOrder stably sorted by cores.
func checkSorted(t *testing.T, c *Config) {
	t.Helper()
	want := append([]ServerType(nil), c.ConfigOrder...)
	sort.SliceStable(want, func(i, j int) bool { return want[i].Cores < want[j].Cores })
	for i := range want {
		if c.Types[i] != want[i] {
			t.Fatalf("Types[%d] = %s, want %s", i, c.Types[i].Name, want[i].Name)
		}
	}
}

// TestLoadFixtureSampleConfig05Failures checks one fixture field by field:
// the first and last jobs of its job file, its types and its trace.
func TestLoadFixtureSampleConfig05Failures(t *testing.T) {
	dir := fixtures.Dir(t)
	c, err := LoadConfig(filepath.Join(dir, "fixtures", "ds-sample-config05-failures", "config.xml"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ty := range c.Types {
		names = append(names, ty.Name)
	}
	if got := strings.Join(names, " "); got != "tiny small medium large xlarge" {
		t.Errorf("types %s", got)
	}
	if ty := c.Types[4]; ty != (ServerType{Name: "xlarge", Limit: 20, BootupTime: 60, HourlyRate: 1.6, Cores: 16, Memory: 64000, Disk: 512000}) {
		t.Errorf("xlarge = %+v", ty)
	}
	if c.Seed != 2000 {
		t.Errorf("seed %d", c.Seed)
	}
	if f := c.Failures[0]; f != (FailureRecord{Start: 0, End: 803, Type: "tiny", ID: 5}) {
		t.Errorf("first record %+v", f)
	}
	if f := c.Failures[2]; f != (FailureRecord{Start: 646, End: 2514, Type: "medium", ID: 9}) {
		t.Errorf("third record %+v", f)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "fixtures", "ds-sample-config05-failures", "jobs.xml"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	first := ""
	for _, l := range lines {
		if strings.Contains(l, "<job ") {
			first = strings.TrimSpace(l)
			break
		}
	}
	last := strings.TrimSpace(lines[len(lines)-2])
	want := func(j Job, withAct bool) string {
		s := string((&Config{Jobs: []Job{j}}).JobsXML(model.Year2025, withAct))
		return strings.TrimSpace(strings.Split(s, "\n")[3])
	}
	if got := want(c.Jobs[0], strings.Contains(first, "actRunTime")); got != first {
		t.Errorf("job 0 = %s\nfile: %s", got, first)
	}
	if got := want(c.Jobs[len(c.Jobs)-1], strings.Contains(last, "actRunTime")); got != last {
		t.Errorf("last job = %s\nfile: %s", got, last)
	}
}
