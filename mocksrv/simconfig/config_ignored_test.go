package simconfig

import (
	"slices"
	"testing"
	"testing/fstest"
)

// TestIgnoredOptions: -r, -j and -d are listed when the configuration
// leaves them without effect (job-generation.md §3.2, §3.6; ds-server.md
// §8), and only then.
func TestIgnoredOptions(t *testing.T) {
	const jobFile = `<jobs file="j.xml" />`
	generated := `<jobs>
    <job type="short" minRunTime="1" maxRunTime="300" populationRate="60" />
    <job type="long" minRunTime="301" maxRunTime="1800" populationRate="40" />
  </jobs>`
	noConditions := []string{`<condition type="endtime" value="604800" />`, "", `<condition type="jobcount" value="20" />`, ""}
	all := LoadOptions{Seed: 7, SeedGiven: true, JobCount: 5, JobCountGiven: true, EndTime: 100, EndTimeGiven: true}
	viaFile := "the jobs come from the config's job file j.xml"
	for _, tc := range []struct {
		name  string
		edits []string
		opt   LoadOptions
		want  []string
	}{
		{"none given", nil, LoadOptions{}, nil},
		{"config overrides all three", nil, all, []string{
			"-r 7 has no effect: the config's randomSeed 1024 overrides it",
			"-j 5 has no effect: the config's jobcount 20 overrides it",
			"-d 100 has no effect: the config's endtime 604800 overrides it"}},
		{"no randomSeed", []string{`<config randomSeed="1024">`, "<config>"}, LoadOptions{Seed: 7, SeedGiven: true},
			[]string{"-r 7 has no effect: the config's <config> element seeds with 1024 (it has no randomSeed)"}},
		{"no conditions: -j and -d count", noConditions, all, []string{
			"-r 7 has no effect: the config's randomSeed 1024 overrides it"}},
		{"job file", append([]string{generated, jobFile}, noConditions...), all, []string{
			"-r 7 has no effect: the config's randomSeed 1024 overrides it",
			"-j 5 has no effect: " + viaFile,
			"-d 100 has no effect: " + viaFile + " (with a failure model it would set the failures' horizon)"}},
		{"job file and a failure model: -d is the horizon", append([]string{generated, jobFile, "<servers>", `<servers failureModel="teragrid">`}, noConditions...),
			LoadOptions{EndTime: 100, EndTimeGiven: true}, nil},
		{"job file, no <config>: -r draws nothing", []string{generated, jobFile, `<config randomSeed="1024">`, "<cfg>", "</config>", "</cfg>"},
			LoadOptions{Seed: 7, SeedGiven: true}, []string{"-r 7 has no effect: " + viaFile + " and no failure model draws numbers"}},
		{"no <config>: -r seeds", []string{`<config randomSeed="1024">`, "<cfg>", "</config>", "</cfg>"},
			LoadOptions{Seed: 7, SeedGiven: true}, nil},
		{"-l: the config gives the limits", nil, LoadOptions{Limit: 3, LimitGiven: true},
			[]string{"-l 3 has no effect: the config's <server> limits give the servers per type"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xml := edit(t, tc.edits...)
			opt := tc.opt
			opt.FS = fstest.MapFS{"j.xml": {Data: []byte(`<jobs><job id="0" type="x" submitTime="5" estRunTime="9" cores="1" memory="100" disk="100" /></jobs>`)}}
			c, err := ParseConfig("c.xml", []byte(xml), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.IgnoredOptions, tc.want) {
				t.Errorf("got  %q\nwant %q", c.IgnoredOptions, tc.want)
			}
		})
	}
}

// TestRandomIgnored: without a configuration, -f is accepted and
// generates no failures, so it is named, and -g and -s with it
// (failure-models.md §12.5); -r, -j, -d and -l count and are not.
func TestRandomIgnored(t *testing.T) {
	model := LoadOptions{Failure: "teragrid", FailureGiven: true}
	tuned := model
	tuned.Grain, tuned.GrainGiven, tuned.Scale, tuned.ScaleGiven = 600, true, 50, true
	for _, tc := range []struct {
		name string
		opt  LoadOptions
		want []string
	}{
		{"-r -j -d -l count", LoadOptions{Seed: 7, SeedGiven: true, JobCount: 5, JobCountGiven: true, EndTime: 100, EndTimeGiven: true, Limit: 2, LimitGiven: true}, nil},
		{"-f", model, []string{"-f teragrid generates no failures without -c, as in ds-server (ds-res-failures.txt gets its header only)"}},
		{"-f -g -s", tuned, []string{"-f teragrid generates no failures without -c, as in ds-server (ds-res-failures.txt gets its header only)",
			"-g 600 has no effect: -f generates no failures without -c", "-s 50 has no effect: -f generates no failures without -c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := RandomConfig(tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.IgnoredOptions, tc.want) {
				t.Errorf("got  %q\nwant %q", c.IgnoredOptions, tc.want)
			}
		})
	}
}
