package simconfig

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// docHashes reads the SHA-256 tables of the ds-jobs.xml ds-server writes
// (the job-generation specification's §11.2–§11.4, carried as
// internal/fixtures/testdata/tables/job-generation-sha256.tsv): first cell
// (config or run name) -> [standard, variant].
func docHashes(t *testing.T) map[string][2]string {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtures.Tables(t), "job-generation-sha256.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string][2]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if f := strings.Split(sc.Text(), "\t"); len(f) == 3 && !strings.HasPrefix(f[0], "#") {
			m[f[0]] = [2]string{f[1], f[2]}
		}
	}
	if len(m) < 50 {
		t.Fatalf("only %d hashes found in the table", len(m))
	}
	return m
}

// TestGeneratedJobsHashesShippedConfigs: every config in dssim/configs
// generates the ds-jobs.xml whose SHA-256 job-generation.md §11.2 lists
// (both forms). This covers the five s2-config0N files, which have no
// fixture.
func TestGeneratedJobsHashesShippedConfigs(t *testing.T) {
	hashes := docHashes(t)
	n := 0
	for _, p := range fixtures.Glob(t, "configs/*.xml") {
		name := strings.TrimSuffix(filepath.Base(p), ".xml")
		want, ok := hashes[name]
		if !ok {
			t.Errorf("%s: no hash in job-generation.md §11.2", name)
			continue
		}
		c, err := LoadConfig(p, LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := sha(c.JobsXML(model.Year2025, false)); got != want[0] {
			t.Errorf("%s: standard ds-jobs.xml SHA-256 %s, want %s", name, got, want[0])
		}
		if got := sha(c.JobsXML(model.Year2025, true)); got != want[1] {
			t.Errorf("%s: variant ds-jobs.xml SHA-256 %s, want %s", name, got, want[1])
		}
		n++
	}
	t.Logf("%d shipped configs checked against job-generation.md §11.2", n)
}

// Building blocks of job-generation.md §11.3.
const (
	edgeB4 = `<server type="tiny" limit="4" bootupTime="60" hourlyRate="0.1" cores="1" memory="1000" disk="4000" />
<server type="small" limit="4" bootupTime="60" hourlyRate="0.2" cores="2" memory="4000" disk="16000" />
<server type="medium" limit="3" bootupTime="60" hourlyRate="0.4" cores="4" memory="16000" disk="64000" />
<server type="large" limit="2" bootupTime="60" hourlyRate="0.8" cores="8" memory="32000" disk="256000" />`
	edgeJ3 = `<job type="short" minRunTime="1" maxRunTime="300" populationRate="50" />
<job type="medium" minRunTime="301" maxRunTime="1800" populationRate="35" />
<job type="long" minRunTime="1801" maxRunTime="20000" populationRate="15" />`
	edgeJ17 = `<job type="short" minRunTime="1" maxRunTime="300" populationRate="40" />
<job type="medium" minRunTime="301" maxRunTime="1800" populationRate="45" />
<job type="long" minRunTime="1801" maxRunTime="7200" populationRate="15" />`
)

// edgeServer writes a <server> line from the §11.3 tuple notation
// (limit, bootupTime, hourlyRate, cores, memory, disk).
func edgeServer(name string, limit int, rate string, cores, mem, disk int) string {
	return fmt.Sprintf(`<server type="%s" limit="%d" bootupTime="60" hourlyRate="%s" cores="%d" memory="%d" disk="%d" />`+"\n",
		name, limit, rate, cores, mem, disk)
}

// edgeConfig is one config of job-generation.md §11.3, rebuilt from its
// table row, with the expected job count and last submit time of its
// "Results" table.
type edgeConfig struct {
	name       string
	seed       string // randomSeed attribute; "-" = absent
	servers    string
	serversTag string // attributes of <servers>
	jobTypes   string
	workload   string // attributes after type="x"
	conditions string
	root       string // "" = config
	jobs, last int
}

func (e edgeConfig) xml() string {
	root := e.root
	if root == "" {
		root = "config"
	}
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<" + root)
	if e.seed != "-" {
		b.WriteString(` randomSeed="` + e.seed + `"`)
	}
	b.WriteString(">\n<servers" + e.serversTag + ">\n" + e.servers + "\n</servers>\n<jobs>\n" + e.jobTypes + "\n</jobs>\n")
	b.WriteString(`<workload type="x" ` + e.workload + " />\n<termination>\n" + e.conditions + "</termination>\n</" + root + ">\n")
	return b.String()
}

func cond(typ string, v int) string {
	return fmt.Sprintf(`<condition type="%s" value="%d" />`+"\n", typ, v)
}

var edgeConfigs = []edgeConfig{
	{name: "e01-single-type", seed: "777", servers: edgeServer("only", 5, "0.4", 4, 16000, 64000), jobTypes: edgeJ3,
		workload: `minLoad="30" maxLoad="70"`, conditions: cond("jobcount", 400), jobs: 400, last: 230959},
	{name: "e02-avgtimes", seed: "31337", servers: edgeB4, jobTypes: edgeJ3,
		workload:   `minLoad="20" maxLoad="80" avgLowTime="3600" avgHighTime="7200" avgTransitTime="3600"`,
		conditions: cond("endtime", 86400) + cond("jobcount", 3000), jobs: 390, last: 86841},
	{name: "e03-partial-avg", seed: "5", servers: edgeB4, jobTypes: edgeJ3,
		workload: `minLoad="10" maxLoad="90" avgHighTime="5000"`, conditions: cond("jobcount", 1500), jobs: 1500, last: 384089},
	{name: "e04-no-seed-no-term", seed: "-", servers: edgeB4, jobTypes: edgeJ3,
		workload: `minLoad="40" maxLoad="60"`, jobs: 1000, last: 235877},
	{name: "e05-equal-cores", seed: "99", jobTypes: edgeJ3, workload: `minLoad="30" maxLoad="80"`,
		servers: edgeServer("b8", 3, "0.8", 8, 9000, 20000) + edgeServer("a2", 5, "0.2", 2, 4000, 16000) +
			edgeServer("c8", 2, "0.8", 8, 32000, 256000) + edgeServer("d2", 1, "0.2", 2, 8000, 16000) +
			edgeServer("e4", 2, "0.4", 4, 16000, 64000) + edgeServer("f8", 1, "0.8", 8, 3000, 5000),
		conditions: cond("jobcount", 800), jobs: 800, last: 210937},
	{name: "e06-endtime-small", seed: "2024", servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="30" maxLoad="70"`,
		conditions: cond("endtime", 700) + cond("jobcount", 100000), jobs: 38, last: 779},
	{name: "e07-minmax-equal", seed: "42", servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="50" maxLoad="50"`,
		conditions: cond("jobcount", 600), jobs: 600, last: 140591},
	{name: "e08-large-seed", seed: "4294967297", servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="30" maxLoad="70"`,
		conditions: cond("jobcount", 200), jobs: 200, last: 42372},
	{name: "e09-seed-spaces", seed: "  +77abc", servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="30" maxLoad="70"`,
		conditions: cond("jobcount", 200), jobs: 200, last: 43754},
	{name: "e10-interval-clamp", seed: "8",
		servers:  edgeServer("s", 1, "0.2", 2, 4000, 16000) + edgeServer("m", 1, "0.4", 4, 16000, 64000),
		jobTypes: `<job type="huge" minRunTime="500000" maxRunTime="604800" populationRate="100" />`,
		workload: `minLoad="1" maxLoad="100"`, conditions: cond("jobcount", 60), jobs: 15, last: 2774772},
	{name: "e11-many-types", seed: "123", servers: edgeB4,
		jobTypes: `<job type="t1" minRunTime="1" maxRunTime="2" populationRate="1" />
<job type="t2" minRunTime="5" maxRunTime="6" populationRate="9" />
<job type="t3" minRunTime="10" maxRunTime="100" populationRate="20" />
<job type="t4" minRunTime="100" maxRunTime="101" populationRate="20" />
<job type="t5" minRunTime="1000" maxRunTime="4000" populationRate="30" />
<job type="t6" minRunTime="4000" maxRunTime="604800" populationRate="19" />
<job type="t7" minRunTime="604799" maxRunTime="604800" populationRate="1" />`,
		workload: `minLoad="60" maxLoad="99"`, conditions: cond("jobcount", 700), jobs: 700, last: 2350399},
	{name: "e12-bigcores-lowmem", seed: "6", jobTypes: edgeJ3, workload: `minLoad="30" maxLoad="90"`,
		servers: edgeServer("a", 3, "0.2", 12, 2400, 2400) + edgeServer("z", 2, "3.2", 64, 12800, 12800) +
			edgeServer("m", 4, "0.8", 30, 64000, 600000),
		conditions: cond("jobcount", 500), jobs: 500, last: 138805},
	{name: "e13-avg-order", seed: "1000", servers: edgeB4, jobTypes: edgeJ3,
		workload:   `minLoad="5" maxLoad="95" avgLowTime="43200" avgTransitTime="3600"`,
		conditions: cond("endtime", 200000) + cond("jobcount", 4000), jobs: 737, last: 200481},
	// e14 has failureModel="teragrid" on <servers>: the model's draws come
	// after the jobs (job-generation.md §9), so the jobs are those of the
	// reference with the model on.
	{name: "e14-failure-model", seed: "2000", serversTag: ` failureModel="teragrid"`, servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="30" maxLoad="70"`,
		conditions: cond("endtime", 20000) + cond("jobcount", 150), jobs: 101, last: 20015},
	{name: "e15-endtime-only", seed: "11", servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="30" maxLoad="70"`,
		conditions: cond("endtime", 30000), jobs: 134, last: 30264},
	{name: "e16-min99-max100", seed: "3", servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="99" maxLoad="100"`,
		conditions: cond("jobcount", 300), jobs: 300, last: 34737},
	{name: "e17-total100", seed: "5309", jobTypes: edgeJ17, workload: `minLoad="50" maxLoad="60"`,
		servers: edgeServer("tiny", 20, "0.1", 1, 2000, 8000) + edgeServer("small", 10, "0.2", 2, 4000, 16000) +
			edgeServer("medium", 5, "0.4", 4, 8000, 32000) + edgeServer("large", 5, "0.8", 8, 16000, 64000),
		conditions: cond("jobcount", 2500), jobs: 2500, last: 126540},
	{name: "e18-total50", seed: "77", jobTypes: edgeJ17, workload: `minLoad="25" maxLoad="60"`,
		servers: edgeServer("tiny", 10, "0.1", 1, 2000, 8000) + edgeServer("small", 4, "0.2", 2, 4000, 16000) +
			edgeServer("medium", 2, "0.4", 4, 8000, 32000) + edgeServer("large", 3, "0.8", 8, 16000, 64000),
		conditions: cond("jobcount", 2500), jobs: 2500, last: 345162},
	{name: "x02", seed: "-", root: "sim", servers: edgeB4, jobTypes: edgeJ3, workload: `minLoad="50" maxLoad="50"`,
		conditions: cond("jobcount", 600), jobs: 600},
	{name: "x04", seed: "19", servers: edgeB4, jobTypes: edgeJ3,
		workload:   `minLoad="30" maxLoad="70" avgLowTime="abc" avgTransitTime="4000"`,
		conditions: cond("endtime", 30000), jobs: 194},
}

// TestGeneratedJobsEdgeConfigs: the 18 edge configs and x02/x04 of
// job-generation.md §11.3, rebuilt from their table rows, generate files
// with the listed SHA-256, job count and last submit time.
func TestGeneratedJobsEdgeConfigs(t *testing.T) {
	hashes := docHashes(t)
	ok := 0
	for _, e := range edgeConfigs {
		t.Run(e.name, func(t *testing.T) {
			c, err := ParseConfig(e.name+".xml", []byte(e.xml()), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGenerated(t, c, e.jobs, e.last, hashes[e.name])
			if !t.Failed() {
				ok++
			}
		})
	}
	t.Logf("%d/%d edge configs of job-generation.md §11.3 identical", ok, len(edgeConfigs))
}

func checkGenerated(t *testing.T, c *Config, jobs, last int, want [2]string) {
	t.Helper()
	if len(c.Jobs) != jobs {
		t.Errorf("%d jobs, want %d", len(c.Jobs), jobs)
	}
	if last != 0 && len(c.Jobs) > 0 && c.Jobs[len(c.Jobs)-1].Submit != last {
		t.Errorf("last submit %d, want %d", c.Jobs[len(c.Jobs)-1].Submit, last)
	}
	if got := sha(c.JobsXML(model.Year2025, false)); got != want[0] {
		t.Errorf("standard SHA-256 %s, want %s", got, want[0])
	}
	if got := sha(c.JobsXML(model.Year2025, true)); got != want[1] {
		t.Errorf("variant SHA-256 %s, want %s", got, want[1])
	}
}

func findEdge(t *testing.T, name string) edgeConfig {
	for _, e := range edgeConfigs {
		if e.name == name {
			return e
		}
	}
	t.Fatalf("no edge config %s", name)
	return edgeConfig{}
}

// TestGeneratedJobsCommandLine: job-generation.md §11.4: -j and -d apply
// only where the file has no condition; -r is ignored with a <config>.
func TestGeneratedJobsCommandLine(t *testing.T) {
	hashes := docHashes(t)
	e04 := findEdge(t, "e04-no-seed-no-term").xml()
	e15 := findEdge(t, "e15-endtime-only").xml()
	dsc01, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "configs", "ds-sample-config01.xml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		run  string
		xml  string
		opt  LoadOptions
		jobs int
	}{
		{"e04 `-j 50 -d 3000`", e04, LoadOptions{JobCount: 50, JobCountGiven: true, EndTime: 3000, EndTimeGiven: true}, 38},
		{"e04 `-d 2000`", e04, LoadOptions{EndTime: 2000, EndTimeGiven: true}, 29},
		{"e15 `-j 40 -r 9`", e15, LoadOptions{JobCount: 40, JobCountGiven: true, Seed: 9, SeedGiven: true}, 40},
		{"ds-sample-config01 `-j 5 -d 100`", string(dsc01), LoadOptions{JobCount: 5, JobCountGiven: true, EndTime: 100, EndTimeGiven: true}, 10},
	}
	for _, tc := range cases {
		t.Run(tc.run, func(t *testing.T) {
			want, ok := hashes[tc.run]
			if !ok {
				t.Fatalf("no hash for %q in job-generation.md §11.4", tc.run)
			}
			c, err := ParseConfig("c.xml", []byte(tc.xml), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkGenerated(t, c, tc.jobs, 0, want)
		})
	}
}

// TestGeneratedJobsFailureModes: job-generation.md §11.3 special files and
// §12 item 7: x01 fails with a clear error where ds-server divides by zero,
// x03 (minLoad > maxLoad) is rejected before generating.
func TestGeneratedJobsFailureModes(t *testing.T) {
	x01 := edgeConfig{name: "x01", seed: "5", servers: edgeServer("t", 10, "0.1", 1, 2000, 8000),
		jobTypes: `<job type="short" minRunTime="1" maxRunTime="300" populationRate="100" />`,
		workload: `minLoad="30" maxLoad="70"`, conditions: cond("jobcount", 50)}
	x03 := edgeConfig{name: "x03", seed: "42", servers: edgeB4, jobTypes: edgeJ3,
		workload: `minLoad="60" maxLoad="40"`, conditions: cond("jobcount", 600)}
	cases := []struct {
		name, xml, msg string
		stderr         []string
	}{
		{"x01", x01.xml(), "divides by zero", []string{"cannot generate job 0: the largest server type has 1 core, and ds-server's upper-half core rule divides by zero"}},
		{"x03", x03.xml(), "Min load (60) should be less than max load (40)!", []string{"Min load (60) should be less than max load (40)!"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig(tc.name+".xml", []byte(tc.xml), LoadOptions{})
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, %v; want a *ConfigError", c, err)
			}
			if !strings.Contains(ce.Error(), tc.msg) || ce.Usage || ce.Status != 1 || ce.Divergence == "" {
				t.Errorf("error %q (usage %v, status %d, divergence %q)", ce.Error(), ce.Usage, ce.Status, ce.Divergence)
			}
			if tc.stderr != nil && strings.Join(ce.Stderr, "\n") != strings.Join(tc.stderr, "\n") {
				t.Errorf("stderr %q, want %q", ce.Stderr, tc.stderr)
			}
		})
	}
}
