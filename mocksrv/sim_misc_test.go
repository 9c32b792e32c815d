package mocksrv

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
)

func TestParseLevel(t *testing.T) {
	cases := []struct {
		word                      string
		recognised, stats, detail bool
		proto                     int
	}{
		{"", false, false, false, ProtoNone},
		{"all", true, false, false, ProtoAll},
		{"allx", true, false, false, ProtoAll},
		{"all+", true, false, true, ProtoAll},
		{"brief", true, false, false, ProtoBrief},
		{"bri", false, false, false, ProtoNone},
		{"jobs", true, false, false, ProtoNone},
		{"stats", true, true, false, ProtoNone},
		{"stats+", true, true, true, ProtoNone},
		{"nonsense+", false, false, false, ProtoNone},
		{"ALL", false, false, false, ProtoNone},
	}
	for _, c := range cases {
		l := ParseLevel(c.word)
		if l.Recognised != c.recognised || l.Stats != c.stats || l.Detail != c.detail || l.Proto != c.proto || l.Events() == c.stats {
			t.Errorf("ParseLevel(%q) = %+v", c.word, l)
		}
	}
}

// TestSystemXMLRates: §1.7's verified rate examples and the exact layout.
func TestSystemXMLRates(t *testing.T) {
	rates := map[float32]string{0.2: "0.20", 0.015: "0.01", 0.125: "0.12", 1.255: "1.25", 2.345: "2.35", 0.005: "0.00"}
	for r, want := range rates {
		c := tinyConfig()
		c.Types = []simconfig.ServerType{{Name: "a", Limit: 3, BootupTime: 7, HourlyRate: r, Cores: 2, Memory: 1000, Disk: 2000}}
		got := string(SystemXML(c, Year2025))
		exp := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
			"<!-- system information generated for ds-sim@MQ, 4-Apr, 2025 @ MQ - client-server -->\n" +
			"<system>\n\t<servers>\n" +
			"\t\t<server type=\"a\" limit=\"3\" bootupTime=\"7\" hourlyRate=\"" + want + "\" cores=\"2\" memory=\"1000\" disk=\"2000\" />\n" +
			"\t</servers>\n</system>\n"
		if got != exp {
			t.Errorf("rate %v:\n%s\nwant\n%s", r, got, exp)
		}
	}
}

// TestGetsPaddingByLevel: the padding of GETS records follows the last log
// timestamp, so it depends on -v (§5.3) and not on whether the log is
// written anywhere.
func TestGetsPaddingByLevel(t *testing.T) {
	for _, c := range []struct {
		lvl Level
		log bool
		pad int
	}{{LevelAll, true, 10}, {LevelAll, false, 10}, {Level{}, false, 10}, {LevelStats, true, 5}, {LevelStats, false, 5}} {
		// The 2026 server pads its records the same way, in front of
		// the type name (its rate comes after the id).
		for year, rate := range map[Year]string{Year2025: "", Year2026: "0.10 "} {
			opt := Options{Level: c.lvl, Year: year}
			if c.log {
				opt.Log = &bytes.Buffer{}
			}
			tx, err := NewText(tinyConfig(), opt)
			if err != nil {
				t.Fatal(err)
			}
			var last []byte
			for _, m := range []string{"HELO", "AUTH x", "REDY", "GETS Type tiny", "OK"} {
				last, _, _ = tx.Handle(m)
			}
			want := "tiny 0 " + rate + "inactive -1 1 1000 4000 0 0\n" + strings.Repeat(" ", c.pad) + "tiny 1 " + rate + "inactive -1 1 1000 4000 0 0"
			if string(last) != want {
				t.Errorf("%v, level %q log %v: %q, want %q", year, c.lvl.Word, c.log, last, want)
			}
		}
	}
}

// TestNoFailureMessages: -o: RESF/RESR are not sent, the events still happen (§3.6).
func TestNoFailureMessages(t *testing.T) {
	d := newDlg(t, failConfig(), Options{NoFailureMsgs: true})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("SCHD 0 small 0", "OK")
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("SCHD 1 small 1", "OK")
	d.x("REDY", "JOBN 2 20 4 2000 2000 30") // RESF small 1 12 and RESR at 16 happened silently
	d.x("LSTQ GQ *", "DATA 1 55")
	d.x("OK", "1 0 10 12 100 2 1000 2000")
	d.x("OK", ".")
	d.x("GETS One small 1", "DATA 1 166")
	d.x("OK", "small 1 inactive -1 2 4000 16000 0 0 1 3 12 3 9 16")
	d.x("OK", ".")
}

// TestAppendixDKeepGoing: where the reference aborts (KILJ of the only,
// known-start job of a booting server; a server whose only jobs were killed
// at report time), dsmock goes on (Appendix D).
func TestAppendixDKeepGoing(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("SCHD 0 small 0", "OK") // boots until 25
	d.x("KILJ small 0 0", "OK")
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("SCHD 1 tiny 0", "ERR: Server incapable of running such a job")
	d.x("SCHD 1 big 0", "OK")
	d.x("REDY", "JOBN 2 20 4 2000 2000 30")
	d.x("ENQJ GQ", "OK")
	d.x("REDY", "JOBN 3 30 1 100 100 60") // small 0 finished booting at 25 with nothing to run
	d.x("GETS One small 0", "DATA 1 124")
	d.x("OK", "small 0 idle 25 1 3500 15000 0 0") // job 0's resources stay reserved [BUG-COMPAT]
	d.x("OK", ".")
	if r, done, err := d.tx.Handle("QUIT"); string(r) != "QUIT" || !done || err != nil {
		t.Fatalf("QUIT: %q %v %v", r, done, err)
	}
	if rep := d.tx.Report(); rep == nil || rep.Jobs != 1 {
		t.Fatalf("report %+v", rep)
	}
}

// TestSessionErrors: the in-process door refuses exactly like the wire.
func TestSessionErrors(t *testing.T) {
	s, err := NewSession(tinyConfig(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ready(); !errors.Is(err, ErrNoHandshake) {
		t.Fatalf("Ready before the handshake: %v", err)
	}
	if err := s.Handshake("me"); err != nil {
		t.Fatal(err)
	}
	wantErr := func(err error, text string) {
		t.Helper()
		var se *protocol.ServerError
		if !errors.As(err, &se) || se.Text != text {
			t.Fatalf("got %v, want ERR %q", err, text)
		}
	}
	_, err = s.Do(protocol.Schedule{JobID: 0, Server: protocol.ServerRef{Type: "tiny", ID: 0}})
	wantErr(err, "ERR") // before the simulation started (§1.5)
	_, err = s.GetsType("nosuch")
	wantErr(err, "ERR: invalid resource information query (GETS Type nosuch)!")
	_, err = s.GetsCapable(protocol.Requirement{Cores: 1, Memory: 1, Disk: 1})
	wantErr(err, "ERR: invalid resource information query (GETS Capable 1 1 1)!")
	_, err = s.GetsOne(protocol.ServerRef{Type: "tiny", ID: 9})
	wantErr(err, "ERR: invalid resource information query (GETS One tiny 9)!")
	ev, err := s.Ready()
	if err != nil || ev.String() != "JOBN 0 5 1 500 1000 50" {
		t.Fatalf("Ready: %v %v", ev, err)
	}
	_, err = s.Do(protocol.Schedule{JobID: 1, Server: protocol.ServerRef{Type: "tiny", ID: 0}})
	wantErr(err, "ERR: No such waiting job exists")
	_, err = s.Do(protocol.Schedule{JobID: 0, Server: protocol.ServerRef{Type: "tiny", ID: 2}})
	wantErr(err, "ERR: No such server exists (server id: out of bound)")
	_, err = s.Do(protocol.Dequeue{QID: 0})
	wantErr(err, "ERR: no job in the queue ID of 0 (current Q length: 0)!")
	_, err = s.Do(protocol.Migrate{JobID: 0, From: protocol.ServerRef{Type: "tiny", ID: 0}, To: protocol.ServerRef{Type: "x", ID: 0}})
	wantErr(err, "ERR: MIGJ 0 tiny 0 x 0!")
	_, err = s.Do(protocol.Terminate{Server: protocol.ServerRef{Type: "tiny", ID: 0}})
	wantErr(err, "ERR: invalid server termination command (TERM tiny 0)!")
	_, err = s.Do(protocol.Kill{Server: protocol.ServerRef{Type: "tiny", ID: 0}, JobID: 0})
	wantErr(err, "ERR: invalid job termination command (KILJ tiny 0 0)!")
	_, err = s.ListJobs(protocol.ServerRef{Type: "tiny", ID: 5})
	wantErr(err, "ERR: invalid job listing query (LSTJ tiny 5)!")
	_, err = s.CountJobs(protocol.ServerRef{Type: "tiny", ID: 0}, 8)
	wantErr(err, "ERR: invalid job count query (CNTJ tiny 0 8)!")
	_, err = s.EstWait(protocol.ServerRef{Type: "nosuch", ID: 0})
	wantErr(err, "ERR: invalid estimated waiting time query (EJWT nosuch 0)!")
	if r, err := s.Do(protocol.Enqueue{}); r != "OK" || err != nil {
		t.Fatalf("ENQJ: %q %v", r, err)
	}
	_, err = s.Do(protocol.Enqueue{})
	wantErr(err, "ERR: no job to enqueue!")
	if q, err := s.ListQueue(); err != nil || len(q) != 1 || q[0].String() != "0 0 5 5 50 1 500 1000" {
		t.Fatalf("ListQueue: %v %v", q, err)
	}
	if err := s.Quit(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ready(); !errors.Is(err, ErrSessionEnded) {
		t.Fatalf("Ready after QUIT: %v", err)
	}
	if s.Report() == nil {
		t.Fatal("no report")
	}
}

// TestTranscriptDiffHasTeeth: one changed client message makes the replay
// differ from the transcript, and the difference is reported with context.
func TestTranscriptDiffHasTeeth(t *testing.T) {
	p := fixtures.Glob(t, "transcripts/sample-config01.bf.vall.log.gz")[0]
	want := fixtures.ReadGz(t, p)
	msgs := rcvdLines(want)
	for i, m := range msgs {
		if strings.HasPrefix(m, "SCHD ") {
			msgs[i] = strings.Replace(m, " joon 0", " joon 1", 1)
			if msgs[i] != m {
				break
			}
		}
	}
	got, _ := replayText(t, loadFixture(t, "sample-config01"), LevelAll, msgs)
	d := simFirstDiff(dropLines(got, 3), dropLines(want, 3))
	if d == "" || !strings.Contains(d, "first difference at line") {
		t.Fatalf("a changed SCHD went unnoticed: %q", d)
	}
}

// TestSystemXMLMatchesServertypes: for every fixture config, servertypes'
// own ds-system.xml writer, given the sorted types with their float32
// rates, produces the same bytes as SystemXML (§1.7).
func TestSystemXMLMatchesServertypes(t *testing.T) {
	for _, p := range fixtures.Glob(t, "fixtures/*/config.xml") {
		name := filepath.Base(filepath.Dir(p))
		cfg := loadFixture(t, name)
		types := make([]servertypes.Type, len(cfg.Types))
		for i, ty := range cfg.Types {
			types[i] = servertypes.Type{Name: ty.Name, Limit: ty.Limit, BootupTime: ty.BootupTime,
				HourlyRate: float64(ty.HourlyRate), Cores: ty.Cores, Memory: ty.Memory, Disk: ty.Disk}
		}
		sys, err := servertypes.New(name, types)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := sys.XML(Year2025.Version()), SystemXML(cfg, Year2025); !bytes.Equal(a, b) {
			t.Errorf("%s:\n%s\n%s", name, a, b)
		}
		// And the Session's System() is what a client reads back from the file.
		s, err := NewSession(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		back, err := servertypes.Parse("ds-system.xml", SystemXML(cfg, 0))
		if err != nil {
			t.Fatal(err)
		}
		mine, err := s.System()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Types(), mine.Types()) {
			t.Errorf("%s: Session.System() differs from ds-system.xml read back", name)
		}
	}
}

// TestSystemXML2026: the ds-system.xml the 2026 server wrote for two shared
// configs, byte for byte (only its version line differs from 2025's).
func TestSystemXML2026(t *testing.T) {
	for _, name := range []string{"sample-config01", "config20-med-med"} {
		cfg := loadFixture(t, name)
		want, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "v2026", "files", name+".ds-system.xml"))
		if err != nil {
			t.Fatal(err)
		}
		if got := SystemXML(cfg, Year2026); !bytes.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
		if got, other := SystemXML(cfg, 0), SystemXML(cfg, Year2025); !bytes.Equal(got, want) || bytes.Equal(other, want) {
			t.Errorf("%s: the default year is not 2026's, or 2025's file is the same", name)
		}
	}
}
