package dsmock

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// comboConfig is a config that generates its jobs; comboFiles edits it
// into the other configs the combinations need.
const comboConfig = `<?xml version="1.0" encoding="UTF-8"?>
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

// comboFiles writes, in the working folder, gen.xml (generated jobs),
// file.xml (a job file), failfile.xml and model.xml (file.xml with
// failures), nl.xml (newline="true", randomSeed="7"), jobs.xml and the
// failure trace f.txt.
func comboFiles(t *testing.T) {
	t.Helper()
	jobsElem := "<jobs>\n    <job type=\"short\" minRunTime=\"1\" maxRunTime=\"300\" populationRate=\"60\" />\n    <job type=\"long\" minRunTime=\"301\" maxRunTime=\"1800\" populationRate=\"40\" />\n  </jobs>"
	jobFile := strings.Replace(comboConfig, jobsElem, `<jobs file="jobs.xml" />`, 1)
	require.NotEqual(t, comboConfig, jobFile)
	files := map[string]string{
		"gen.xml":      comboConfig,
		"file.xml":     jobFile,
		"failfile.xml": strings.Replace(jobFile, "<servers>", `<servers failureFile="f.txt">`, 1),
		"model.xml":    strings.Replace(jobFile, "<servers>", `<servers failureModel="teragrid">`, 1),
		"nl.xml":       strings.Replace(jobFile, `<config randomSeed="1024">`, `<config randomSeed="7" newline="true">`, 1),
		"jobs.xml": `<jobs>
  <job id="0" type="short" submitTime="5" estRunTime="90" cores="1" memory="100" disk="100" />
  <job id="1" type="short" submitTime="9" estRunTime="40" cores="2" memory="200" disk="100" />
</jobs>
`,
		"f.txt": "10 20 small 0\n",
	}
	for name, data := range files {
		require.NoError(t, os.WriteFile(name, []byte(data), 0o644))
	}
}

// TestOptionCombinations: combinations that mean nothing. Those ds-server
// accepts and ignores run as ds-server runs them (stdout untouched) with
// one warning each on stderr; combinations of dsmock's own options that
// mean nothing or contradict each other are refused before listening,
// with one line on stderr and status 1.
func TestOptionCombinations(t *testing.T) {
	t.Chdir(t.TempDir())
	comboFiles(t)
	const (
		w         = "dsmock: warning: "
		noFail    = w + "-o has no effect: no failures are simulated, so there is no RESF or RESR to leave out\n"
		fNoC      = w + "-f teragrid generates no failures without -c, as in ds-server (ds-res-failures.txt gets its header only)\n"
		alone     = "--swf runs the trace on its <server> elements alone"
		models    = "(teragrid nd07cpu websites02 ldns04 pl05 g5k06)"
		noJobsXML = "(ds-jobs.xml is written only for generated jobs)"
	)
	for _, tc := range []struct {
		name   string
		args   []string
		status int // 0: runs
		stderr string
	}{
		// ds-server accepts these and ignores them: a warning each.
		{"-l with -c", []string{"-c", "gen.xml", "-l", "3"}, 0, w + "-l 3 has no effect: the config's <server> limits give the servers per type\n"},
		{"-l with --swf", []string{"--swf", swfTrace, "-l", "3"}, 0, w + "-l 3 has no effect: --swf runs the trace on servers derived from the trace\n"},
		{"-l with --swf on -c", []string{"-c", swfServers, "--swf", swfTrace, "-l", "3"}, 0, w + "-l 3 has no effect: --swf runs the trace on " + swfServers + "'s <server> elements\n"},
		{"-l with --swf servers=", []string{"--swf", swfTrace + ":servers=" + swfServers, "-l", "3"}, 0, w + "-l 3 has no effect: --swf runs the trace on " + swfServers + "'s <server> elements\n"},
		{"-f without -c", []string{"-f", "teragrid"}, 0, fNoC},
		{"-f -g -s without -c", []string{"-f", "teragrid", "-g", "600", "-s", "50"}, 0, fNoC +
			w + "-g 600 has no effect: -f generates no failures without -c\n" + w + "-s 50 has no effect: -f generates no failures without -c\n"},
		{"-o without failures", []string{"-c", "gen.xml", "-o"}, 0, noFail},
		{"-o without -c, with -f", []string{"-f", "teragrid", "-o"}, 0, fNoC + noFail},
		{"-o with --swf", []string{"--swf", swfTrace, "-o"}, 0, noFail},
		{"-r twice", []string{"-r", "5", "-r", "9"}, 0, w + "-r 9 has no effect: only the first -r counts, as in ds-server\n"},
		{"-r twice with -c", []string{"-c", "gen.xml", "-r", "5", "-r", "9"}, 0, w + "-r 5 has no effect: the config's randomSeed 1024 overrides it\n" +
			w + "-r 9 has no effect: only the first -r counts, as in ds-server\n"},
		// --swf on -c's servers: what of -c's config would count, and does not.
		{"--swf, -c with a job file", []string{"-c", "file.xml", "--swf", swfTrace}, 0, w + `file.xml: <jobs file="jobs.xml"> has no effect: ` + alone + ", with the trace's jobs\n"},
		{"--swf, -c newline", []string{"-c", "nl.xml", "--swf", swfTrace}, 0, w + `nl.xml: <config newline="true"> has no effect: ` + alone + "; give -n for newline mode\n" +
			w + `nl.xml: <jobs file="jobs.xml"> has no effect: ` + alone + ", with the trace's jobs\n"},
		{"--swf servers= with a job file", []string{"--swf", swfTrace + ":servers=file.xml"}, 0, w + `file.xml: <jobs file="jobs.xml"> has no effect: ` + alone + ", with the trace's jobs\n"},
		{"--swf, -c newline, -n", []string{"-c", "nl.xml", "--swf", swfTrace, "-n"}, 0, w + `nl.xml: <jobs file="jobs.xml"> has no effect: ` + alone + ", with the trace's jobs\n"},
		{"--swf, -c randomSeed, --mem-fail", []string{"-c", "nl.xml", "--swf", swfTrace, "-n", "--mem-fail", "hard"}, 0,
			w + `nl.xml: <config randomSeed="7"> has no effect: ` + alone + "; --mem-fail's draws are seeded with 1024\n" +
				w + `nl.xml: <jobs file="jobs.xml"> has no effect: ` + alone + ", with the trace's jobs\n"},
		// dsmock's own, meaningless or contradictory: refused.
		{"--write-actual with a job file", []string{"-c", "file.xml", "--write-actual"}, 1,
			"dsmock: --write-actual: no ds-jobs.xml is written to put actRunTime in: the jobs come from the config's job file jobs.xml " + noJobsXML + "\n"},
		{"--write-actual with --swf", []string{"--swf", swfTrace, "--write-actual"}, 1,
			"dsmock: --write-actual: no ds-jobs.xml is written to put actRunTime in: --swf runs the trace's jobs " + noJobsXML + "\n"},
		{"-f trace -g", []string{"-c", "file.xml", "-f", "f.txt", "-g", "600"}, 1,
			"dsmock: -g 600: -f f.txt is a failure trace, whose failures are given; -g and -s apply to a failure model only " + models + "\n"},
		{"-f trace -s", []string{"-c", "file.xml", "-f", "f.txt", "-s", "50"}, 1,
			"dsmock: -s 50: -f f.txt is a failure trace, whose failures are given; -g and -s apply to a failure model only " + models + "\n"},
		{"--swf servers= and -c", []string{"-c", "gen.xml", "--swf", swfTrace + ":servers=" + swfServers}, 1,
			"dsmock: --swf: servers=" + swfServers + " and -c gen.xml both give the servers; give one of them\n"},
		{"--swf job-file=", []string{"--swf", swfTrace + ":job-file=j.xml"}, 1,
			"dsmock: --swf: job-file=j.xml names the job file dsswf writes; dsmock --swf writes none (it converts the trace in memory): leave it out\n"},
		{"--swf, -c with failureFile", []string{"-c", "failfile.xml", "--swf", swfTrace}, 1,
			`dsmock: --swf: failfile.xml: <servers failureFile="f.txt">: the trace runs on the config's <server> elements alone, without its failures; write the files with dsswf --servers failfile.xml and add the attribute to the config it writes (dsswf says how)` + "\n"},
		{"--swf, -c with failureModel", []string{"-c", "model.xml", "--swf", swfTrace}, 1,
			`dsmock: --swf: model.xml: <servers failureModel="teragrid">: the trace runs on the config's <server> elements alone, without its failures; write the files with dsswf --servers model.xml and add the attribute to the config it writes (dsswf says how)` + "\n"},
		{"--swf servers= with failureModel", []string{"--swf", swfTrace + ":servers=model.xml"}, 1,
			`dsmock: --swf: model.xml: <servers failureModel="teragrid">: the trace runs on the config's <server> elements alone, without its failures; write the files with dsswf --servers model.xml and add the attribute to the config it writes (dsswf says how)` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) { checkCombination(t, tc.args, tc.status, tc.stderr) })
	}
}

// TestMeaningfulCombinations: the neighbours of TestOptionCombinations's
// rows that count get no word.
func TestMeaningfulCombinations(t *testing.T) {
	t.Chdir(t.TempDir())
	comboFiles(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"-l without -c", []string{"-l", "3"}},
		{"-o with a failure trace", []string{"-c", "failfile.xml", "-o"}},
		{"-o with a failure model", []string{"-c", "gen.xml", "-f", "teragrid", "-o"}},
		{"--swf, -c generating jobs", []string{"-c", "gen.xml", "--swf", swfTrace}},
		{"--swf servers= generating jobs", []string{"--swf", swfTrace + ":servers=gen.xml"}},
		{"--write-actual with generated jobs", []string{"-c", "gen.xml", "--write-actual"}},
		{"--write-actual without -c", []string{"--write-actual"}},
		{"-f model -g -s", []string{"-c", "gen.xml", "-f", "teragrid", "-g", "600", "-s", "50"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkCombination(t, tc.args, 0, "") })
	}
}

// checkCombination runs dsmock's command line and config loading on args
// and checks the status (0: it would run) and stderr, --swf's conversion
// notes left out; stdout stays empty, as ds-server's before a client.
func checkCombination(t *testing.T, args []string, status int, stderr string) {
	t.Helper()
	var out, errb syncBuffer
	cl := commandLine{argv0: "dsmock", stdout: &out, stderr: &errb}
	st, _, ok := cl.parse(args)
	require.True(t, ok, errb.String())
	_, got, ok := cl.load(st)
	assert.Equal(t, status == 0, ok, errb.String())
	assert.Equal(t, status, got)
	assert.Equal(t, stderr, withoutSWFNotes(errb.String()))
	assert.Empty(t, out.String(), "stdout stays ds-server's")
}

// withoutSWFNotes drops the lines in which --swf says what its conversion
// left out (swf_test.go checks them).
func withoutSWFNotes(stderr string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(l, "dsmock: --swf "+swfTrace+": ") {
			b.WriteString(l)
		}
	}
	return b.String()
}
