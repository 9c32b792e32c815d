package engine

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// The memory extension (estimation.md Part E) driven through Exec.

// memEngine builds an engine over one server type a (4 cores, 1000 MB, no
// boot time) and the jobs, with the extension's model m.
func memEngine(t *testing.T, m MemFailModel, log *bytes.Buffer, jobs ...model.Job) *Engine {
	t.Helper()
	return memEngineTypes(t, m, log, []model.ServerType{{Name: "a", Limit: 1, Cores: 4, Memory: 1000, Disk: 1000}}, jobs...)
}

func memEngineTypes(t *testing.T, m MemFailModel, log *bytes.Buffer, types []model.ServerType, jobs ...model.Job) *Engine {
	t.Helper()
	cfg := &model.Config{Path: "c.xml", Seed: 1024, EndTime: 100000, JobFile: "j.xml", Types: types, Jobs: jobs, ActMemoryJobs: 1}
	opt := Options{NoHeader: true, MemFail: m, Year: model.Year2025} // records written as the 2025 server's
	if log != nil {
		opt.Log, opt.Level = log, LevelAll
	}
	e, err := NewEngine(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// schm is SCHM as the text front parses it.
func schm(job int, typ string, id, alloc int) Command {
	return Command{Op: OpSCHM, Job: job, Server: Ref{typ, id}, Alloc: alloc}
}

// firstDraw is the failure offset the extension draws first for a run
// time of n with randomSeed 1024.
func firstDraw(n int) int {
	x := memExt{rand: 1024}
	return x.draw(n)
}

// TestMemExtFailureScenario: a job with actMemory above its allocation
// fails at the drawn time; the JCPL of another job ending then comes
// first, then JOBP with the request unchanged; its resources are left
// (the waiting job starts at once), the report counts it (failed 1 times,
// wasted core-seconds), and the retry with the full request completes.
func TestMemExtFailureScenario(t *testing.T) {
	ft := firstDraw(100)
	if ft < 1 || ft > 99 {
		t.Fatalf("the seed's first draw %d leaves no room for the scenario", ft)
	}
	ts := strconv.Itoa(ft)
	var log bytes.Buffer
	e := memEngine(t, MemFailHard, &log,
		model.Job{ID: 0, Submit: 0, EstRunTime: 100, ActRunTime: 100, Cores: 2, Memory: 800, Disk: 100, ActMemory: 500},
		model.Job{ID: 1, Submit: 0, EstRunTime: ft, ActRunTime: ft, Cores: 1, Memory: 300, Disk: 100},
		model.Job{ID: 2, Submit: 0, EstRunTime: 50, ActRunTime: 50, Cores: 4, Memory: 100, Disk: 100})
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBN 0 0 2 800 100 100")
	wantText(t, e, exec(e, schm(0, "a", 0, 200)), "SCHM 0 a 0 200", "OK")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBN 1 0 1 300 100 "+ts)
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 1, Server: Ref{"a", 0}}), "SCHD 1 a 0", "OK")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBN 2 0 4 100 100 50")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 2, Server: Ref{"a", 0}}), "SCHD 2 a 0", "OK")
	// Job 0 books 200, not 800: LSTJ and the available memory say so.
	wantText(t, e, exec(e, Command{Op: OpLSTJ, Server: Ref{"a", 0}}), "LSTJ a 0",
		"0 2 0 0 100 2 200 100\n1 2 0 0 "+ts+" 1 300 100\n2 1 0 -1 50 4 100 100")
	wantText(t, e, exec(e, Command{Op: OpGETS, Query: QueryAll}), "GETS All", "a 0 active 0 1 500 800 1 2")
	// At ft job 0 fails (500 > 200) and job 1 completes: JCPL first.
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JCPL "+ts+" 1 a 0")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBP 0 "+ts+" 2 800 100 100")
	// Its resources are back: job 2 (all 4 cores) started at ft.
	wantText(t, e, exec(e, Command{Op: OpLSTJ, Server: Ref{"a", 0}}), "LSTJ a 0", "2 2 0 "+ts+" 50 4 100 100")
	// Retried with the full request (a plain SCHD), it completes.
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 0, Server: Ref{"a", 0}}), "SCHD 0 a 0", "OK")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JCPL "+strconv.Itoa(ft+50)+" 2 a 0")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JCPL "+strconv.Itoa(ft+150)+" 0 a 0")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "NONE")
	exec(e, Command{Op: OpQUIT})
	rep := e.Finish()
	if rep.Jobs != 3 || rep.Failed != 1 || rep.MemFailures != 1 || rep.WastedCoreSeconds != int64(2*ft) {
		t.Fatalf("report: jobs %d failed %d memFailures %d wasted %d; want 3 1 1 %d",
			rep.Jobs, rep.Failed, rep.MemFailures, rep.WastedCoreSeconds, 2*ft)
	}
	line := "# memory failures: 1, wasted core-seconds: " + strconv.Itoa(2*ft) + " (failure model: hard)\n# ===="
	if !strings.Contains(rep.Text, line) || !strings.Contains(rep.Text, "(failed 1 times)") {
		t.Fatalf("report text lacks %q or the failure count:\n%s", line, rep.Text)
	}
	if want := "t " + ts + ": job 0 on a 0 MEMORY FAILED\n"; !strings.Contains(log.String(), want) {
		t.Fatalf("log lacks %q:\n%s", want, log.String())
	}
}

// TestMemExtFailureAtSubmitIsJOBP: a job that fails at its own submit time
// (a draw of 0) is still offered again as JOBP, not JOBN.
func TestMemExtFailureAtSubmitIsJOBP(t *testing.T) {
	e := memEngine(t, MemFailHard, nil,
		model.Job{ID: 0, Submit: 7, EstRunTime: 0, ActRunTime: 0, Cores: 1, Memory: 800, Disk: 100, ActMemory: 500})
	exec(e, Command{Op: OpREDY})
	wantText(t, e, exec(e, schm(0, "a", 0, 100)), "SCHM 0 a 0 100", "OK")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBP 0 7 1 800 100 0")
}

// TestMemExtModels: which placements fail under each failure model (Part E
// item 5). Types small (400 MB) and big (1000 MB); job 0 requests 800 and
// uses 500; job 1 (placed second, same server) requests 600 and uses 600.
func TestMemExtModels(t *testing.T) {
	types := []model.ServerType{{Name: "small", Limit: 1, Cores: 4, Memory: 400, Disk: 1000},
		{Name: "big", Limit: 1, Cores: 4, Memory: 1000, Disk: 1000}}
	for _, tc := range []struct {
		name   string
		m      MemFailModel
		target string
		alloc  int
		second bool // place job 1 on big with its full request too (else it waits in GQ)
		fails  int
	}{
		{"hard: actMemory above allocMem fails", MemFailHard, "big", 400, false, 1},
		{"hard: allocMem covering actMemory runs", MemFailHard, "big", 500, false, 0},
		{"hard: SCHM onto a type below the request is accepted, and 500 > 400 fails", MemFailHard, "small", 400, false, 1},
		{"machine: allocMem below actMemory on a big type runs", MemFailMachine, "big", 100, false, 0},
		{"machine: a type below actMemory fails", MemFailMachine, "small", 400, false, 1},
		{"contention: alone on big, allocMem 100, runs", MemFailContention, "big", 100, false, 0},
		{"contention: 500 + 600 > 1000 fails the job started second", MemFailContention, "big", 100, true, 1},
		{"hard: the same pair with enough allocation runs", MemFailHard, "big", 500, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := memEngineTypes(t, tc.m, nil, types,
				model.Job{ID: 0, Submit: 0, EstRunTime: 100, ActRunTime: 100, Cores: 1, Memory: 800, Disk: 100, ActMemory: 500},
				model.Job{ID: 1, Submit: 1, EstRunTime: 100, ActRunTime: 100, Cores: 1, Memory: 600, Disk: 100, ActMemory: 600})
			exec(e, Command{Op: OpREDY})
			if r := exec(e, schm(0, tc.target, 0, tc.alloc)); r.Kind != ReplyOK {
				t.Fatalf("SCHM: %s", r.Refusal.Text("SCHM"))
			}
			exec(e, Command{Op: OpREDY})
			if !tc.second {
				exec(e, Command{Op: OpENQJ, Queue: "GQ"}) // job 1 stays out of the way
			} else if r := exec(e, Command{Op: OpSCHD, Job: 1, Server: Ref{"big", 0}}); r.Kind != ReplyOK {
				t.Fatalf("SCHD 1: %s", r.Refusal.Text("SCHD"))
			}
			exec(e, Command{Op: OpQUIT})
			if rep := e.Finish(); rep.MemFailures != tc.fails {
				t.Fatalf("memory failures %d, want %d", rep.MemFailures, tc.fails)
			}
		})
	}
}

// TestMemExtSCHMRefusals: SCHM's checks in order: the job, then allocMem
// (the project's "invalid allocation" text), then SCHD's, with allocMem as
// the memory of the capability check.
func TestMemExtSCHMRefusals(t *testing.T) {
	types := []model.ServerType{{Name: "small", Limit: 1, Cores: 4, Memory: 400, Disk: 1000},
		{Name: "big", Limit: 1, Cores: 4, Memory: 1000, Disk: 1000}}
	e := memEngineTypes(t, MemFailHard, nil, types,
		model.Job{ID: 0, Submit: 0, EstRunTime: 100, ActRunTime: 100, Cores: 1, Memory: 800, Disk: 100, ActMemory: 500})
	exec(e, Command{Op: OpREDY})
	for _, tc := range []struct {
		c         Command
		msg, want string
	}{
		{schm(5, "big", 0, 200), "SCHM 5 big 0 200", "ERR: No such waiting job exists"},
		{schm(0, "big", 0, 99), "SCHM 0 big 0 99", "ERR: invalid allocation (SCHM 0 big 0 99)!"},
		{schm(0, "big", 0, 801), "SCHM 0 big 0 801", "ERR: invalid allocation (SCHM 0 big 0 801)!"},
		{Command{Op: OpSCHM, Job: 0, Server: Ref{"big", 0}, Missing: MissingAlloc}, "SCHM 0 big 0", "ERR: invalid allocation (SCHM 0 big 0)!"},
		{schm(0, "huge", 0, 200), "SCHM 0 huge 0 200", "ERR: No such server type exists"},
		{schm(0, "big", 3, 200), "SCHM 0 big 3 200", "ERR: No such server exists (server id: out of bound)"},
		{schm(0, "small", 0, 500), "SCHM 0 small 0 500", "ERR: Server incapable of running such a job"},
		{schm(0, "small", 0, 400), "SCHM 0 small 0 400", "OK"},
	} {
		wantText(t, e, exec(e, tc.c), tc.msg, tc.want)
	}
}

// TestMemExtOff: with the extension off SCHM is ds-server's invalid command
// and nothing is booked differently.
func TestMemExtOff(t *testing.T) {
	e := memEngine(t, MemFailOff, nil,
		model.Job{ID: 0, Submit: 0, EstRunTime: 100, ActRunTime: 100, Cores: 1, Memory: 800, Disk: 100, ActMemory: 500})
	exec(e, Command{Op: OpREDY})
	wantText(t, e, exec(e, schm(0, "a", 0, 200)), "SCHM 0 a 0 200", "ERR: invalid command (SCHM 0 a 0 200)")
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 0, Server: Ref{"a", 0}}), "SCHD 0 a 0", "OK")
	exec(e, Command{Op: OpQUIT})
	if rep := e.Finish(); strings.Contains(rep.Text, "memory failures") || rep.Failed != 0 {
		t.Fatalf("report with the extension off:\n%s", rep.Text)
	}
}

// TestMemExtNeedsActMemory: the extension refuses a configuration whose
// jobs carry no actMemory, and one with an invalid actMemory, before the run.
func TestMemExtNeedsActMemory(t *testing.T) {
	cfg := &model.Config{Path: "c.xml", Types: []model.ServerType{{Name: "a", Limit: 1, Cores: 1, Memory: 100}}}
	_, err := NewEngine(cfg, Options{MemFail: MemFailHard})
	if err == nil || !strings.Contains(err.Error(), "needs a job file whose <job> elements carry actMemory") ||
		!strings.Contains(err.Error(), "c.xml uses generated jobs") {
		t.Fatalf("no actMemory: err %v", err)
	}
	if _, err := NewEngine(cfg, Options{}); err != nil {
		t.Fatalf("extension off: %v", err)
	}
	cfg.ActMemoryJobs, cfg.ActMemoryErr = 1, errString("j.xml: line 3: <job> 1 (id 1): attribute actMemory: 900 is above the job's memory 800")
	if _, err := NewEngine(cfg, Options{MemFail: MemFailMachine}); err == nil || err.Error() != cfg.ActMemoryErr.Error() {
		t.Fatalf("bad actMemory: err %v", err)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestMemExtDraw: the failure-time generator is splitmix64 (golden value:
// the first output from state 0 is 0xe220a8397b1dcdaf) scaled exactly.
func TestMemExtDraw(t *testing.T) {
	x := memExt{}
	if got := x.draw(1 << 32); got != 0xe220a839 {
		t.Fatalf("first draw × 2^32 from state 0: %#x, want 0xe220a839", got)
	}
	if got := x.draw(0); got != 0 {
		t.Fatalf("draw(0) = %d", got)
	}
	for _, s := range []string{"hard", "machine", "contention", "off"} {
		m, err := ParseMemFailModel(s)
		if err != nil || m.String() != s {
			t.Errorf("%s: %v %v", s, m, err)
		}
	}
	if _, err := ParseMemFailModel("soft"); err == nil || !strings.Contains(err.Error(), `"soft"`) {
		t.Errorf("soft: %v", err)
	}
}

// TestMemExtSameTimeOrder: jobs that fail at the same time come back in
// the order they failed, after the completion at that time; MIGJ keeps
// a job's allocation (the target's LSTJ shows allocMem).
func TestMemExtSameTimeOrder(t *testing.T) {
	types := []model.ServerType{{Name: "a", Limit: 2, BootupTime: 10, Cores: 4, Memory: 1000, Disk: 1000}}
	// A run time of 1 draws ⌊u⌋ = 0: each failing job fails at its start, 10.
	e := memEngineTypes(t, MemFailHard, nil, types,
		model.Job{ID: 0, Submit: 0, EstRunTime: 1, ActRunTime: 1, Cores: 1, Memory: 800, Disk: 100, ActMemory: 500},
		model.Job{ID: 1, Submit: 0, EstRunTime: 1, ActRunTime: 1, Cores: 1, Memory: 800, Disk: 100, ActMemory: 500},
		model.Job{ID: 2, Submit: 0, EstRunTime: 0, ActRunTime: 0, Cores: 1, Memory: 100, Disk: 100})
	exec(e, Command{Op: OpREDY})
	wantText(t, e, exec(e, schm(0, "a", 0, 100)), "SCHM 0 a 0 100", "OK")
	exec(e, Command{Op: OpREDY})
	wantText(t, e, exec(e, schm(1, "a", 0, 100)), "SCHM 1 a 0 100", "OK")
	exec(e, Command{Op: OpREDY})
	wantText(t, e, exec(e, Command{Op: OpSCHD, Job: 2, Server: Ref{"a", 0}}), "SCHD 2 a 0", "OK")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JCPL 10 2 a 0")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBP 0 10 1 800 100 1")
	wantText(t, e, exec(e, Command{Op: OpENQJ, Queue: "GQ"}), "ENQJ GQ", "OK")
	wantText(t, e, exec(e, Command{Op: OpREDY}), "REDY", "JOBP 1 10 1 800 100 1")
	// Job 1 again below its use, on a 1 (booting until 20), then moved to
	// a 0 (idle), where it starts at once, still booking 300.
	wantText(t, e, exec(e, schm(1, "a", 1, 300)), "SCHM 1 a 1 300", "OK")
	wantText(t, e, exec(e, Command{Op: OpMIGJ, Job: 1, Server: Ref{"a", 1}, To: Ref{"a", 0}}), "MIGJ 1 a 1 a 0", "OK")
	wantText(t, e, exec(e, Command{Op: OpLSTJ, Server: Ref{"a", 0}}), "LSTJ a 0", "1 2 0 10 1 1 300 100")
	exec(e, Command{Op: OpQUIT})
	if rep := e.Finish(); rep.MemFailures != 3 || rep.Failed != 3 || rep.Unscheduled != 2 {
		t.Fatalf("memory failures %d, failed %d, unscheduled %d; want 3 (the third on a 0 at QUIT), 3, 2", rep.MemFailures, rep.Failed, rep.Unscheduled)
	}
}
