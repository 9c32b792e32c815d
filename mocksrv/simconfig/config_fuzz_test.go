package simconfig

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// fuzzBaseDir makes a folder with a small jobs.xml and failures.txt, the
// names the shared fixture configs use, so that fuzzed configs can reach the
// job-file and trace paths quickly.
func fuzzBaseDir(f *testing.F) string {
	dir := f.TempDir()
	jobs := `<jobs><job id="0" type="a" submitTime="1" estRunTime="5" cores="1" memory="100" disk="100" />` +
		`<job id="1" type="b" submitTime="3" estRunTime="5" actRunTime="9" cores="2" memory="100" disk="100" /></jobs>`
	if err := os.WriteFile(filepath.Join(dir, "jobs.xml"), []byte(jobs), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "failures.txt"), []byte("# t\n0 10 tiny 0\n5 7 small 1\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	return dir
}

// FuzzParseConfig: ParseConfig never panics, every error is a *ConfigError
// with stderr lines, and any config that loads satisfies the invariants of
// checkConfigInvariants.
func FuzzParseConfig(f *testing.F) {
	for _, p := range fixtures.Glob(f, "configs/*.xml") {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 0, 0)
	}
	for _, p := range fixtures.Glob(f, "fixtures/*/config.xml") {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 50, 3000)
	}
	for _, e := range edgeConfigs {
		f.Add([]byte(e.xml()), 0, 0)
	}
	f.Add([]byte(cfgBase), 0, 0)
	base := fuzzBaseDir(f)
	f.Fuzz(func(t *testing.T, data []byte, jobCount, endTime int) {
		var opt LoadOptions
		opt.BaseDir = base
		if jobCount != 0 {
			opt.JobCount, opt.JobCountGiven = jobCount, true
		}
		if endTime != 0 {
			opt.EndTime, opt.EndTimeGiven = endTime, true
		}
		// The warnings read any document without failing, each naming the
		// file, on one line.
		for _, w := range AttributeWarnings("fuzz.xml", data) {
			if !strings.HasPrefix(w, "fuzz.xml: ") || strings.Contains(w, "\n") {
				t.Fatalf("bad warning %q", w)
			}
		}
		c, err := ParseConfig("fuzz.xml", data, opt)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || len(ce.Stderr) == 0 || ce.Status != 1 || strings.Contains(ce.Error(), "\n") {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		checkConfigInvariants(t, c)
	})
}

// checkConfigInvariants checks what every loaded config guarantees.
func checkConfigInvariants(t *testing.T, c *Config) {
	t.Helper()
	if len(c.Types) == 0 || len(c.Types) > 100 || len(c.Types) != len(c.ConfigOrder) {
		t.Fatalf("%d types, %d in config order", len(c.Types), len(c.ConfigOrder))
	}
	want := append([]ServerType(nil), c.ConfigOrder...)
	sort.SliceStable(want, func(i, j int) bool { return want[i].Cores < want[j].Cores })
	for i, ty := range c.Types {
		if ty != want[i] {
			t.Fatalf("Types[%d] = %+v, want %+v (stable sort by cores)", i, ty, want[i])
		}
		if ty.Limit < 1 || ty.Limit > 1000 || ty.Cores < 1 || ty.Cores > 1024 || ty.BootupTime < 0 || ty.BootupTime > 600 ||
			ty.Memory < 1000 || ty.Disk < 1000 || ty.Memory < 200*ty.Cores || ty.Disk < 200*ty.Cores ||
			ty.HourlyRate == 0 || ty.HourlyRate == -1 || len(ty.Name) > 65 || ty.Name == "" {
			t.Fatalf("type out of bounds: %+v", ty)
		}
	}
	for i, j := range c.Jobs {
		if j.ID != i {
			t.Fatalf("job %d has id %d", i, j.ID)
		}
	}
	if !c.Generated {
		if c.JobFile == "" || c.JobCount != len(c.Jobs) || c.EndTime != 2592000 {
			t.Fatalf("job file %q: JobCount %d for %d jobs, EndTime %d", c.JobFile, c.JobCount, len(c.Jobs), c.EndTime)
		}
		return
	}
	checkGeneratedInvariants(t, c)
}

// checkGeneratedInvariants: the bounds job-generation.md §5 guarantees for
// every generated job.
func checkGeneratedInvariants(t *testing.T, c *Config) {
	t.Helper()
	if len(c.Jobs) == 0 || len(c.Jobs) > c.JobCount {
		t.Fatalf("%d jobs for jobcount %d", len(c.Jobs), c.JobCount)
	}
	if c.Workload == nil || c.Workload.MinLoad > c.Workload.MaxLoad {
		t.Fatalf("generated with workload %+v", c.Workload)
	}
	sum := 0
	byName := map[string][]JobType{} // names may repeat
	for _, jt := range c.JobTypes {
		sum += jt.PopulationRate
		if jt.MinRunTime < 1 || jt.MaxRunTime <= jt.MinRunTime || jt.MaxRunTime > 604800 {
			t.Fatalf("job type %+v", jt)
		}
		byName[jt.Name] = append(byName[jt.Name], jt)
	}
	if sum != 100 {
		t.Fatalf("rates sum to %d", sum)
	}
	L := c.Largest()
	prev := 0
	for i, j := range c.Jobs {
		inRange := false
		for _, jt := range byName[j.Type] {
			inRange = inRange || (j.ActRunTime >= jt.MinRunTime && j.ActRunTime <= jt.MaxRunTime-1)
		}
		if !inRange {
			t.Fatalf("job %d: act %d outside the run times of every job type named %q", i, j.ActRunTime, j.Type)
		}
		if j.EstRunTime < 1 || j.EstRunTime > 2*j.ActRunTime-1 {
			t.Fatalf("job %d: est %d for act %d", i, j.EstRunTime, j.ActRunTime)
		}
		if j.Cores < 1 || j.Cores > L.Cores || j.Memory < 0 || j.Memory > L.Memory || j.Disk < 0 || j.Disk > L.Disk {
			t.Fatalf("job %d: %+v exceeds the largest type %+v", i, j, L)
		}
		if (j.Memory%100 != 0 && j.Memory != L.Memory) || (j.Disk%100 != 0 && j.Disk != L.Disk) {
			t.Fatalf("job %d: memory/disk not rounded to 100: %+v", i, j)
		}
		if j.Submit < prev || (i < len(c.Jobs)-1 && j.Submit >= c.EndTime) {
			t.Fatalf("job %d: submit %d (previous %d, endtime %d)", i, j.Submit, prev, c.EndTime)
		}
		prev = j.Submit
	}
	if len(c.Jobs) < c.JobCount && c.Jobs[len(c.Jobs)-1].Submit < c.EndTime {
		t.Fatalf("stopped early: %d of %d jobs, last submit %d < endtime %d", len(c.Jobs), c.JobCount, prev, c.EndTime)
	}
	// ds-jobs.xml reads back as a job file with the same jobs (names that
	// need XML escaping are written raw by ds-server, so skip those).
	for _, jt := range c.JobTypes {
		if strings.ContainsAny(jt.Name, `<>&"`) {
			return
		}
	}
	back, e := jobfileParse("ds-jobs.xml", c.JobsXML(0, true))
	if e != nil {
		t.Fatalf("ds-jobs.xml does not read back: %v", e)
	}
	for i := range back {
		if back[i] != c.Jobs[i] {
			t.Fatalf("job %d reads back as %+v, was %+v", i, back[i], c.Jobs[i])
		}
	}
}
