package mocksrv

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	"github.com/dssim-go/dssim-go/protocol"
)

// twoDoors runs the same dialogue through a Session and a text front and
// compares every reply, then the logs and the reports.
type twoDoors struct {
	t    testing.TB
	s    *Session
	tx   *Text
	slog bytes.Buffer
	tlog bytes.Buffer
	last int // id of the last job offered
	step int
}

func newTwoDoors(t testing.TB, cfg *simconfig.Config, opt Options) *twoDoors {
	d := &twoDoors{t: t}
	so, to := opt, opt
	so.Log, to.Log = &d.slog, &d.tlog
	var err error
	if d.s, err = NewSession(cfg, so); err != nil {
		t.Fatal(err)
	}
	if d.tx, err = NewText(cfg, to); err != nil {
		t.Fatal(err)
	}
	if err := d.s.Handshake("me"); err != nil {
		t.Fatal(err)
	}
	d.text("HELO")
	d.text("AUTH me")
	return d
}

// text sends one message to the text front and returns the reply.
func (d *twoDoors) text(msg string) string {
	r, _, err := d.tx.Handle(msg)
	if err != nil {
		d.t.Fatalf("step %d: text front %q: %v", d.step, msg, err)
	}
	return string(r)
}

// data completes a DATA exchange on the text front and returns the records.
func (d *twoDoors) data(header string) []string {
	f := strings.Fields(header)
	if len(f) != 3 || f[0] != "DATA" {
		return nil
	}
	n, _ := strconv.Atoi(f[1])
	var recs []string
	if n > 0 {
		for _, r := range strings.Split(d.text("OK"), "\n") {
			recs = append(recs, strings.TrimLeft(r, " "))
		}
	}
	if end := d.text("OK"); end != "." {
		d.t.Fatalf("step %d: DATA exchange ended with %q", d.step, end)
	}
	return recs
}

// same compares a Session outcome (reply or error) with the text reply.
func (d *twoDoors) same(what, sreply string, serr error, treply string) {
	d.t.Helper()
	if serr != nil {
		var se *protocol.ServerError
		if !errors.As(serr, &se) {
			d.t.Fatalf("step %d %s: session error %v", d.step, what, serr)
		}
		sreply = se.Text
	}
	if sreply != treply {
		d.t.Fatalf("step %d %s:\nsession %q\ntext    %q", d.step, what, sreply, treply)
	}
}

func strs[T fmt.Stringer](v []T) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = x.String()
	}
	return out
}

func (d *twoDoors) sameRecs(what string, srecs []string, serr error, header string) {
	d.t.Helper()
	if serr != nil || !strings.HasPrefix(header, "DATA") {
		d.same(what, "", serr, header)
		return
	}
	trecs := d.data(header)
	if strings.Join(srecs, "|") != strings.Join(trecs, "|") {
		d.t.Fatalf("step %d %s:\nsession %q\ntext    %q", d.step, what, srecs, trecs)
	}
}

// act does one random step through both doors.
func (d *twoDoors) act(r *rand.Rand, cfg *simconfig.Config) {
	d.step++
	ref := func() protocol.ServerRef {
		if r.Intn(10) == 0 {
			return protocol.ServerRef{Type: "nosuch", ID: 0}
		}
		t := cfg.Types[r.Intn(len(cfg.Types))]
		return protocol.ServerRef{Type: t.Name, ID: r.Intn(t.Limit+1) - r.Intn(2)}
	}
	jobID := func() int {
		if r.Intn(4) == 0 {
			return r.Intn(len(cfg.Jobs) + 1)
		}
		return d.last
	}
	req := func() protocol.Requirement {
		return protocol.Requirement{Cores: r.Intn(6), Memory: 50 + r.Intn(20000), Disk: 50 + r.Intn(70000)}
	}
	switch op := r.Intn(16); op {
	case 0, 1, 2, 3:
		ev, err := d.s.Ready()
		tr := d.text("REDY")
		if err != nil {
			d.same("REDY", "", err, tr)
			return
		}
		d.same("REDY", ev.String(), nil, tr)
		if o, ok := ev.(*protocol.JobOffer); ok {
			d.last = o.ID
		}
	case 4, 5:
		a := protocol.Schedule{JobID: jobID(), Server: ref()}
		rep, err := d.s.Do(a)
		d.same(a.String(), rep, err, d.text(a.String()))
	case 6:
		var a protocol.Action = protocol.Enqueue{}
		if r.Intn(2) == 0 {
			a = protocol.Dequeue{QID: r.Intn(3) - 1}
		}
		rep, err := d.s.Do(a)
		d.same(a.String(), rep, err, d.text(a.String()))
	case 7:
		rep, err := d.s.Do(protocol.Push{})
		d.same("PSHJ", rep, err, d.text("PSHJ"))
	case 8:
		q := req()
		var recs []protocol.Server
		var err error
		var cmd string
		switch r.Intn(6) {
		case 0:
			recs, err = d.s.GetsAll()
			cmd = "GETS All"
		case 1:
			x := ref()
			recs, err = d.s.GetsType(x.Type)
			cmd = "GETS Type " + x.Type
		case 2:
			x := ref()
			var one protocol.Server
			one, err = d.s.GetsOne(x)
			recs, cmd = []protocol.Server{one}, "GETS One "+x.String()
		case 3:
			recs, err = d.s.GetsCapable(q)
			cmd = "GETS Capable " + q.String()
		case 4:
			recs, err = d.s.GetsAvail(q)
			cmd = "GETS Avail " + q.String()
		default:
			recs, err = d.s.GetsBounded(q)
			cmd = "GETS Bounded " + q.String()
		}
		d.sameRecs(cmd, strs(recs), err, d.text(cmd))
	case 9:
		x := ref()
		recs, err := d.s.ListJobs(x)
		d.sameRecs("LSTJ", strs(recs), err, d.text("LSTJ "+x.String()))
	case 10:
		x, st := ref(), protocol.JobState(r.Intn(10)-1)
		n, err := d.s.CountJobs(x, st)
		d.same("CNTJ", strconv.Itoa(n), err, d.text("CNTJ "+x.String()+" "+strconv.Itoa(int(st))))
	case 11:
		x := ref()
		n, err := d.s.EstWait(x)
		d.same("EJWT", strconv.Itoa(n), err, d.text("EJWT "+x.String()))
	case 12:
		if r.Intn(2) == 0 {
			n, err := d.s.QueueLen()
			d.same("LSTQ #", strconv.Itoa(n), err, d.text("LSTQ GQ #"))
		} else {
			q, err := d.s.ListQueue()
			d.sameRecs("LSTQ *", strs(q), err, d.text("LSTQ GQ *"))
		}
	case 13:
		a := protocol.Migrate{JobID: jobID(), From: ref(), To: ref()}
		rep, err := d.s.Do(a)
		d.same(a.String(), rep, err, d.text(a.String()))
	case 14:
		a := protocol.Kill{Server: ref(), JobID: jobID()}
		rep, err := d.s.Do(a)
		d.same(a.String(), rep, err, d.text(a.String()))
	case 15:
		a := protocol.Terminate{Server: ref()}
		rep, err := d.s.Do(a)
		d.same(a.String(), rep, err, d.text(a.String()))
	}
}

// finish quits both doors and compares the logs and reports.
func (d *twoDoors) finish() {
	d.t.Helper()
	serr := d.s.Quit()
	tr := d.text("QUIT")
	d.same("QUIT", "QUIT", serr, tr)
	d.s.Flush()
	d.tx.Flush()
	if a, b := d.slog.String(), d.tlog.String(); a != b {
		d.t.Fatalf("logs differ:\n%s", simFirstDiff([]byte(a), []byte(b)))
	}
	if d.s.Report() != nil && d.tx.Report() != nil && (d.s.Report().Text != d.tx.Report().Text ||
		d.s.Report().Unscheduled != d.tx.Report().Unscheduled) {
		d.t.Fatal("reports differ")
	}
}

// TestDoorsRandomDialogues: random dialogues of every command, valid and
// not, give the same replies, ERR texts, log and report through both doors.
func TestDoorsRandomDialogues(t *testing.T) {
	for seed := int64(1); seed <= 60; seed++ {
		for _, cfg := range []*simconfig.Config{tinyConfig(), failConfig()} {
			lvl := []Level{LevelAll, LevelBrief, ParseLevel("all+")}[seed%3]
			d := newTwoDoors(t, cfg, Options{Level: lvl, NoFailureMsgs: seed%7 == 0})
			r := rand.New(rand.NewSource(seed))
			for i := 0; i < 300; i++ {
				d.act(r, cfg)
			}
			d.finish()
		}
	}
}

// FuzzDoors: the same with the fuzzer choosing the seed and length.
func FuzzDoors(f *testing.F) {
	f.Add(int64(1), uint16(200), false)
	f.Add(int64(99), uint16(1000), true)
	f.Fuzz(func(t *testing.T, seed int64, n uint16, failures bool) {
		cfg := tinyConfig()
		if failures {
			cfg = failConfig()
		}
		d := newTwoDoors(t, cfg, Options{Level: LevelAll})
		r := rand.New(rand.NewSource(seed))
		for i := 0; i < int(n%3000); i++ {
			d.act(r, cfg)
		}
		d.finish()
	})
}
