package mocksrv

import (
	"errors"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
)

// The memory extension (estimation.md Part E) through both fronts.

// memTinyConfig is tinyConfig with actual memory on every job (a quarter
// of the request, at least 1).
func memTinyConfig() *Config {
	c := tinyConfig()
	for i := range c.Jobs {
		c.Jobs[i].ActMemory = max(1, c.Jobs[i].Memory/4)
	}
	c.ActMemoryJobs = len(c.Jobs)
	return c
}

// doors runs the same actions after HELO, AUTH and one REDY through the
// text front (as their text, or raw when given) and the Session (when a
// typed action is given), and returns both replies to each (a refusal as
// its text), then QUITs both and returns their reports' text.
func doors(t testing.TB, m MemFailModel, acts []protocol.Action, raw ...string) (text, sess []string, repText, repSess string) {
	t.Helper()
	opt := Options{MemFail: m}
	tx, err := NewText(memTinyConfig(), opt)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(memTinyConfig(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{"HELO", "AUTH x", "REDY"} {
		tx.Handle(msg)
	}
	if err := s.Handshake("x"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ready(); err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		r, _, _ := tx.Handle(a.String())
		text = append(text, string(r))
		reply, err := s.Do(a)
		var se *protocol.ServerError
		if errors.As(err, &se) {
			reply = se.Text
		} else if err != nil {
			reply = err.Error()
		}
		sess = append(sess, reply)
	}
	for _, msg := range raw {
		r, _, _ := tx.Handle(msg)
		text = append(text, string(r))
	}
	tx.Handle("QUIT")
	if err := s.Quit(); err != nil {
		t.Fatal(err)
	}
	return text, sess, tx.Report().Text, s.Report().Text
}

// TestMemExtDoors: SCHM through the text front and through the Session
// (an action of any type whose text is SCHM's) gives the same replies and
// report; with the extension off both give ds-server's invalid command.
func TestMemExtDoors(t *testing.T) {
	sm := func(id, alloc int) protocol.Action {
		return protocol.ScheduleMem{JobID: 0, Server: protocol.ServerRef{Type: "tiny", ID: id}, AllocMem: alloc}
	}
	acts := []protocol.Action{sm(0, 99), sm(0, 501), sm(5, 100), sm(0, 100)}
	raw := []string{"SCHM 0 tiny 0 1x", "SCHM 0 tiny 0", "SCHM 0 tiny 0 100 7"}
	text, sess, rt, rs := doors(t, MemFailHard, acts, raw...)
	want := []string{"ERR: invalid allocation (SCHM 0 tiny 0 99)!", "ERR: invalid allocation (SCHM 0 tiny 0 501)!",
		"ERR: No such server exists (server id: out of bound)", "OK",
		// job 0 is placed: the raw ones find no waiting job first.
		"ERR: No such waiting job exists", "ERR: No such waiting job exists", "ERR: No such waiting job exists"}
	for i := range want {
		if text[i] != want[i] || (i < len(sess) && sess[i] != want[i]) {
			t.Errorf("%d: text %q, session %q, want %q", i, text[i], sess[i%len(sess)], want[i])
		}
	}
	if rt != rs || !strings.Contains(rt, "# memory failures: ") {
		t.Errorf("reports differ or lack the extension's line:\n%s\n%s", rt, rs)
	}
	text, _, _, _ = doors(t, MemFailHard, nil, raw...)
	for i, w := range []string{"ERR: invalid allocation (SCHM 0 tiny 0 1x)!", "ERR: invalid allocation (SCHM 0 tiny 0)!",
		"ERR: invalid allocation (SCHM 0 tiny 0 100 7)!"} {
		if text[i] != w {
			t.Errorf("text front: %q, want %q", text[i], w)
		}
	}
	text, sess, rt, rs = doors(t, MemFailOff, []protocol.Action{sm(0, 100)}, "SCHMX 0 tiny 0 100")
	for i, w := range []string{"ERR: invalid command (SCHM 0 tiny 0 100)", "ERR: invalid command (SCHMX 0 tiny 0 100)"} {
		if text[i] != w || (i == 0 && sess[0] != w) {
			t.Errorf("off: text %q, want %q (session %q)", text[i], w, sess[0])
		}
	}
	if rt != rs || strings.Contains(rt, "memory failures") {
		t.Errorf("off: reports differ or carry the extension's line:\n%s\n%s", rt, rs)
	}
}

// FuzzSCHM: any SCHM, typed or as text, never panics; with the extension
// on, the text front and the Session give the same reply and report for a
// typed one; every reply is OK or an ERR.
func FuzzSCHM(f *testing.F) {
	f.Add(0, "tiny", 0, 100, "0 tiny 0 100", uint8(0))
	f.Add(0, "big", 0, 99, "0 tiny 0 +100", uint8(1))
	f.Add(1, "small", 1, 500, "x y z w", uint8(2))
	f.Add(0, "tiny", 0, 500, "0  tiny\t0 0100 extra", uint8(1))
	f.Fuzz(func(t *testing.T, job int, typ string, id, alloc int, args string, model uint8) {
		if strings.ContainsAny(typ+args, "\n\r") {
			return
		}
		m := MemFailModel(1 + model%3)
		a := protocol.ScheduleMem{JobID: job, Server: protocol.ServerRef{Type: typ, ID: id}, AllocMem: alloc}
		// A type name that is not one plain token reads differently as
		// text (a NUL ends the line as ds-server's C strings read it); the
		// typed door alone is then compared with nothing.
		plain := len(strings.Fields(typ)) == 1 && typ == strings.TrimSpace(typ) && !strings.ContainsRune(typ, 0)
		text, sess, rt, rs := doors(t, m, []protocol.Action{a, a})
		for i := range text {
			if plain && text[i] != sess[i] {
				t.Fatalf("%v: text %q, session %q", a, text[i], sess[i])
			}
		}
		if plain && rt != rs {
			t.Fatalf("%v: reports differ:\n%s\n%s", a, rt, rs)
		}
		text, _, _, _ = doors(t, m, nil, "SCHM "+args, "SCHM "+args)
		for _, r := range append(text, sess...) {
			if r != "OK" && !strings.HasPrefix(r, "ERR: ") {
				t.Fatalf("SCHM %q: reply %q", args, r)
			}
		}
	})
}
