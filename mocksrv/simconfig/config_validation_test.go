package simconfig

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cfgBase is a small valid configuration that generates jobs; validation
// cases edit it with string replacements.
const cfgBase = `<?xml version="1.0" encoding="UTF-8"?>
<config randomSeed="1024">
  <servers>
    <server type="small" limit="2" bootupTime="60" hourlyRate="0.2" cores="2" memory="4000" disk="16000" />
    <server type="big" limit="1" bootupTime="60" hourlyRate="0.8" cores="8" memory="32000" disk="64000" />
  </servers>
  <jobs>
    <job type="short" minRunTime="1" maxRunTime="300" populationRate="60" />
    <job type="long" minRunTime="301" maxRunTime="1800" populationRate="40" />
  </jobs>
  <workload type="x" minLoad="30" maxLoad="70" />
  <termination>
    <condition type="endtime" value="604800" />
    <condition type="jobcount" value="20" />
  </termination>
</config>
`

// edit applies old, new replacement pairs to cfgBase; each old must occur.
func edit(t *testing.T, pairs ...string) string {
	t.Helper()
	s := cfgBase
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("edit: %q not in the base config", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

const inv = "Configuration file (c.xml) invalid!"

func manyServers(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<server type="s%d" limit="1" bootupTime="0" hourlyRate="1" cores="1" memory="1000" disk="1000" />`, i)
	}
	return b.String()
}

func manyJobTypes(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<job type="j%d" minRunTime="1" maxRunTime="2" populationRate="1" />`, i)
	}
	return b.String()
}

// TestConfigValidation: each rule of ds-server.md §2.2–§2.6 with the exact
// stderr lines, the Usage flag and the exit status.
func TestConfigValidation(t *testing.T) {
	long66 := strings.Repeat("x", 66)
	bigSrv := `<server type="big" limit="1" bootupTime="60" hourlyRate="0.8" cores="8" memory="32000" disk="64000" />`
	cases := []struct {
		name   string
		xml    string
		opt    LoadOptions
		stderr []string
		usage  bool
		errMsg string // substring of Error()
	}{
		// <server> (§2.3)
		{"cores 0", edit(t, `cores="8"`, `cores="0"`), LoadOptions{},
			[]string{"0: Out of bound! (1 - 1024); Core count limit", inv}, true,
			"c.xml: <server> 2 (big): attribute cores: 0: Out of bound! (1 - 1024); Core count limit"},
		{"cores 1025", edit(t, `cores="8"`, `cores="1025"`), LoadOptions{}, []string{"1025: Out of bound! (1 - 1024); Core count limit", inv}, true, "attribute cores"},
		{"cores missing", edit(t, `cores="8" `, ``), LoadOptions{}, []string{"Error: Core count", inv}, true, "<server> 2 (big): attribute cores: missing"},
		{"limit missing", edit(t, `limit="2" `, ``), LoadOptions{}, []string{"Error: Resource limit", inv}, true, "attribute limit: missing"},
		{"limit no digits", edit(t, `limit="2"`, `limit="abc"`), LoadOptions{}, []string{"No digits were found!", inv}, true, `"abc": No digits were found!`},
		{"limit 1001", edit(t, `limit="2"`, `limit="1001"`), LoadOptions{}, []string{"1001: Out of bound! (1 - 1000); Resource limit (#servers/type)", inv}, true, "limit"},
		{"limit 0", edit(t, `limit="1"`, `limit="0"`), LoadOptions{}, []string{"0: Out of bound! (1 - 1000); Resource limit (#servers/type)", inv}, true, "limit"},
		{"limit 64-bit overflow", edit(t, `limit="2"`, `limit="99999999999999999999"`), LoadOptions{}, []string{"strtol: Numerical result out of range", inv}, true, "out of range"},
		{"bootupTime 601", edit(t, `bootupTime="60"`, `bootupTime="601"`), LoadOptions{}, []string{"601: Out of bound! (0 - 600); Server bootup time", inv}, true, "bootupTime"},
		{"bootupTime -1", edit(t, `bootupTime="60"`, `bootupTime="-1"`), LoadOptions{}, []string{"-1: Out of bound! (0 - 600); Server bootup time", inv}, true, "bootupTime"},
		{"bootupTime missing", edit(t, `bootupTime="60" `, ``), LoadOptions{}, []string{"Error: Bootup time", inv}, true, "bootupTime"},
		{"memory 999", edit(t, `memory="4000"`, `memory="999"`), LoadOptions{}, []string{"999: Out of bound! (1000 - 2147483647); Memory limit", inv}, true, "memory"},
		{"memory wraps to 1", edit(t, `memory="4000"`, `memory="4294967297"`), LoadOptions{}, []string{"1: Out of bound! (1000 - 2147483647); Memory limit", inv}, true, "memory"},
		{"memory missing", edit(t, `memory="4000" `, ``), LoadOptions{}, []string{"Error: The amount of memory", inv}, true, "memory"},
		{"disk 0", edit(t, `disk="16000"`, `disk="0"`), LoadOptions{}, []string{"0: Out of bound! (1000 - 2147483647); Disk limit", inv}, true, "disk"},
		{"disk missing", edit(t, `disk="16000" `, ``), LoadOptions{}, []string{"Error: The amount of storage", inv}, true, "disk"},
		{"type missing", edit(t, `type="big" `, ``), LoadOptions{}, []string{`no "type" attribute specified in "server" element 2!`, inv}, true, "<server> 2: attribute type: missing"},
		{"type too long", edit(t, `type="big"`, `type="`+long66+`"`), LoadOptions{}, []string{"ERR: server type name, " + long66 + " is too long (max: 65)", inv}, true, "too long"},
		{"hourlyRate -1", edit(t, `hourlyRate="0.8"`, `hourlyRate="-1"`), LoadOptions{}, []string{inv}, true, "the rate -1 is rejected"},
		{"hourlyRate -1.0", edit(t, `hourlyRate="0.8"`, `hourlyRate="-1.0"`), LoadOptions{}, []string{inv}, true, "rejected"},
		{"hourlyRate no digits", edit(t, `hourlyRate="0.8"`, `hourlyRate="x"`), LoadOptions{}, []string{"No digits were found!", inv}, true, "hourlyRate"},
		{"hourlyRate 0", edit(t, `hourlyRate="0.8"`, `hourlyRate="0"`), LoadOptions{}, []string{"The (hourly) rental rate of server big missing!"}, false, "rental rate"},
		{"hourlyRate missing", edit(t, `hourlyRate="0.2" `, ``), LoadOptions{},
			[]string{"Error: Server rental rate", "The (hourly) rental rate of server small missing!"}, false, "rental rate"},
		{"notes precede a later error", edit(t, `hourlyRate="0.2" `, ``, `cores="8"`, `cores="0"`), LoadOptions{},
			[]string{"Error: Server rental rate", "0: Out of bound! (1 - 1024); Core count limit", inv}, true, "cores"},
		{"second servers", edit(t, `</servers>`, `</servers><servers>`+bigSrv+`</servers>`), LoadOptions{},
			[]string{`Only one system ("servers" element) is supported!`, inv}, true, "<servers>"},
		{"101 server types", edit(t, bigSrv, manyServers(99)+bigSrv), LoadOptions{}, []string{"Too many server types (max: 100)", inv}, true, "<server> 101"},
		{"server before servers", edit(t, `<servers>`, bigSrv+`<servers>`), LoadOptions{}, []string{inv}, true, "before any <servers>"},
		{"no servers", edit(t, `<servers>`, `<x>`, `</servers>`, `</x>`, `<server type="small"`, `<srv type="small"`, `<server type="big"`, `<srv type="big"`), LoadOptions{}, []string{"c.xml: no <servers> element", inv}, true, "no <servers>"},
		{"empty servers", edit(t, bigSrv, ``, `<server type="small" limit="2" bootupTime="60" hourlyRate="0.2" cores="2" memory="4000" disk="16000" />`, ``), LoadOptions{},
			[]string{"c.xml: <servers>: no <server> element", inv}, true, "no <server> element"},
		// Post-load checks, in sorted order, own message only (§2.3).
		{"memory per core", edit(t, `memory="32000"`, `memory="1500"`), LoadOptions{}, []string{"Insufficient memory (min/core: 200 for server type: big)!"}, false, "Insufficient memory"},
		{"disk per core", edit(t, `disk="64000"`, `disk="1599"`), LoadOptions{}, []string{"Insufficient disk space (min/core: 200 for server type: big)!"}, false, "Insufficient disk"},
		{"post-load checks in sorted order", edit(t, bigSrv, `<server type="z" limit="1" bootupTime="0" hourlyRate="1" cores="8" memory="1000" disk="9000" />`+
			`<server type="a" limit="1" bootupTime="0" hourlyRate="1" cores="6" memory="9000" disk="1000" />`),
			LoadOptions{}, []string{"Insufficient disk space (min/core: 200 for server type: a)!"}, false, "type: a"},
		// <jobs> and <job> (§2.4)
		{"minRunTime 0", edit(t, `minRunTime="1"`, `minRunTime="0"`), LoadOptions{}, []string{"0: Out of bound! (1 - 604799); Job run time", inv}, true, "<job> 1 (short): attribute minRunTime"},
		{"maxRunTime 604801", edit(t, `maxRunTime="1800"`, `maxRunTime="604801"`), LoadOptions{}, []string{"604801: Out of bound! (1 - 604800); Job run time", inv}, true, "maxRunTime"},
		{"min = max", edit(t, `maxRunTime="300"`, `maxRunTime="1"`), LoadOptions{}, []string{"max job runtime must be greater than min job runtime!", inv}, true, "greater"},
		{"min > max", edit(t, `maxRunTime="1800"`, `maxRunTime="300"`), LoadOptions{}, []string{"max job runtime must be greater than min job runtime!", inv}, true, "greater"},
		{"populationRate 101", edit(t, `populationRate="60"`, `populationRate="101"`), LoadOptions{}, []string{"101: Out of bound! (1 - 100); Job population rate", inv}, true, "populationRate"},
		{"populationRate 0", edit(t, `populationRate="60"`, `populationRate="0"`), LoadOptions{}, []string{"0: Out of bound! (1 - 100); Job population rate", inv}, true, "populationRate"},
		{"rates sum to 90", edit(t, `populationRate="60"`, `populationRate="50"`), LoadOptions{}, []string{inv}, true, "sum to 90, not 100"},
		{"rates sum to 110", edit(t, `populationRate="60"`, `populationRate="70"`), LoadOptions{}, []string{inv}, true, "sum to 110"},
		{"no job types", edit(t, `<jobs>`, `<x>`, `</jobs>`, `</x>`), LoadOptions{}, []string{`The "jobs" element is missing!`, inv}, true, "before any <jobs>"},
		{"job type name missing", edit(t, `type="long" `, ``), LoadOptions{}, []string{`no "type" attribute specified in "job" element 2!`, inv}, true, "<job> 2"},
		{"job type name too long", edit(t, `type="long"`, `type="`+long66+`"`), LoadOptions{}, []string{"ERR: job type name, " + long66 + " is too long (max: 65)", inv}, true, "too long"},
		{"second jobs", edit(t, `</jobs>`, `</jobs><jobs/>`), LoadOptions{}, []string{`Only one set of job types ("jobs" element) is supported!`, inv}, true, "<jobs>"},
		{"128 job types", edit(t, `<jobs>`, `<jobs>`+manyJobTypes(126)), LoadOptions{}, []string{"Too many job types (max: 127)", inv}, true, "<job> 128"},
		// <workload> (§2.5)
		{"workload type missing", edit(t, `<workload type="x" `, `<workload `), LoadOptions{}, []string{`no "type" attribute specified in "workload" element!`, inv}, true, "<workload>: attribute type"},
		{"minLoad 0", edit(t, `minLoad="30"`, `minLoad="0"`), LoadOptions{}, []string{"0: Out of bound! (1 - 99); Min load limit", inv}, true, "minLoad"},
		{"minLoad 100", edit(t, `minLoad="30"`, `minLoad="100"`), LoadOptions{}, []string{"100: Out of bound! (1 - 99); Min load limit", inv}, true, "minLoad"},
		{"maxLoad 101", edit(t, `maxLoad="70"`, `maxLoad="101"`), LoadOptions{}, []string{"101: Out of bound! (1 - 100); Max load limit", inv}, true, "maxLoad"},
		{"avgLowTime 3599", edit(t, `maxLoad="70"`, `maxLoad="70" avgLowTime="3599"`), LoadOptions{}, []string{"3599: Out of bound! (3600 - 43200); Time limit of load state", inv}, true, "avgLowTime"},
		{"avgTransitTime 43201", edit(t, `maxLoad="70"`, `maxLoad="70" avgTransitTime="43201"`), LoadOptions{}, []string{"43201: Out of bound! (3600 - 43200); Time limit of load state", inv}, true, "avgTransitTime"},
		{"minLoad > maxLoad", edit(t, `minLoad="30" maxLoad="70"`, `minLoad="70" maxLoad="30"`), LoadOptions{}, []string{"Min load (70) should be less than max load (30)!"}, false, "Min load"},
		{"second workload", edit(t, `<termination>`, `<workload type="y" minLoad="1" maxLoad="2" /><termination>`), LoadOptions{},
			[]string{`Only one workload pattern ("workload" element) is supported!`, inv}, true, "<workload>"},
		{"no workload", edit(t, `<workload type="x" minLoad="30" maxLoad="70" />`, ``), LoadOptions{},
			[]string{"c.xml: no <workload> element: cannot generate jobs without one (give a <workload> or a <jobs file=…>)"}, false, "no <workload>"},
		// <condition> (§2.6)
		{"condition type", edit(t, `type="endtime"`, `type="time"`), LoadOptions{}, []string{`Error: invalid "type" attribute!`, inv}, true, "<condition> 1"},
		{"condition type missing", edit(t, `type="endtime" `, ``), LoadOptions{}, []string{`Error: invalid "type" attribute!`, inv}, true, "<condition> 1"},
		{"condition value missing", edit(t, `value="20"`, ``), LoadOptions{}, []string{"Error: Termination condition value", inv}, true, "<condition> 2 (jobcount)"},
		{"endtime 0", edit(t, `value="604800"`, `value="0"`), LoadOptions{}, []string{"0: Out of bound! (1 - 2592000); Simulation end time", inv}, true, "endtime"},
		{"endtime 2592001", edit(t, `value="604800"`, `value="2592001"`), LoadOptions{}, []string{"2592001: Out of bound! (1 - 2592000); Simulation end time", inv}, true, "endtime"},
		{"jobcount 1000001", edit(t, `value="20"`, `value="1000001"`), LoadOptions{}, []string{"1000001: Out of bound! (1 - 1000000); Max Job count", inv}, true, "jobcount"},
		// <config> (§2.2)
		{"randomSeed 0", edit(t, `randomSeed="1024"`, `randomSeed="0"`), LoadOptions{}, []string{"0: Out of bound! (1 - 4294967295); Random seed limit", inv}, true, "<config>: attribute randomSeed"},
		{"randomSeed 2^31 is negative", edit(t, `randomSeed="1024"`, `randomSeed="2147483648"`), LoadOptions{}, []string{"-2147483648: Out of bound! (1 - 4294967295); Random seed limit", inv}, true, "randomSeed"},
		{"randomSeed no digits", edit(t, `randomSeed="1024"`, `randomSeed="seed"`), LoadOptions{}, []string{"No digits were found!", inv}, true, "randomSeed"},
		// Failure attributes (§2.3, Appendix C)
		{"failure model name", edit(t, `<servers>`, `<servers failureModel="bogus">`), LoadOptions{}, []string{"Invalid resource failure model!", inv}, true, "failureModel"},
		{"failure model name is case-sensitive", edit(t, `<servers>`, `<servers failureModel="G5K06">`), LoadOptions{}, []string{"Invalid resource failure model!", inv}, true, "failureModel"},
		{"failureTimeGrain 59", edit(t, `<servers>`, `<servers failureTimeGrain="59">`), LoadOptions{}, []string{"59: Out of bound! (60 - 3600); Server failure time granularity", inv}, true, "failureTimeGrain"},
		{"failureFile missing", edit(t, `<servers>`, `<servers failureFile="absent.txt">`), LoadOptions{}, []string{"absent.txt: no such file found!", inv}, true, "failureFile"},
		{"-f and failure attributes", edit(t, `<servers>`, `<servers failureTimeGrain="300">`), LoadOptions{Failure: "teragrid", FailureGiven: true},
			[]string{"The '-f' command line option is used already!", inv}, true, "-f"},
		{"-f trace missing", cfgBase, LoadOptions{Failure: "absent.txt", FailureGiven: true}, []string{"absent.txt: no such file found!", inv}, true, "option -f: absent.txt: no such file found! (nor is it a failure model: teragrid, nd07cpu, websites02, ldns04, pl05, g5k06)"},
		// XML the reference aborts on (Appendix D)
		{"malformed XML", edit(t, `</jobs>`, `</job>`), LoadOptions{}, nil, true, "malformed XML"},
		{"two roots", cfgBase + "<config/>", LoadOptions{}, nil, true, "a second root element"},
		{"repeated attribute", edit(t, `cores="8"`, `cores="8" cores="9"`), LoadOptions{}, nil, true, "attribute cores repeated"},
		{"empty document", "", LoadOptions{}, nil, true, "no root element"},
		// Command-line values (§8): bound message and Usage, no "invalid" line.
		{"-d 0", cfgBase, LoadOptions{EndTime: 0, EndTimeGiven: true}, []string{"0: Out of bound! (1 - 2592000); Simulation end time"}, true, "option -d"},
		{"-j 1000001", cfgBase, LoadOptions{JobCount: 1000001, JobCountGiven: true}, []string{"1000001: Out of bound! (1 - 1000000); Max Job count"}, true, "option -j"},
		{"-r 0", cfgBase, LoadOptions{Seed: 0, SeedGiven: true}, []string{"0: Out of bound! (1 - 4294967295); Random seed limit"}, true, "option -r"},
		{"-g 3601", cfgBase, LoadOptions{Grain: 3601, GrainGiven: true}, []string{"3601: Out of bound! (60 - 3600); Server failure time granularity"}, true, "option -g"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig("c.xml", []byte(tc.xml), tc.opt)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("loaded (%v); want a *ConfigError", err)
			}
			if c != nil {
				t.Errorf("config returned with an error")
			}
			if tc.stderr == nil { // crash cases: our message, then the invalid line
				if len(ce.Stderr) != 2 || ce.Stderr[1] != inv || !strings.HasPrefix(ce.Stderr[0], "c.xml: ") || ce.Divergence == "" {
					t.Errorf("stderr %q divergence %q", ce.Stderr, ce.Divergence)
				}
			} else if strings.Join(ce.Stderr, "\n") != strings.Join(tc.stderr, "\n") {
				t.Errorf("stderr\n got %q\nwant %q", ce.Stderr, tc.stderr)
			}
			if ce.Usage != tc.usage || ce.Status != 1 {
				t.Errorf("usage %v status %d; want usage %v status 1", ce.Usage, ce.Status, tc.usage)
			}
			if !strings.Contains(ce.Error(), tc.errMsg) || strings.Contains(ce.Error(), "\n") {
				t.Errorf("Error() = %q; want it to contain %q on one line", ce.Error(), tc.errMsg)
			}
		})
	}
}

// TestConfigAccepted: inputs ds-server accepts, with the values it uses.
func TestConfigAccepted(t *testing.T) {
	cases := []struct {
		name     string
		xml      string
		opt      LoadOptions
		check    func(c *Config) string
		warnings []string
	}{
		{"strtol prefix", edit(t, `limit="2"`, `limit=" +12abc"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.ConfigOrder[0].Limit == 12)
		}, nil},
		{"hourlyRate not range checked", edit(t, `hourlyRate="0.2"`, `hourlyRate="2000000"`, `hourlyRate="0.8"`, `hourlyRate="-2"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.ConfigOrder[0].HourlyRate == 2000000 && c.ConfigOrder[1].HourlyRate == -2)
		}, nil},
		{"hourlyRate NaN with a sign, inf (strtod)", edit(t, `hourlyRate="0.2"`, `hourlyRate="-nan"`, `hourlyRate="0.8"`, `hourlyRate="inf"`), LoadOptions{}, func(c *Config) string {
			r0, r1 := float64(c.ConfigOrder[0].HourlyRate), float64(c.ConfigOrder[1].HourlyRate)
			return fmt.Sprint(math.IsNaN(r0) && math.Signbit(r0) && math.IsInf(r1, 1))
		}, nil},
		{"hourlyRate float32", edit(t, `hourlyRate="0.2"`, `hourlyRate="0.1abc"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.ConfigOrder[0].HourlyRate == float32(0.1))
		}, nil},
		{"name of 65 bytes", edit(t, `type="big"`, `type="`+strings.Repeat("b", 65)+`"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.Types[1].Name == strings.Repeat("b", 65))
		}, nil},
		{"absent durations take maxLoad", cfgBase, LoadOptions{}, func(c *Config) string {
			w := c.Workload
			return fmt.Sprint(w.AvgLowTime == 70 && w.AvgHighTime == 70 && w.AvgTransitTime == 70)
		}, nil},
		{"durations carry over", edit(t, `maxLoad="70"`, `maxLoad="70" avgHighTime="5000"`), LoadOptions{}, func(c *Config) string {
			w := c.Workload
			return fmt.Sprint(w.AvgLowTime == 70 && w.AvgHighTime == 5000 && w.AvgTransitTime == 5000)
		}, nil},
		{"duration without digits", edit(t, `maxLoad="70"`, `maxLoad="70" avgLowTime="abc" avgTransitTime="4000"`), LoadOptions{}, func(c *Config) string {
			w := c.Workload
			return fmt.Sprint(w.AvgLowTime == -1 && w.AvgHighTime == -1 && w.AvgTransitTime == 4000)
		}, []string{"No digits were found!"}},
		{"seed truncated to 32 bits", edit(t, `randomSeed="1024"`, `randomSeed="4294967297"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.Seed == 1)
		}, nil},
		{"seed with spaces and sign", edit(t, `randomSeed="1024"`, `randomSeed="  +77abc"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.Seed == 77)
		}, nil},
		{"missing seed is 1024, -r ignored", edit(t, ` randomSeed="1024"`, ``), LoadOptions{Seed: 5, SeedGiven: true}, func(c *Config) string {
			return fmt.Sprint(c.Seed == 1024)
		}, nil},
		{"no <config>: seed 1", edit(t, `<config randomSeed="1024">`, `<sim>`, `</config>`, `</sim>`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.Seed == 1)
		}, nil},
		{"no <config>: -r seeds", edit(t, `<config randomSeed="1024">`, `<sim>`, `</config>`, `</sim>`), LoadOptions{Seed: 5, SeedGiven: true}, func(c *Config) string {
			return fmt.Sprint(c.Seed == 5)
		}, nil},
		{"newline", edit(t, `randomSeed="1024"`, `randomSeed="1024" newline="true"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.Newline)
		}, nil},
		{"repeated condition: last wins", edit(t, `<condition type="jobcount" value="20" />`, `<condition type="jobcount" value="20" /><condition type="jobcount" value="7" />`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.JobCount == 7 && len(c.Jobs) == 7)
		}, nil},
		{"conditions beat -j -d", cfgBase, LoadOptions{JobCount: 3, JobCountGiven: true, EndTime: 5, EndTimeGiven: true}, func(c *Config) string {
			return fmt.Sprint(c.JobCount == 20 && c.EndTime == 604800)
		}, nil},
		{"-j -d without conditions", edit(t, `<condition type="endtime" value="604800" />`, ``, `<condition type="jobcount" value="20" />`, ``), LoadOptions{JobCount: 3, JobCountGiven: true, EndTime: 5000, EndTimeGiven: true}, func(c *Config) string {
			return fmt.Sprint(c.JobCount == 3 && c.EndTime == 5000 && len(c.Jobs) == 3)
		}, nil},
		{"defaults", edit(t, `<condition type="endtime" value="604800" />`, ``, `<condition type="jobcount" value="20" />`, ``), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.JobCount == 1000 && c.EndTime == 2592000)
		}, nil},
		{"server after </servers>", edit(t, `</servers>`, `</servers><server type="late" limit="1" bootupTime="0" hourlyRate="1" cores="16" memory="9000" disk="9000" />`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(len(c.Types) == 3 && c.Largest().Name == "late")
		}, nil},
		{"nested unknown elements visited", edit(t, `<servers>`, `<a><servers>`, `</servers>`, `</servers></a>`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(len(c.Types) == 2)
		}, nil},
		{"UTF-8 byte order mark", "\xef\xbb\xbf" + cfgBase, LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(len(c.Jobs) == 20)
		}, nil},
		{"entities decoded in names", edit(t, `type="short"`, `type="s&amp;t"`), LoadOptions{}, func(c *Config) string {
			return fmt.Sprint(c.JobTypes[0].Name == "s&t" && strings.Contains(string(c.JobsXML(0, false)), `<type name="s&t" `))
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig("c.xml", []byte(tc.xml), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.check(c); got != "true" {
				t.Errorf("check failed: %+v %+v", c.ConfigOrder, c.Workload)
			}
			if strings.Join(c.Warnings, "\n") != strings.Join(tc.warnings, "\n") {
				t.Errorf("warnings %q, want %q", c.Warnings, tc.warnings)
			}
		})
	}
}

// TestLoadConfigMissingFile: ds-server's -c check (§2.1).
func TestLoadConfigMissingFile(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "nope.xml"), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) || len(ce.Stderr) != 1 || !strings.HasPrefix(ce.Stderr[0], "No such file (") ||
		!strings.HasSuffix(ce.Stderr[0], "nope.xml) exist!") || !ce.Usage {
		t.Fatalf("%#v", err)
	}
}

// TestConfigErrorReport: Report prints the stderr lines and the Usage line.
func TestConfigErrorReport(t *testing.T) {
	_, err := ParseConfig("c.xml", []byte(edit(t, `cores="8"`, `cores="0"`)), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	if e := ce.Report(&out, &errb, "ds-server"); e != nil {
		t.Fatal(e)
	}
	if out.String() != "Usage: ds-server -h all\n" || errb.String() != "0: Out of bound! (1 - 1024); Core count limit\n"+inv+"\n" {
		t.Errorf("stdout %q stderr %q", out.String(), errb.String())
	}
}

// TestConfigFilePaths: relative job and trace files are found in BaseDir
// (or the working directory) first, then in the config file's folder.
func TestConfigFilePaths(t *testing.T) {
	base, cfgDir := t.TempDir(), t.TempDir()
	jobs := `<jobs><job id="0" type="a" submitTime="1" estRunTime="5" cores="1" memory="100" disk="100" /></jobs>`
	jobs2 := `<jobs><job id="0" type="b" submitTime="1" estRunTime="5" cores="1" memory="100" disk="100" />` +
		`<job id="1" type="b" submitTime="2" estRunTime="5" cores="1" memory="100" disk="100" /></jobs>`
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(cfgDir, "j.xml"), []byte(jobs), 0o644))
	cfg := edit(t, "<jobs>", `<jobs file="j.xml">`,
		`<job type="short" minRunTime="1" maxRunTime="300" populationRate="60" />`, ``,
		`<job type="long" minRunTime="301" maxRunTime="1800" populationRate="40" />`, ``)
	p := filepath.Join(cfgDir, "c.xml")
	c, err := ParseConfig(p, []byte(cfg), LoadOptions{BaseDir: base})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Jobs) != 1 || c.Jobs[0].Type != "a" {
		t.Fatalf("jobs from the config folder: %+v", c.Jobs)
	}
	must(os.WriteFile(filepath.Join(base, "j.xml"), []byte(jobs2), 0o644))
	if c, err = ParseConfig(p, []byte(cfg), LoadOptions{BaseDir: base}); err != nil {
		t.Fatal(err)
	}
	if len(c.Jobs) != 2 || c.Jobs[0].Type != "b" {
		t.Fatalf("BaseDir must win: %+v", c.Jobs)
	}
	if c.JobFile != "j.xml" || c.JobCount != 2 || c.EndTime != 2592000 || c.Generated {
		t.Errorf("JobFile %q JobCount %d EndTime %d Generated %v", c.JobFile, c.JobCount, c.EndTime, c.Generated)
	}
}

// TestDuplicateTypeName: two <server> elements of one type name are refused
// as the config loads, naming the file, both lines and the attribute: a
// client names servers by type, so the second type could never be used
// (ds-server loads it without a word).
func TestDuplicateTypeName(t *testing.T) {
	cfg := edit(t, `<server type="big"`, `<server type="small"`)
	_, err := ParseConfig("dup.xml", []byte(cfg), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("%v; want a *ConfigError", err)
	}
	want := `dup.xml: line 5: <server> 2 (small): attribute type: server type "small" listed twice (first as <server> 1, line 4)`
	if !strings.HasPrefix(ce.Error(), want) || ce.Divergence == "" || !ce.Usage || ce.Status != 1 {
		t.Errorf("%q (divergence %q)\nwant %q…", ce.Error(), ce.Divergence, want)
	}
	if where, ok := ce.Where(); !ok || where != ce.Error() {
		t.Errorf("Where() = %q, %v: the command must print the file and line", where, ok)
	}
}

// TestDeepNestingNamesTheLine: elements nested past the reader's limit are
// refused with the line where the limit is passed (it said "line 0").
func TestDeepNestingNamesTheLine(t *testing.T) {
	deep := strings.Repeat("<a>", cfgMaxDepth) + "\n<b/>" + strings.Repeat("</a>", cfgMaxDepth)
	cfg := edit(t, "<termination>", "<termination>\n"+deep)
	_, err := ParseConfig("deep.xml", []byte(cfg), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("%v; want a *ConfigError", err)
	}
	want := "deep.xml: line 13: malformed XML: elements nested more than 1024 deep"
	if ce.Error() != want {
		t.Errorf("%q\nwant %q", ce.Error(), want)
	}
}
