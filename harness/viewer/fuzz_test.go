package viewer

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// fuzzConfig is a small config whose jobs ds-server's generator draws
// from its seed: no file needed.
const fuzzConfig = `<?xml version="1.0" encoding="UTF-8"?>
<config randomSeed="7">
  <servers>
    <server type="small" limit="2" bootupTime="30" hourlyRate="0.2" cores="2" memory="4000" disk="16000" />
    <server type="big" limit="1" bootupTime="60" hourlyRate="0.8" cores="8" memory="32000" disk="128000" />
  </servers>
  <jobs>
    <job type="short" minRunTime="1" maxRunTime="300" populationRate="100" />
  </jobs>
  <workload type="moderate" minLoad="30" maxLoad="70" />
  <termination>
    <condition type="endtime" value="604800" />
    <condition type="jobcount" value="6" />
  </termination>
</config>
`

func parseFuzzConfig(t testing.TB) *mocksrv.Config {
	cfg, err := mocksrv.ParseConfig("fuzz.xml", []byte(fuzzConfig), mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// simLog runs a minimal client (every job on big 0) against the
// simulator's text front and returns its log at level.
func simLog(t testing.TB, cfg *mocksrv.Config, level mocksrv.Options) []byte {
	send, end := scripted(t, cfg, level, "fuzz")
	for ev := send("REDY"); ev != "NONE"; {
		if f := strings.Fields(ev); len(f) > 1 && (f[0] == "JOBN" || f[0] == "JOBP") {
			send("GETS Capable " + strings.Join(f[3:6], " ")) // DATA: -v all shows it, brief does not
			send("OK")
			send("OK")
			send("SCHD " + f[1] + " big 0")
		}
		ev = send("REDY")
	}
	return end()
}

// The log parser never panics or hangs on any input: it returns a run or
// an error naming the file and a line.
func FuzzParseLog(f *testing.F) {
	cfg := parseFuzzConfig(f)
	for _, lvl := range []mocksrv.Options{{Level: mocksrv.LevelAll}, {Level: mocksrv.LevelBrief}, {Level: mocksrv.ParseLevel("jobs")}} {
		log := simLog(f, cfg, lvl)
		f.Add(log)
		f.Add(log[:len(log)/2])
		// dsmock --serve's shape: sessions after one header, one cut short.
		header := bytes.SplitAfterN(log, []byte("\n"), 4)
		f.Add(slices.Concat(header[0], header[1], header[2], []byte("# session 1 (client a)\n"), header[3],
			[]byte("# session 2 (client b)\n"), header[3][:len(header[3])/2], []byte("# session 3 (client c)\n"), header[3]))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		logs, err := ParseLogs("f.log", bytes.NewReader(data), cfg)
		if err == nil && len(logs.Runs) == 0 {
			t.Fatal("ParseLogs: no error and no run")
		}
		for _, c := range logs.Left {
			if c.File != "f.log" || c.Line < 1 {
				t.Fatalf("a run left out without its file and line: %+v", c)
			}
		}
		r, err := ParseLog("f.log", bytes.NewReader(data), cfg)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.log:") {
				t.Fatalf("error without the file and line: %v", err)
			}
			return
		}
		if r == nil || len(r.Stays) == 0 {
			t.Fatal("no error and no run")
		}
		var page bytes.Buffer
		if err := (&Page{Title: "fuzz", Groups: []Group{{Runs: []*Run{r}}}}).Render(&page); err != nil {
			t.Fatal(err)
		}
	})
}

// The three levels' logs of one run read as the same run (events alone
// cannot show failures, and this config has none).
func TestParseLogLevels(t *testing.T) {
	cfg := parseFuzzConfig(t)
	var runs []*Run
	for _, lvl := range []mocksrv.Options{{Level: mocksrv.LevelAll}, {Level: mocksrv.LevelBrief}, {Level: mocksrv.ParseLevel("jobs")}} {
		r, err := ParseLog("x.log", bytes.NewReader(simLog(t, cfg, lvl)), cfg)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	for i, want := range []string{"all", "brief", "events"} {
		if runs[i].Level != want {
			t.Errorf("run %d: level %q, want %q", i, runs[i].Level, want)
		}
		if FormatCost(runs[i].TotalCost) != runs[i].LogCost || len(runs[i].Stays) != len(cfg.Jobs) {
			t.Errorf("%s: cost %s (log %s), %d stays for %d jobs", want, FormatCost(runs[i].TotalCost), runs[i].LogCost, len(runs[i].Stays), len(cfg.Jobs))
		}
	}
}

func optionsAt(level string) mocksrv.Options {
	return mocksrv.Options{Level: mocksrv.ParseLevel(level)}
}
