package viewer

import (
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
)

func fixtureConfig(t *testing.T, name string) *mocksrv.Config {
	t.Helper()
	cfg, err := mocksrv.LoadConfig(filepath.Join(fixtures.Dir(t), "fixtures", name, "config.xml"), mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func transcriptLines(t *testing.T, name string) []string {
	t.Helper()
	data := fixtures.ReadGz(t, filepath.Join(fixtures.Dir(t), "transcripts", name))
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// Each refused log: the error names the file and the line where it
// shows, and no run is returned.
func TestParseLogRefuses(t *testing.T) {
	cfg := fixtureConfig(t, "sample-config01")
	other := fixtureConfig(t, "ds-sample-config02")
	lines := transcriptLines(t, "sample-config01.bf.vall.log.gz")
	join := func(ls []string) string { return strings.Join(ls, "\n") + "\n" }
	junk := append(append(append([]string{}, lines[:19]...), "hello world"), lines[19:]...)
	dataAt, schdAt := 0, 0
	for i, l := range lines {
		if dataAt == 0 && strings.Contains(l, "SENT DATA 5") {
			dataAt = i + 3 // the first GETS record: cut inside the batch
		}
		if schdAt == 0 && strings.Contains(l, "RCVD SCHD") {
			schdAt = i
		}
	}
	inBatch := append(append(append([]string{}, lines[:dataAt]...), "zz garbage"), lines[dataAt:]...)
	cases := []struct {
		name, log string
		cfg       *mocksrv.Config
		want      string
	}{
		{"a config, not a log", "<?xml version=\"1.0\"?>\n<config>\n", cfg, `x.log:1: not a ds-server log: it should start with "# ds-sim server"`},
		{"empty", "", cfg, "x.log:1: empty file"},
		{"a foreign line", join(junk), cfg, `x.log:20: not a ds-server log line: "hello world"`},
		{"cut short", join(lines[:200]), cfg, "x.log:200: the log ends before ds-server's end-of-simulation report (no \"# avg waiting time\" line): cut short?"},
		{"no client", join(lines[:3]), cfg, "x.log:3: the log ends before ds-server's end-of-simulation report (no \"# avg waiting time\" line), " +
			"with no message from a client: none connected, or it went away at once (or the log was cut short)"},
		{"no job scheduled", join(lines[:schdAt]), cfg, fmtLine(schdAt) + "the log ends before ds-server's end-of-simulation report (no \"# avg waiting time\" line), " +
			"with no job scheduled: the client quit or went away before scheduling any job (or the log was cut short)"},
		{"cut inside a DATA batch", join(lines[:dataAt]), cfg, fmtLine(dataAt) + "the log ends inside a DATA batch"},
		// A garbage line among a batch's records is the line blamed (the
		// batch's record count was spent on it, and a real record after
		// it was blamed); a line past the scanner's bound is said in words.
		{"garbage among a batch's records", join(inBatch), cfg, fmtLine(dataAt+1) + `not a record of the DATA batch sent at line ` + strconv.Itoa(dataAt) + ` (4 more were due): "zz garbage"`},
		{"a line too long", join(append(append(append([]string{}, lines[:19]...), strings.Repeat("a", maxLogLine+1)), lines[19:]...)), cfg,
			"x.log:20: a line longer than 1 MiB: not a ds-server log line"},
		{"another config", join(lines), other, "x.log:11: job 0 has Est Runtime 653 in the log but 1135 in config"},
		{"an event before any time", "# ds-sim server 4-Apr, 2025 @ MQ - client-server\njob 0 on joon 0 RUNNING\n", cfg, "x.log:2: event line before any timestamp"},
		{"a job running that was never placed", join(append(append([]string{}, lines[:11]...), "t 40: job 0 on joon 1 RUNNING")), cfg,
			"x.log:12: job 0 RUNNING on joon 1 but it was not placed there"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseLog("x.log", strings.NewReader(c.log), c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) || r != nil {
				t.Fatalf("got %v (run %v), want an error containing %q", err, r != nil, c.want)
			}
			if !strings.HasPrefix(err.Error(), "x.log:") {
				t.Errorf("error %q does not start with the file and line", err)
			}
		})
	}
}

func fmtLine(n int) string { return "x.log:" + strconv.Itoa(n) + ": " }

// A log with CRLF line ends reads as the same run.
func TestParseLogCRLF(t *testing.T) {
	cfg := fixtureConfig(t, "sample-config01")
	want, data := transcriptRun(t, "transcripts/sample-config01.bf.vall.log.gz")
	got, err := ParseLog("sample-config01.bf.vall.log.gz", strings.NewReader(strings.ReplaceAll(string(data), "\n", "\r\n")), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the CRLF log reads as another run")
	}
}
