package simconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// TestFailtraceParse: the format of ds-server.md Appendix C.1.
func TestFailtraceParse(t *testing.T) {
	recs, lines, err := failtraceParse("f.txt", []byte("\n  # header\n#more\n\t0 803 tiny 5\n0 584\nxlarge 1   646 2514 medium 9\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []FailureRecord{{Start: 0, End: 803, Type: "tiny", ID: 5}, {Start: 0, End: 584, Type: "xlarge", ID: 1}, {Start: 646, End: 2514, Type: "medium", ID: 9}}
	if len(recs) != 3 || recs[0] != want[0] || recs[1] != want[1] || recs[2] != want[2] {
		t.Errorf("records %+v", recs)
	}
	if len(lines) != 3 || lines[0] != 4 || lines[1] != 5 || lines[2] != 6 {
		t.Errorf("lines %v", lines)
	}
	if recs, _, err := failtraceParse("f.txt", []byte("# only a comment\n")); err != nil || len(recs) != 0 {
		t.Errorf("comment-only trace: %v %v", recs, err)
	}
}

func TestFailtraceRejected(t *testing.T) {
	cases := []struct{ name, text, msg string }{
		{"comment after a record", "0 1 tiny 0\n# late comment\n", `line 2: record 2: failStart "#" is not an integer`},
		{"incomplete", "0 1 tiny 0\n5 6 tiny\n", "line 2: record 2: incomplete record: 3 of 4 fields"},
		{"not a number", "0 x tiny 0\n", `record 1: failEnd "x" is not an integer`},
		{"trailing junk", "0 1a tiny 0\n", `failEnd "1a" is not an integer`},
		{"bad id", "0 1 tiny zero\n", `serverId "zero" is not an integer`},
		{"negative start", "-5 1 tiny 0\n", "failStart -5 is negative"},
		{"end before start", "10 9 tiny 0\n", "failEnd 9 is before failStart 10"},
		{"end too large", "0 2147483647 tiny 0\n", "failEnd 2147483647 is too large"},
	}
	for _, tc := range cases {
		_, _, err := failtraceParse("f.txt", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "f.txt: ") || err.Divergence == "" {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.msg)
		}
	}
	types := []ServerType{{Name: "tiny", Limit: 2}, {Name: "big", Limit: 1}}
	checks := []struct {
		text, msg string
	}{
		{"0 1 tiny 1\n5 6 huge 0\n", `line 2: record 2: unknown server type "huge"`},
		{"0 1 big 1\n", "record 1: server id 1 of type big is outside 0..0"},
		{"0 1 tiny -1\n", "server id -1 of type tiny is outside 0..1"},
	}
	for _, tc := range checks {
		recs, lines, err := failtraceParse("f.txt", []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		if err := failtraceCheck("f.txt", recs, lines, types); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v; want %q", tc.text, err, tc.msg)
		}
	}
}

// TestFailtraceInConfig: a bad trace makes the config invalid, with the
// generic line and Usage after our message.
func TestFailtraceInConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("0 10 small 0\n3 4 nosuch 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(cfgBase, "<servers>", `<servers failureFile="f.txt">`, 1)
	_, err := ParseConfig(filepath.Join(dir, "c.xml"), []byte(cfg), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) || len(ce.Stderr) != 2 || !ce.Usage ||
		ce.Stderr[0] != `f.txt: line 2: record 2: unknown server type "nosuch"` {
		t.Fatalf("%#v", err)
	}
	// The same trace given with -f (dsmock extension) loads when valid.
	if err := os.WriteFile(filepath.Join(dir, "g.txt"), []byte("0 10 big 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ParseConfig(filepath.Join(dir, "c.xml"), []byte(cfgBase), LoadOptions{Failure: "g.txt", FailureGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Simulated() || c.FailureFile != "g.txt" || len(c.Failures) != 1 {
		t.Errorf("FailureFile %q failures %v", c.FailureFile, c.Failures)
	}
}

// refFailureEvents builds the event list of Appendix C.1 by insertion, an
// algorithm independent of FailureEvents' sort.
func refFailureEvents(c *Config) []FailureEvent {
	var ev []FailureEvent
	insert := func(e FailureEvent) {
		i := len(ev)
		for i > 0 && ev[i-1].Time > e.Time {
			i--
		}
		ev = append(ev[:i], append([]FailureEvent{e}, ev[i:]...)...)
	}
	for _, r := range c.Failures {
		insert(FailureEvent{Time: r.Start, Record: r})
		insert(FailureEvent{Time: r.End + 1, Recovery: true, Record: r})
	}
	insert(FailureEvent{Time: 0, Phantom: true, Record: FailureRecord{Start: 0, End: 0, Type: c.Types[0].Name, ID: 0}})
	return ev
}

// TestFailureEventsFixture: the shared trace of ds-sample-config05-failures.
func TestFailureEventsFixture(t *testing.T) {
	c, err := LoadConfig(filepath.Join(fixtures.Dir(t), "fixtures", "ds-sample-config05-failures", "config.xml"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := c.FailureEvents()
	if len(ev) != 2*539+1 {
		t.Fatalf("%d events, want %d", len(ev), 2*539+1)
	}
	want := refFailureEvents(c)
	for i := range ev {
		if ev[i] != want[i] {
			t.Fatalf("event %d = %+v, want %+v", i, ev[i], want[i])
		}
	}
	// The trace starts with two time-0 failures (tiny 5, xlarge 1): the
	// phantom (tiny 0, smallest type) comes third, then the first real
	// event after time 0.
	if !ev[2].Phantom || ev[2].Record != (FailureRecord{Start: 0, End: 0, Type: "tiny", ID: 0}) || ev[0].Record.ID != 5 || ev[1].Record.Type != "xlarge" || ev[3].Time == 0 {
		t.Errorf("first events %+v", ev[:4])
	}
	for i := 1; i < len(ev); i++ {
		if ev[i].Time < ev[i-1].Time {
			t.Fatalf("events %d and %d out of order", i-1, i)
		}
	}
	if (&Config{}).FailureEvents() != nil {
		t.Error("events without a trace")
	}
}

// TestFailureEventsTies: stable order of equal times, phantom after every
// real time-0 event.
func TestFailureEventsTies(t *testing.T) {
	c := &Config{FailureFile: "f", Types: []ServerType{{Name: "s", Limit: 3}},
		Failures: []FailureRecord{{Start: 5, End: 9, Type: "s", ID: 1}, {Start: 0, End: 4, Type: "s", ID: 2}, {Start: 0, End: 0, Type: "s", ID: 1}, {Start: 1, End: 2, Type: "s", ID: 0}}}
	got := c.FailureEvents()
	type ev struct {
		t   int
		rec bool
		id  int
		ph  bool
	}
	want := []ev{{0, false, 2, false}, {0, false, 1, false}, {0, true, 0, true}, {1, true, 1, false}, {1, false, 0, false},
		{3, true, 0, false}, {5, false, 1, false}, {5, true, 2, false}, {10, true, 1, false}}
	if len(got) != len(want) {
		t.Fatalf("%d events", len(got))
	}
	for i, w := range want {
		g := got[i]
		if g.Time != w.t || (g.Recovery != w.rec && !w.ph) || g.Record.ID != w.id || g.Phantom != w.ph {
			t.Errorf("event %d = %+v, want %+v", i, g, w)
		}
	}
}
