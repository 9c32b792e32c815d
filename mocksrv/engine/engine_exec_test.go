package engine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// The engine driven in memory through Exec alone, as both fronts drive it;
// the tests are named after the sections of ds-server.md they pin.

func testEngine(t *testing.T) (*Engine, *bytes.Buffer) {
	t.Helper()
	cfg := &model.Config{EndTime: 1000,
		Types: []model.ServerType{{Name: "a", Limit: 2, BootupTime: 10, HourlyRate: 0.5, Cores: 2, Memory: 1000, Disk: 1000}},
		Jobs: []model.Job{{ID: 0, Submit: 5, EstRunTime: 20, ActRunTime: 15, Cores: 1, Memory: 100, Disk: 100},
			{ID: 1, Submit: 8, EstRunTime: 30, ActRunTime: 30, Cores: 2, Memory: 200, Disk: 200}}}
	var stderr bytes.Buffer
	e, err := NewEngine(cfg, Options{Stderr: &stderr, NoHeader: true, Year: model.Year2025}) // the replies below are the 2025 server's
	if err != nil {
		t.Fatal(err)
	}
	return e, &stderr
}

func exec(e *Engine, c Command) Reply { return e.Exec(&c) }

// wantText checks the text a front would send for r.
func wantText(t *testing.T, e *Engine, r Reply, msg, want string) {
	t.Helper()
	got := r.Line()
	switch r.Kind {
	case ReplyRefused:
		got = r.Refusal.Text(msg)
	case ReplyEvent:
		got = string(e.AppendEvent(nil, r.Event))
	case ReplyServers, ReplyJobs, ReplyQueue:
		got = string(e.AppendData(nil, &r))
	}
	if got != want {
		t.Fatalf("%s: got %q, want %q", msg, got, want)
	}
}

// TestSection3And5_4: REDY offers the jobs in submit order, SCHD places
// them, a JCPL follows (§3.2, §3.3, §5.4); SCHD's refusals and their
// stderr lines (§5.17, §7.7), including the text front's missing id.
func TestSection3And5_4(t *testing.T) {
	e, stderr := testEngine(t)
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBN 0 5 1 100 100 20")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 0, Server: Ref{"a", 0}}), "SCHD 0 a 0", "OK")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 0, Server: Ref{"a", 0}}), "SCHD 0 a 0", "ERR: No such waiting job exists")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBN 1 8 2 200 200 30")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 1, Server: Ref{"b", 0}}), "SCHD 1 b 0", "ERR: No such server type exists")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 1, Server: Ref{"a", 2}}), "SCHD 1 a 2",
		"ERR: No such server exists (server id: out of bound)")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 1, Server: Ref{Type: "a"}, Missing: MissingID}), "SCHD 1 a",
		"ERR: No such server exists (server id: out of bound)")
	if want := "No such server type by b exists!\n2: Out of bound! (0 - 1); Server ID\n"; stderr.String() != want {
		t.Fatalf("stderr %q, want %q", stderr.String(), want)
	}
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 1, Server: Ref{"a", 1}}), "SCHD 1 a 1", "OK")
	// a 0 boots 5..15, job 0 runs 15..30; a 1 boots 8..18, job 1 runs 18..48.
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JCPL 30 0 a 0")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JCPL 48 1 a 1")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "NONE")
}

// TestSection5_3: GETS selections and their checks; a bad requirement is
// refused with its stderr line.
func TestSection5_3(t *testing.T) {
	e, stderr := testEngine(t)
	exec(e, Command{Op: OpREDY})
	r := exec(e, Command{Op: OpGETS, Query: QueryCapable, Req: Req{2, 100, 100}})
	if r.Kind != ReplyServers || r.N != 2 || r.RecLen != 124 || e.GetsMachine(&r, 1).ID() != 1 {
		t.Fatalf("GETS Capable: %+v", r)
	}
	// Records after the first are padded with 5 + len("t 5: ") spaces, the
	// last timestamp prefix, kept even when no log is written (§5.3).
	wantText(t, e, r, "GETS Capable 2 100 100", "a 0 inactive -1 2 1000 1000 0 0\n"+strings.Repeat(" ", 10)+"a 1 inactive -1 2 1000 1000 0 0")
	r = exec(e, Command{Op: OpGETS, Query: QueryOne, Server: Ref{"a", 2}})
	wantText(t, e, r, "GETS One a 2", "ERR: invalid resource information query (GETS One a 2)!")
	r = exec(e, Command{Op: OpGETS, Query: QueryAvail, Req: Req{3, 100, 100}})
	wantText(t, e, r, "GETS Avail 3 100 100", "ERR: invalid resource information query (GETS Avail 3 100 100)!")
	if want := "3: Out of bound! (1 - 2); Core count limit\n"; stderr.String() != want {
		t.Fatalf("stderr %q, want %q", stderr.String(), want)
	}
}

// TestSection5_5To5_9: the queue, job listings and counts; CNTJ echoes a
// bad state as the client typed it (the text front's Token) or as a
// number (the in-process front).
func TestSection5_5To5_9(t *testing.T) {
	e, stderr := testEngine(t)
	exec(e, Command{Op: OpREDY})
	wantText(t, e, exec(e, Command{Op: OpENQJ, Queue: "XQ"}), "ENQJ XQ", "ERR: no such queue exists (ENQJ XQ)!")
	wantText(t, e, exec(e, Command{Op: OpENQJ, Queue: "GQ"}), "ENQJ GQ", "OK")
	wantText(t, e, exec(e, Command{Op: OpLSTQCount}), "LSTQ GQ #", "1")
	wantText(t, e, exec(e, Command{Op: OpLSTQAt}), "LSTQ GQ 0", "0 0 5 5 20 1 100 100\n")
	wantText(t, e, exec(e, Command{Op: OpDEQJ, Token: "x", Missing: MissingN}), "DEQJ GQ x",
		"ERR: no job in the queue ID of x (current Q length: 1)!")
	wantText(t, e, exec(e, Command{Op: OpDEQJ, N: 0}), "DEQJ GQ 0", "OK")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 0, Server: Ref{"a", 0}}), "SCHD 0 a 0", "OK")
	r := exec(e, Command{Op: OpLSTJ, Server: Ref{"a", 0}})
	wantText(t, e, r, "LSTJ a 0", "0 1 5 15 20 1 100 100")
	if j := e.JobRecord(&r, 0); j.State != 1 || j.Start != 15 {
		t.Fatalf("LSTJ record %+v", j)
	}
	wantText(t, e, exec(e, Command{Op: OpCNTJ, Server: Ref{"a", 0}, N: 1}), "CNTJ a 0 1", "1")
	wantText(t, e, exec(e, Command{Op: OpEJWT, Server: Ref{"a", 0}}), "EJWT a 0", "20")
	// A refused state: ds-server's range line outside 0-8; dsmock's own for
	// 0 and 8 (ds-server crashes on them) and for a word.
	const counted = ": CNTJ counts states 1 (waiting) to 7 (killed)\n"
	for _, tc := range []struct {
		c    Command
		want string
	}{
		{Command{N: 9, Token: "9x"}, "9x: Out of bound! (0 - 8); Job state\n"},
		{Command{N: -1, Token: "-1"}, "-1: Out of bound! (0 - 8); Job state\n"},
		{Command{N: 0, Token: "0"}, "dsmock: CNTJ job state 0 (submitted) is refused, as ds-server crashes on 0 and 8" + counted},
		{Command{N: 8}, "dsmock: CNTJ job state 8 is refused, as ds-server crashes on 0 and 8" + counted},
		{Command{Token: "x", Missing: MissingN}, `dsmock: CNTJ job state "x" is not a number` + counted},
	} {
		stderr.Reset()
		c := tc.c
		c.Op, c.Server = OpCNTJ, Ref{"a", 0}
		r := exec(e, c)
		if stderr.String() != tc.want || r.Kind != ReplyRefused {
			t.Errorf("CNTJ a 0 %q: reply kind %v, stderr %q, want a refusal and %q", c.Token, r.Kind, stderr.String(), tc.want)
		}
	}
}

// TestSection1_6QuitReport: QUIT runs the placed jobs to completion; the
// report counts the jobs never scheduled (§1.6, §7.6).
func TestSection1_6QuitReport(t *testing.T) {
	e, stderr := testEngine(t)
	exec(e, Command{Op: OpREDY})
	exec(e, Command{Op: OpSCHD, Job: 0, Server: Ref{"a", 0}})
	if r := exec(e, Command{Op: OpQUIT}); r.Kind != ReplyQuit {
		t.Fatalf("QUIT: %+v", r)
	}
	rep := e.Finish()
	if rep.Unscheduled != 1 || rep.Jobs != 1 || rep.EndTime != 30 || stderr.String() != "1 jobs not scheduled!\n" {
		t.Fatalf("report %+v, stderr %q", rep, stderr.String())
	}
}

// TestNewEngineNames: a type name that is not one protocol token is
// refused (no front could name it).
func TestNewEngineNames(t *testing.T) {
	for _, name := range []string{"", "a b", "a\x01"} {
		cfg := &model.Config{Types: []model.ServerType{{Name: name, Limit: 1, Cores: 1}}}
		if _, err := NewEngine(cfg, Options{}); err == nil || !strings.Contains(err.Error(), "one token") {
			t.Errorf("%q: err %v", name, err)
		}
	}
}
