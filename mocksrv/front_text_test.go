package mocksrv

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// tinyConfig is a hand-made system: three types (given out of core order
// to exercise the sorted order) and six jobs at 5, 10, 20, 30, 40, 50.
func tinyConfig() *simconfig.Config {
	types := []simconfig.ServerType{
		{Name: "tiny", Limit: 2, BootupTime: 10, HourlyRate: 0.1, Cores: 1, Memory: 1000, Disk: 4000},
		{Name: "small", Limit: 2, BootupTime: 20, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		{Name: "big", Limit: 1, BootupTime: 30, HourlyRate: 0.4, Cores: 4, Memory: 16000, Disk: 64000},
	}
	jobs := []simconfig.Job{
		{ID: 0, Submit: 5, EstRunTime: 50, ActRunTime: 40, Cores: 1, Memory: 500, Disk: 1000},
		{ID: 1, Submit: 10, EstRunTime: 100, ActRunTime: 100, Cores: 2, Memory: 1000, Disk: 2000},
		{ID: 2, Submit: 20, EstRunTime: 30, ActRunTime: 30, Cores: 4, Memory: 2000, Disk: 2000},
		{ID: 3, Submit: 30, EstRunTime: 60, ActRunTime: 60, Cores: 1, Memory: 100, Disk: 100},
		{ID: 4, Submit: 40, EstRunTime: 70, ActRunTime: 70, Cores: 1, Memory: 100, Disk: 100},
		{ID: 5, Submit: 50, EstRunTime: 80, ActRunTime: 80, Cores: 1, Memory: 100, Disk: 100},
	}
	for i := range jobs {
		jobs[i].Type = "t"
	}
	return &simconfig.Config{Path: "tiny.xml", Seed: 1024, Types: types, ConfigOrder: types, Jobs: jobs,
		EndTime: 2592000, JobCount: len(jobs), JobFile: "jobs.xml"}
}

// failConfig adds a failure trace: small 1 fails 12..15 (recovers at 16).
func failConfig() *simconfig.Config {
	c := tinyConfig()
	c.FailureFile = "f.txt"
	c.Failures = []simconfig.FailureRecord{{Start: 12, End: 15, Type: "small", ID: 1}}
	return c
}

// dlg drives a text front message by message.
type dlg struct {
	t      *testing.T
	tx     *Text
	log    bytes.Buffer
	stderr bytes.Buffer
}

const noReply = "<no reply>"

func newDlg(t *testing.T, cfg *simconfig.Config, opt Options) *dlg {
	d := &dlg{t: t}
	if opt.Year == 0 {
		opt.Year = Year2025 // the dialogues of these tests are the 2025 server's
	}
	opt.Log = &d.log
	opt.Stderr = &d.stderr
	tx, err := NewText(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	d.tx = tx
	return d
}

// x sends one message and checks the exact reply bytes.
func (d *dlg) x(send, want string) {
	d.t.Helper()
	got, _, err := d.tx.Handle(send)
	if err != nil {
		d.t.Fatalf("%q: unexpected error %v", send, err)
	}
	g := string(got)
	if got == nil {
		g = noReply
	}
	if g != want {
		d.t.Fatalf("%q:\n got %q\nwant %q", send, g, want)
	}
}

// start does the handshake and the first REDY.
func (d *dlg) start(first string) {
	d.t.Helper()
	d.x("HELO", "OK")
	d.x("AUTH me", "OK")
	d.x("REDY", first)
}

func TestHandshakeAndPreSimulation(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{Level: LevelAll})
	d.x("HELO", "OK")
	d.x("AUTH bob", "OK")
	for _, m := range []string{"SCHD 0 tiny 0", "QUIT", "OK", "ENQJ GQ", "REDYX", "HELO"} {
		d.x(m, "ERR") // §1.5 step 3: only exact REDY or GETS… start the simulation
	}
	d.x("GETS Type big", "DATA 1 124") // GETS is legal before the first REDY
	d.x("OK", "big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	d.x("REDY", "JOBN 0 5 1 500 1000 50")
	d.tx.Flush()
	if !strings.Contains(d.log.String(), "# Welcome  bob!\n# The system information can be read from 'ds-system.xml'\n") {
		t.Errorf("welcome lines missing:\n%s", d.log.String())
	}
	if !strings.Contains(d.stderr.String(), "ERR: invalid message (SCHD 0 tiny 0)!") {
		t.Errorf("stderr %q", d.stderr.String())
	}
}

func TestHandshakeFailures(t *testing.T) {
	for _, c := range []struct{ first, second string }{{"HELLO", ""}, {"HELO", "AUTH"}, {"HELO", "BOB x"}} {
		d := newDlg(t, tinyConfig(), Options{})
		msgs := []string{c.first}
		if c.second != "" {
			d.x(c.first, "OK")
			msgs = []string{c.second}
		}
		got, done, err := d.tx.Handle(msgs[0])
		var f *Fatal
		if string(got) != "ERR" || !done || !errors.As(err, &f) || f.Status == 0 {
			t.Errorf("%v: got %q done %v err %v; want ERR, done, a *Fatal", c, got, done, err)
		}
	}
}

func TestNewlineMode(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{Newline: true})
	d.x("HELO\n", "OK\n")
	d.x("AUTH x\n", "OK\n")
	d.x("REDY\n", "JOBN 0 5 1 500 1000 50\n")
	d.x("GETS Type tiny\n", "DATA 2 124\n")
	d.x("OK\n", "tiny 0 inactive -1 1 1000 4000 0 0\n          tiny 1 inactive -1 1 1000 4000 0 0\n")
	d.x("OK\n", ".\n")
	// Stray OKs re-send the previous message with one more '\n' each time [BUG-COMPAT] (§1.4).
	d.x("OK\n", ".\n\n")
	d.x("OK\n", ".\n\n\n")
	d.x("HELO\n", ".\n\n\n\n")
	d.x("LSTQ GQ #\n", "0\n")
	d.x("SCHD 0 tiny 0\n", "OK\n")
	d.x("ENQJ GQ\n", "ERR: no job to enqueue!\n")
	d.x("REDY\n", "JOBN 1 10 2 1000 2000 100\n")
	d.x("ENQJ GQ\n", "OK\n")
	d.x("LSTQ GQ 0\n", "1 0 10 10 100 2 1000 2000\n\n") // the record carries its own '\n' (§5.7)
	// A message without its newline is fatal (§1.4).
	_, done, err := d.tx.Handle("REDY")
	var f *Fatal
	if !done || !errors.As(err, &f) || f.Msg != "No new line character at the end of REDY!" || f.Status != 1 {
		t.Fatalf("done %v err %v", done, err)
	}
}

func TestDispatchAndResend(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("OKAY", "JOBN 0 5 1 500 1000 50") // prefix OK: re-send previous
	d.x("HELO", "JOBN 0 5 1 500 1000 50")
	d.x("AUTH again", "JOBN 0 5 1 500 1000 50")
	d.x("NONE", "JOBN 0 5 1 500 1000 50")
	d.x("RESF x", "JOBN 0 5 1 500 1000 50")
	d.x("QUIT now", "JOBN 0 5 1 500 1000 50") // only the exact QUIT quits
	d.x("schd 0 tiny 0", "ERR: invalid command (schd 0 tiny 0)")
	d.x("JCPL 1 2 tiny 0", "ERR: invalid command (JCPL 1 2 tiny 0)") // decision 3
	d.x("HELLO", "ERR: invalid command (HELLO)")
	d.x("REDYX", "JOBN 0 5 1 500 1000 50") // prefix REDY: the job is offered again
	d.x("GETSType tiny", "DATA 2 124")     // option found after skipping non-letters
	d.x("REDY", noReply)                   // swallowed inside a DATA exchange (§5.2)
	d.x("OK", "tiny 0 inactive -1 1 1000 4000 0 0\n          tiny 1 inactive -1 1 1000 4000 0 0")
	d.x("SCHD 0 tiny 0", noReply)
	d.x("OK", ".")
	d.x("OK", ".")
	if !strings.Contains(d.stderr.String(), `The message is supposed to be "OK", but received "REDY"`) {
		t.Errorf("stderr %q", d.stderr.String())
	}
}

// TestResc: the old GETS (§5.15): DATA, one record per OK, then ".".
func TestResc(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("RESC Type tiny", "DATA")
	d.x("REDY", noReply)
	d.x("OK", "tiny 0 0 15 1 1000 4000") // inactive at 5, boot 10 (cf. the verified "tiny 0 0 22 …" at 12)
	d.x("OK", "tiny 1 0 15 1 1000 4000")
	d.x("OK", ".")
	d.x("SCHD 0 small 0", "OK")
	d.x("RESC Avail 1 100 100", "DATA")
	d.x("OK", "tiny 0 0 15 1 1000 4000")
	d.x("OK", "tiny 1 0 15 1 1000 4000")
	d.x("OK", "small 1 0 25 2 4000 16000")
	d.x("OK", "big 0 0 35 4 16000 64000")
	d.x("OK", ".")
	d.x("RESC One small 0", "DATA")
	d.x("OK", "small 0 1 -1 1 3500 15000")
	d.x("OK", ".")
	d.x("RESC Type nosuch", "ERR: invalid resource information query (RESC Type nosuch)!")
}

func TestGetsErrors(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	for _, m := range []string{"GETS", "GETS Foo", "GETS Type", "GETS Type nosuch", "GETS Type tiny x",
		"GETS Capable 1 1 1", "GETS Capable 1 100 99", "GETS Capable 5 100 100", "GETS Capable 1 16001 100",
		"GETS Capable 1 100 64001", "GETS Capable 1 100", "GETS Capable 1 100 100 7", "GETS Avail 0 100 100",
		"GETS Bounded x 100 100", "GETS One tiny 2", "GETS One tiny -1", "GETS One nosuch 0", "GETS One tiny"} {
		d.x(m, "ERR: invalid resource information query ("+m+")!")
	}
	d.x("GETS All extra", "DATA 5 124") // extra tokens ignored
	d.x("OK", "tiny 0 inactive -1 1 1000 4000 0 0\n          tiny 1 inactive -1 1 1000 4000 0 0\n"+
		"          small 0 inactive -1 2 4000 16000 0 0\n          small 1 inactive -1 2 4000 16000 0 0\n"+
		"          big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	d.x("GETS Capable 2 100 100", "DATA 3 124")
	d.x("OK", "small 0 inactive -1 2 4000 16000 0 0\n          small 1 inactive -1 2 4000 16000 0 0\n          big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	d.x("GETS Bounded 1 100 100", "DATA 1 124") // all inactive: only the first
	d.x("OK", "tiny 0 inactive -1 1 1000 4000 0 0")
	d.x("OK", ".")
	d.x("SCHD 0 small 1", "OK")
	d.x("GETS Bounded 1 100 100", "DATA 5 124") // last non-inactive is small 1: up to big 0
	d.x("OK", "tiny 0 inactive -1 1 1000 4000 0 0\n          tiny 1 inactive -1 1 1000 4000 0 0\n          small 0 inactive -1 2 4000 16000 0 0\n          small 1 booting 25 1 3500 15000 1 0\n          big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	d.x("GETS Avail 1 100 100", "DATA 4 124") // booting small 1 holds a waiting job: excluded
	d.x("OK", "tiny 0 inactive -1 1 1000 4000 0 0\n          tiny 1 inactive -1 1 1000 4000 0 0\n          small 0 inactive -1 2 4000 16000 0 0\n          big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	d.x("GETS One small 1", "DATA 1 124")
	d.x("OK", "small 1 booting 25 1 3500 15000 1 0")
	d.x("OK", ".")
	d.x("GETS Avail 4 16000 64000", "DATA 1 124")
	d.x("OK", "big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	d.x("GETS Avail 2 16000 64000", "DATA 1 124")
	d.x("OK", "big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	if !strings.Contains(d.stderr.String(), "No such server type by nosuch exists!") {
		t.Errorf("stderr %q", d.stderr.String())
	}
}

func TestSchdErrors(t *testing.T) {
	d := newDlg(t, failConfig(), Options{})
	d.x("HELO", "OK")
	d.x("AUTH x", "OK")
	d.x("GETS One tiny 0", "DATA 1 166") // failures simulated: longer records
	d.x("OK", "tiny 0 inactive -1 1 1000 4000 0 0 0 0 -1 -1 -1 0")
	d.x("OK", ".")
	d.x("SCHD 0 tiny 0", "ERR: No such waiting job exists") // not offered yet
	d.x("REDY", "RESF tiny 0 0")                            // the phantom failure (Appendix C.1)
	d.x("REDY", "JOBN 0 5 1 500 1000 50")
	d.x("SCHD 1 tiny 1", "ERR: No such waiting job exists") // not released
	d.x("SCHD 0 nosuch 0", "ERR: No such server type exists")
	d.x("SCHD 0 tiny 2", "ERR: No such server exists (server id: out of bound)")
	d.x("SCHD 0 tiny", "ERR: No such server exists (server id: out of bound)")
	d.x("SCHD 0 tiny x", "ERR: No such server exists (server id: out of bound)")
	d.x("SCHD x tiny 1", "ERR: No such waiting job exists")
	d.x("SCHD 0 tiny 0", "ERR: The specified server unavailable")
	d.x("GETS One tiny 0", "DATA 1 166")
	d.x("OK", "tiny 0 unavailable -1 0 0 0 0 0 1 0 0 -1 0 0")
	d.x("OK", ".")
	d.x("REDY", "JOBN 0 5 1 500 1000 50") // refused: offered again, identically
	d.x("SCHD 0 tiny 1x", "OK")           // sscanf: "1x" is 1
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("SCHD 1 tiny 1", "ERR: Server incapable of running such a job")
	d.x("SCHD 1 small 1 extra tokens", "OK")
	d.x("REDY", "RESF small 1 12")
	d.x("LSTQ GQ *", "DATA 1 55")
	d.x("OK", "1 0 10 12 100 2 1000 2000")
	d.x("OK", ".")
	d.x("GETS One small 1", "DATA 1 166")
	d.x("OK", "small 1 unavailable -1 0 0 0 0 0 1 0 12 -1 9 0")
	d.x("OK", ".")
	d.x("REDY", "RESR small 1 16")
	d.x("GETS One small 1", "DATA 1 166")
	d.x("OK", "small 1 inactive -1 2 4000 16000 0 0 1 3 12 3 9 16")
	d.x("OK", ".")
}

func TestQueueCommands(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("ENQJ", "ERR: invalid syntax (ENQJ queue_name)!")
	d.x("ENQJ GQ x", "ERR: invalid syntax (ENQJ queue_name)!")
	d.x("ENQJ XQ", "ERR: no such queue exists (ENQJ XQ)!")
	d.x("LSTQ GQ $", "ERR: invalid queued job listing query (LSTQ GQ $)!") // empty GQ
	d.x("LSTQ GQ 0", "ERR: invalid queued job listing query (LSTQ GQ 0)!")
	d.x("LSTQ GQ *", "DATA 0 55")
	d.x("OK", ".")
	d.x("ENQJ GQ", "OK")
	d.x("ENQJ GQ", "ERR: no job to enqueue!")
	d.x("SCHD 0 tiny 0", "ERR: No such waiting job exists") // in GQ, not SQ
	d.x("LSTQ GQ 0", "0 0 5 5 50 1 500 1000\n")
	d.x("LSTQ GQ $", "0 0 5 5 50 1 500 1000\n")
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("ENQJ GQ", "OK")
	d.x("LSTQ GQ #", "2")
	d.x("LSTQ GQ 1", "No such queue ID (1) exists!") // [BUG-COMPAT] §5.7
	d.x("LSTQ GQ $", "No such queue ID (1) exists!")
	d.x("LSTQ GQ 2", "ERR: invalid queued job listing query (LSTQ GQ 2)!")
	d.x("LSTQ GQ -1", "ERR: invalid queued job listing query (LSTQ GQ -1)!")
	d.x("LSTQ GQ x", "ERR: invalid queued job listing query (LSTQ GQ x)!")
	d.x("LSTQ XQ #", "ERR: invalid queued job listing query (LSTQ XQ #)!")
	d.x("LSTQ GQ", "ERR: invalid queued job listing query (LSTQ GQ)!")
	d.x("LSTQ GQ *", "DATA 2 55")
	d.x("OK", "0 0 5 5 50 1 500 1000\n1 1 10 10 100 2 1000 2000")
	d.x("OK", ".")
	d.x("DEQJ GQ", "ERR: invalid syntax (DEQJ queue_name q_ID)!")
	d.x("DEQJ GQ 2", "ERR: no job in the queue ID of 2 (current Q length: 2)!")
	d.x("DEQJ GQ -1", "ERR: no job in the queue ID of -1 (current Q length: 2)!")
	d.x("DEQJ XQ 1", "OK") // the queue name is not checked (§5.6)
	// The clock (10) equals job 1's submit time: JOBN, not JOBP (§5.6).
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
}

func TestDequeuedJobIsJOBP(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("ENQJ GQ", "OK")
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("DEQJ GQ 0", "OK")
	d.x("REDY", "JOBP 0 10 1 500 1000 50") // head of SQ, offered at the clock (10)
	d.x("SCHD 0 tiny 0", "OK")
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
}

func TestJobQueries(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	for _, m := range []string{"LSTJ tiny", "LSTJ tiny 2", "LSTJ nosuch 0", "LSTJ tiny 0 x", "LSTJ tiny -1"} {
		d.x(m, "ERR: invalid job listing query ("+m+")!")
	}
	for _, m := range []string{"CNTJ tiny 0", "CNTJ tiny 0 0", "CNTJ tiny 0 8", "CNTJ tiny 0 9", "CNTJ tiny 0 -1",
		"CNTJ tiny 0 x", "CNTJ nosuch 0 1", "CNTJ tiny 5 1"} {
		d.x(m, "ERR: invalid job count query ("+m+")!")
	}
	for _, m := range []string{"EJWT tiny", "EJWT tiny 0 x", "EJWT tiny 9"} {
		d.x(m, "ERR: invalid estimated waiting time query ("+m+")!")
	}
	d.x("LSTJ tiny 0", "DATA 0 59")
	d.x("OK", ".")
	d.x("SCHD 0 small 0", "OK") // boots until 25
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("SCHD 1 small 0", "OK") // does not fit beside job 0: unknown start
	d.x("REDY", "JOBN 2 20 4 2000 2000 30")
	d.x("LSTJ small 0", "DATA 2 59")
	d.x("OK", "0 1 5 25 50 1 500 1000\n1 1 10 -1 100 2 1000 2000")
	d.x("OK", ".")
	d.x("EJWT small 0", "150")
	d.x("CNTJ small 0 1", "2")
	d.x("CNTJ small 0 2", "0")
	d.x("CNTJ small 0 3", "0")
	d.x("SCHD 2 big 0", "OK")
	d.x("REDY", "JOBN 3 30 1 100 100 60") // small 0 booted at 25: job 0 runs
	d.x("LSTJ small 0", "DATA 2 59")
	d.x("OK", "0 2 5 25 50 1 500 1000\n1 1 10 -1 100 2 1000 2000")
	d.x("OK", ".")
	d.x("CNTJ small 0 2", "1")
	d.x("EJWT small 0", "100") // running jobs are ignored
}

func TestKillTermMigrate(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{Level: LevelAll})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("SCHD 0 small 0", "OK") // booting until 25, job 0 known start 25
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("SCHD 1 big 0", "OK") // booting until 40
	d.x("REDY", "JOBN 2 20 4 2000 2000 30")
	for _, m := range []string{"TERM tiny 0", "TERM tiny", "TERM nosuch 0", "TERM tiny 7"} {
		d.x(m, "ERR: invalid server termination command ("+m+")!") // inactive, bad args
	}
	for _, m := range []string{"KILJ small 0", "KILJ small 0 7", "KILJ small 9 0", "KILJ small 0 0 x"} {
		d.x(m, "ERR: invalid job termination command ("+m+")!")
	}
	for _, m := range []string{"MIGJ 0 small 0 tiny", "MIGJ 0 small 0 tiny 9", "MIGJ 0 nosuch 0 tiny 0", "MIGJ 2 small 0 big 0 x"} {
		d.x(m, "ERR: "+m+"!")
	}
	d.x("MIGJ 0 small 0 small 0", "ERR: Cannot migrate to itself (MIGJ 0 small 0 small 0)!")
	d.x("MIGJ 1 small 0 tiny 0", "ERR: No such job (1) on small 0 (MIGJ 1 small 0 tiny 0)!")
	d.x("MIGJ 1 big 0 tiny 0", "ERR: MIGJ 1 big 0 tiny 0!") // tiny cannot take 2 cores
	d.x("MIGJ 0 small 0 tiny 1", "OK")                      // small 0 had only job 0: back to inactive
	d.x("GETS One small 0", "DATA 1 124")
	d.x("OK", "small 0 inactive -1 2 4000 16000 0 0")
	d.x("OK", ".")
	d.x("LSTJ tiny 1", "DATA 1 59")
	d.x("OK", "0 1 5 30 50 1 500 1000") // restarts: boot ends at 20 + 10
	d.x("OK", ".")
	d.x("SCHD 2 big 0", "OK") // big 0 booting; job 2 does not fit beside job 1: unknown start
	d.x("REDY", "JOBN 3 30 1 100 100 60")
	d.x("TERM big 0", "2 jobs killed") // booting: no billing
	d.x("LSTQ GQ *", "DATA 2 55")
	d.x("OK", "1 0 10 30 100 2 1000 2000\n2 1 20 30 30 4 2000 2000")
	d.x("OK", ".")
	d.x("CNTJ big 0 7", "2")
	d.x("SCHD 3 tiny 1", "OK") // tiny 1 active since 30 with job 0 running: job 3 waits
	d.x("REDY", "JOBN 4 40 1 100 100 70")
	d.x("KILJ tiny 1 0", "OK") // KILJ does not start the waiting job 3 [BUG-COMPAT]
	d.x("LSTJ tiny 1", "DATA 1 59")
	d.x("OK", "3 1 30 -1 60 1 100 100")
	d.x("OK", ".")
	d.x("CNTJ tiny 1 7", "1")
	d.x("LSTQ GQ #", "3")
	d.x("SCHD 4 tiny 0", "OK")
	d.x("REDY", "JOBN 5 50 1 100 100 80") // advance: tiny 1 active with nothing running -> idle
	d.x("GETS One tiny 1", "DATA 1 124")
	d.x("OK", "tiny 1 idle 30 1 1000 4000 1 0")
	d.x("OK", ".")
	d.x("SCHD 5 tiny 1", "OK") // idle: runs at once even with job 3 waiting
	d.x("REDY", "CHKQ")
	d.x("TERM tiny 1", "2 jobs killed")
	d.x("LSTQ GQ #", "5")
	d.tx.Flush()
	if !strings.Contains(d.log.String(), "job 0 on tiny 1 killed\n\n") {
		t.Errorf("no killed line with its empty line in the log")
	}
}

// TestPushSequence is ds-server.md §5.14's verified PSHJ sequence.
func TestPushSequence(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.x("HELO", "OK")
	d.x("AUTH x", "OK")
	d.x("PSHJ", "ERR") // before the simulation starts
	d.x("REDY", "JOBN 0 5 1 500 1000 50")
	d.x("PSHJ", "OK")
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("PSHJ", "OK")
	d.x("REDY", "JOBP 0 11 1 500 1000 50")
	d.x("PSHJ", "OK")
	d.x("REDY", "JOBP 1 12 2 1000 2000 100")
	d.x("SCHD 1 small 0", "OK")
	d.x("REDY", "JOBP 0 13 1 500 1000 50")
	d.x("SCHD 0 small 1", "OK")
	d.x("PSHJ", "JOBN 2 20 4 2000 2000 30") // nothing on offer: handled as REDY
}

// TestQuitReport: QUIT runs everything to completion, then the
// unscheduled block and the report; accounting of TERM and KILJ.
func TestQuitReport(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{Level: LevelBrief})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("SCHD 0 tiny 0", "OK") // boot 5..15, runs 15..55
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("SCHD 1 small 0", "OK") // boot 10..30, runs 30..130
	d.x("REDY", "JOBN 2 20 4 2000 2000 30")
	d.x("ENQJ GQ", "OK")
	d.x("REDY", "JOBN 3 30 1 100 100 60")
	got, done, err := d.tx.Handle("QUIT")
	if string(got) != "QUIT" || !done || err != nil {
		t.Fatalf("QUIT: %q %v %v", got, done, err)
	}
	rep := d.tx.Report()
	if rep.EndTime != 130 || rep.Jobs != 2 || rep.ServersUsed != 2 || rep.AvgWait != 15 || rep.AvgExec != 70 || rep.Unscheduled != 4 {
		t.Errorf("report %+v", rep)
	}
	want := "# -----------[ Jobs in the scheduling queue ]-----------\n# Job 3 submitted at 30...\n" +
		"# ---------------------------------------------------\n# -----------[ Jobs in the global queue ]-----------\n" +
		"# Job 2 initially submitted at 20 and queued at 20...\n# ---------------------------------------------------\n" +
		"# --------[ Jobs created and yet, submitted ]--------\n# Job 4 created to be submitted at 40...\n" +
		"# Job 5 created to be submitted at 50...\n# ---------------------------------------------------\n"
	if !strings.Contains(d.log.String(), "SENT QUIT\n"+want+rep.Text) {
		t.Errorf("log end:\n%s", d.log.String())
	}
	if !strings.Contains(d.stderr.String(), "4 jobs not scheduled!") {
		t.Errorf("stderr %q", d.stderr.String())
	}
	if g, _, _ := d.tx.Handle("REDY"); g != nil {
		t.Errorf("a reply after QUIT: %q", g)
	}
}

// TestAccountingTermKillMigrate: billed time, busy time and effective
// usage after TERM, KILJ and MIGJ, computed by hand from §6.1-§6.3.
func TestAccountingTermKillMigrate(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{Level: ParseLevel("brief+")})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("SCHD 0 tiny 0", "OK") // boot 5..15; job 0 runs 15..55
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("SCHD 1 small 0", "OK") // boot 10..30; job 1 runs 30..130
	d.x("REDY", "JOBN 2 20 4 2000 2000 30")
	d.x("SCHD 2 big 0", "OK") // boot 20..50; job 2 runs 50..80
	d.x("REDY", "JOBN 3 30 1 100 100 60")
	d.x("SCHD 3 tiny 1", "OK") // boot 30..40; job 3 runs 40..100
	d.x("REDY", "JOBN 4 40 1 100 100 70")
	d.x("TERM small 0", "1 jobs killed") // billed 40-30, busy 10
	d.x("SCHD 4 tiny 0", "OK")           // tiny 0 full: job 4 waits
	d.x("KILJ tiny 0 0", "OK")           // busy 40-15; job 4 is not started
	d.x("REDY", "JOBN 5 50 1 100 100 80")
	d.x("MIGJ 3 tiny 1 small 1", "OK") // restarts on small 1: boot 50..70, runs 70..130; no trace on tiny 1
	d.x("SCHD 5 tiny 0", "OK")         // tiny 0 idle: job 5 runs 50..130 although job 4 waits
	d.x("REDY", "CHKQ")                // everything released, jobs 1 and 0 in GQ (§3.2 step 3)
	d.x("REDY", "JCPL 80 2 big 0")     // CHKQ and JCPL alternate while nobody dequeues
	if _, done, err := d.tx.Handle("QUIT"); !done || err != nil {
		t.Fatal(done, err)
	}
	// QUIT: tiny 0 completes job 5 at 130, then starts job 4 (130..200).
	rep := d.tx.Report()
	want := Report{EndTime: 200, Jobs: 4, Failed: 0, ServersUsed: 4, AvgWait: 40, AvgExec: 60, AvgTurnaround: 100}
	if rep.EndTime != want.EndTime || rep.Jobs != want.Jobs || rep.ServersUsed != want.ServersUsed ||
		rep.AvgWait != want.AvgWait || rep.AvgExec != want.AvgExec || rep.AvgTurnaround != want.AvgTurnaround {
		t.Errorf("report %+v", rep)
	}
	for _, line := range []string{
		"# --- server 0 -- util: 94.59%, cost: $0.01, 0 times failed (0), act. usage: 175, total usage: 185 , ef. usage: 150 (81.08%); jobs: 3 scheduled, 2 completed, 0 failed, 0 preempted, 1 killed\n",
		"# ----- job 0 -- submit: 5, start: 15, end: 40, core: 1, mem: 500, disk: 1000\n",
		"# ----- job 4 -- submit: 40, start: 130, end: 200, core: 1, mem: 100, disk: 100\n",
		"# --- server 1 NEVER USED!\n",
		"# 1 tiny servers used with a utilisation of 94.59 at the cost of $0.01\n",
		"# --- server 0 -- util: 100.00%, cost: $0.00, 0 times failed (0), act. usage: 10, total usage: 10 , ef. usage: 0 (0.00%); jobs: 1 scheduled, 0 completed, 0 failed, 0 preempted, 1 killed\n",
		"# --- server 1 -- util: 100.00%, cost: $0.00, 0 times failed (0), act. usage: 60, total usage: 60 , ef. usage: 60 (100.00%); jobs: 1 scheduled, 1 completed, 0 failed, 0 preempted, 0 killed\n",
		"# 2 small servers used with a utilisation of 100.00 at the cost of $0.00\n",
		"# 1 big servers used with a utilisation of 100.00 at the cost of $0.00\n",
		"# total #servers used: 4, avg util: 98.65% (ef. usage: 84.21%), total cost: $0.01\n",
	} {
		if !strings.Contains(rep.Text, line) {
			t.Errorf("report lacks %q:\n%s", line, rep.Text)
		}
	}
}

// TestNoneSent: NoneSent turns true when the server sends NONE, not when
// the client sends the word.
func TestNoneSent(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("NONE", "JOBN 0 5 1 500 1000 50") // a client's NONE re-sends the previous message
	for m := "JOBN 0"; m != "NONE"; {
		if f := strings.Fields(m); f[0] == "JOBN" {
			d.x("SCHD "+f[1]+" big 0", "OK")
		}
		if d.tx.NoneSent() {
			t.Fatal("NoneSent before NONE")
		}
		r, _, _ := d.tx.Handle("REDY")
		m = string(r)
	}
	if !d.tx.NoneSent() {
		t.Fatal("NoneSent is false after NONE")
	}
}
