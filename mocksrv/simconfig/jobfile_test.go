package simconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jobFileConfig writes a config that uses a job file with the given text in
// a temporary folder and loads it.
func jobFileConfig(t *testing.T, jobs string, opt LoadOptions) (*Config, error) {
	t.Helper()
	dir := t.TempDir()
	cfg := strings.Replace(cfgBase, "<jobs>", `<jobs file="jobs.xml">`, 1)
	cfg = strings.Replace(cfg, `<job type="short" minRunTime="1" maxRunTime="300" populationRate="60" />`, "", 1)
	cfg = strings.Replace(cfg, `<job type="long" minRunTime="301" maxRunTime="1800" populationRate="40" />`, "", 1)
	if err := os.WriteFile(filepath.Join(dir, "jobs.xml"), []byte(jobs), 0o644); err != nil {
		t.Fatal(err)
	}
	return ParseConfig(filepath.Join(dir, "c.xml"), []byte(cfg), opt)
}

const jobA = `<job id="0" type="a" submitTime="10" estRunTime="50" actRunTime="70" cores="2" memory="300" disk="400" />`

// TestJobFileAccepted: ds-server.md §2.7: every <job> anywhere, other
// elements ignored, actRunTime optional, values not validated, the
// termination reset.
func TestJobFileAccepted(t *testing.T) {
	jobs := `<?xml version="1.0"?>
<!-- comment -->
<jobs>
	<type name="a" minRunTime="1" maxRunTime="300" populationRate="100" />
	` + jobA + `
	<group><job id="1" type="b" submitTime="5" estRunTime="7" cores="64" memory="-1" disk="12abc" /></group>
</jobs>`
	c, err := jobFileConfig(t, jobs, LoadOptions{JobCount: 5, JobCountGiven: true, EndTime: 9, EndTimeGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Job{
		{ID: 0, Type: "a", Submit: 10, EstRunTime: 50, ActRunTime: 70, Cores: 2, Memory: 300, Disk: 400},
		{ID: 1, Type: "b", Submit: 5, EstRunTime: 7, ActRunTime: 7, Cores: 64, Memory: -1, Disk: 12},
	}
	if len(c.Jobs) != 2 || c.Jobs[0] != want[0] || c.Jobs[1] != want[1] {
		t.Errorf("jobs %+v\nwant %+v", c.Jobs, want)
	}
	if c.JobCount != 2 || c.EndTime != 2592000 || c.Generated {
		t.Errorf("JobCount %d EndTime %d Generated %v", c.JobCount, c.EndTime, c.Generated)
	}
}

// TestJobFileRejected: the messages of §2.7 and our rejections (ids out of
// order, unparsable files).
func TestJobFileRejected(t *testing.T) {
	cases := []struct {
		name, jobs string
		stderr     []string // before the invalid line; nil = our own message
		errMsg     string
		divergence bool
	}{
		{"id missing", strings.Replace(jobA, `id="0" `, "", 1), []string{"Error: Invalid job ID"}, "<job> 0: attribute id: missing", false},
		{"type missing", "<jobs>" + jobA + strings.Replace(strings.Replace(jobA, `type="a" `, "", 1), `id="0"`, `id="1"`, 1) + "</jobs>",
			[]string{`no "type" attribute specified in "job" element 1!`}, "<job> 1: attribute type", false},
		{"submitTime missing", strings.Replace(jobA, `submitTime="10" `, "", 1), []string{"Error: Invalid submit time"}, "submitTime", false},
		{"estRunTime missing", strings.Replace(jobA, `estRunTime="50" `, "", 1), []string{"Error: Invalid estimated run time"}, "estRunTime", false},
		{"cores missing", strings.Replace(jobA, `cores="2" `, "", 1), []string{"Error: Invalid core count"}, "cores", false},
		{"memory missing", strings.Replace(jobA, `memory="300" `, "", 1), []string{"Error: Invalid memory amount"}, "memory", false},
		{"disk missing", strings.Replace(jobA, `disk="400" `, "", 1), []string{"Error: Invalid disk amount"}, "disk", false},
		{"actRunTime no digits", strings.Replace(jobA, `actRunTime="70"`, `actRunTime="x"`, 1),
			[]string{"No digits were found!", "Error: Invalid actual run time"}, `"x": No digits were found!`, false},
		{"ids not in file order", strings.Replace(jobA, `id="0"`, `id="1"`, 1), nil, "job id 1 where id 0 was expected", true},
		{"submitTime negative", strings.Replace(jobA, `submitTime="10"`, `submitTime="-5"`, 1), nil,
			"line 1: <job> 0: attribute submitTime: submitTime -5 is negative", true},
		{"submitTime wraps negative", "<jobs>\n" + strings.Replace(jobA, `submitTime="10"`, `submitTime="4294967291"`, 1) + "</jobs>", nil,
			"line 2: <job> 0: attribute submitTime: submitTime -5 is negative", true},
		{"malformed", jobA + "<job", nil, "malformed XML", true},
		{"no root", "   ", nil, "no root element", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := jobFileConfig(t, tc.jobs, LoadOptions{})
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("%v; want a *ConfigError", err)
			}
			n := len(ce.Stderr)
			if n == 0 || !strings.HasPrefix(ce.Stderr[n-1], "Configuration file (") || !ce.Usage || ce.Status != 1 {
				t.Fatalf("stderr %q usage %v", ce.Stderr, ce.Usage)
			}
			if tc.stderr != nil && strings.Join(ce.Stderr[:n-1], "\n") != strings.Join(tc.stderr, "\n") {
				t.Errorf("stderr %q, want %q", ce.Stderr[:n-1], tc.stderr)
			}
			if !strings.HasPrefix(ce.Error(), "jobs.xml: line ") || !strings.Contains(ce.Error(), tc.errMsg) {
				t.Errorf("Error() = %q, want jobs.xml: line …%s", ce.Error(), tc.errMsg)
			}
			if (ce.Divergence != "") != tc.divergence {
				t.Errorf("divergence %q", ce.Divergence)
			}
		})
	}
}

// TestJobFileMissing: ds-server aborts; we reject clearly.
func TestJobFileMissing(t *testing.T) {
	cfg := strings.Replace(cfgBase, "<jobs>", `<jobs file="absent-jobs.xml">`, 1)
	_, err := ParseConfig(filepath.Join(t.TempDir(), "c.xml"), []byte(cfg), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), `job file "absent-jobs.xml" not found`) || ce.Divergence == "" || !ce.Usage {
		t.Fatalf("%v", err)
	}
}

// TestJobFileJobTypesForbidden: a <job> type element in a config with a job
// file (§2.4).
func TestJobFileJobTypesForbidden(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "jobs.xml"), []byte(jobA), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(cfgBase, "<jobs>", `<jobs file="jobs.xml">`, 1)
	_, err := ParseConfig(filepath.Join(dir, "c.xml"), []byte(cfg), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) || len(ce.Stderr) != 2 || ce.Stderr[0] != `The "jobs" element is missing!` {
		t.Fatalf("%#v", err)
	}
}
