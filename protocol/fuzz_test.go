package protocol

import (
	"bytes"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/transcript"
)

// seedTranscripts are the shared logs the fuzz corpora start from: every
// event kind (JOBP, RESF, RESR and CHKQ come from the failure run), 9- and
// 15-field GETS records with and without padding, LSTJ batches.
// The 2026 server's (v2026/...) add 10- and 16-field GETS records.
var seedTranscripts = []string{
	"transcripts/sample-config01.ff", "transcripts/sample-config01.ffq", "transcripts/ds-sample-config02.lrr",
	"transcripts/ds-sample-config05-failures.ffq",
	"v2026/transcripts/sample-config01.ff", "v2026/transcripts/ds-sample-config05-failures.ffq",
	"v2026/failure-models/config20-med-med.teragrid.ffq",
}

func seedMessages(f *testing.F) []transcript.Message {
	var all []transcript.Message
	for _, name := range seedTranscripts {
		path := filepath.Join(fixtures.Dir(f), name+".vall.log.gz")
		tr, err := transcript.ParseBytes(fixtures.ReadGz(f, path))
		if err != nil {
			f.Fatal(err)
		}
		all = append(all, tr.Messages...)
	}
	return all
}

// distinct calls add for each distinct string, at most limit times.
func distinct(limit int, msgs []string, add func(string)) {
	seen := map[string]bool{}
	for _, m := range msgs {
		if len(seen) >= limit {
			return
		}
		if !seen[m] {
			seen[m] = true
			add(m)
		}
	}
}

func FuzzParseEvent(f *testing.F) {
	ms := seedMessages(f)
	var events []string
	for i, m := range ms {
		if m.Dir == transcript.Sent && i > 0 && ms[i-1].Text == "REDY" {
			events = append(events, m.Text)
		}
	}
	// Events of every kind first, then the rest up to the limit.
	for _, w := range []string{"JOBN", "JOBP", "JCPL", "RESF", "RESR", "CHKQ", "NONE"} {
		for _, e := range events {
			if strings.HasPrefix(e, w) {
				f.Add(e)
				break
			}
		}
	}
	distinct(200, events, func(s string) { f.Add(s) })
	for _, s := range []string{"", "JOBN", "JOBN 1 2 3 4 5", "JOBN 1 2 3 4 5 x", "JCPL 1 2 t", "CHKQ x", " NONE", "RESF a b c", "ERR: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		ev, err := ParseEvent(msg)
		if err != nil {
			if ev != nil {
				t.Fatalf("error %v with an event", err)
			}
			if !strings.Contains(err.Error(), "message") {
				t.Fatalf("error does not describe the message: %v", err)
			}
			return
		}
		s := ev.String()
		ev2, err := ParseEvent(s)
		if err != nil {
			t.Fatalf("String() %q of %q does not parse: %v", s, msg, err)
		}
		if !reflect.DeepEqual(ev, ev2) || ev2.String() != s {
			t.Fatalf("round trip: %q → %#v → %q → %#v", msg, ev, s, ev2)
		}
		// The framing grammar accepts every canonical event.
		if v := ReplyEvent.check([]byte(s)); v != open && v != complete {
			t.Fatalf("framing rejects the event %q (verdict %d)", s, v)
		}
	})
}

func FuzzParseServer(f *testing.F) {
	var recs []string
	for _, m := range seedMessages(f) {
		if m.Dir == transcript.Sent && strings.Count(m.Text, " ") >= 8 && !strings.HasPrefix(m.Text, "JOB") {
			recs = append(recs, m.Lines()...)
		}
	}
	distinct(400, recs, func(s string) { f.Add(s) })
	for _, s := range []string{"", "a 0 idle", "a 0 idle 0 1 1 1 0 0 1", "a x idle 0 1 1 1 0 0", "a 0 zombie 0 1 1 1 0 0", "\ta\t0 idle 0 1 1 1 0 0",
		"a -0 idle +1 1 1 1 0 0", "a 0 idle 1234567890123456789 1 1 1 0 0", "a 0 idle -123456789012345678 1 1 1 0 0", "é 0 idle 0 1 1 1 0 0", "a 0 idle - 1 1 1 0 0",
		"a 0 0.20 idle 0 1 1 1 0 0", "a 0 -nan idle 0 1 1 1 0 0", "a 0 inf idle 0 1 1 1 0 0 1 2 3 4 5 6", "a 0 0.2 idle 0 1 1 1 0 0",
		"a 0 +0.20 idle 0 1 1 1 0 0", "a 0 1e3 idle 0 1 1 1 0 0", "0.20 0 0.20 idle 0 1 1 1 0 0", "idle 0 idle 0 1 1 1 0 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rec string) {
		if got, want := fields(rec, nil), strings.Fields(rec); !reflect.DeepEqual(got, want) && len(want) > 0 {
			t.Fatalf("fields(%q) = %q, strings.Fields gives %q", rec, got, want)
		}
		s, err := ParseServer(rec)
		if fast, ok := parseServerFast(rec); ok {
			general, gerr := parseServerGeneral(rec)
			if gerr != nil || !sameServer(fast, general) {
				t.Fatalf("fast path %+v, general path %+v (%v) for %q", fast, general, gerr, rec)
			}
		}
		if err != nil {
			if !strings.Contains(err.Error(), "GETS record") {
				t.Fatalf("error does not name the record: %v", err)
			}
			return
		}
		if want := 9 + 6*b2i(s.Failure != nil) + b2i(s.HasRate); len(strings.Fields(rec)) != want {
			t.Fatalf("%q has %d fields, read as a record of %d (%+v)", rec, len(strings.Fields(rec)), want, s)
		}
		out := s.String()
		s2, err := ParseServer(out)
		if err != nil {
			t.Fatalf("String() %q of %q does not parse: %v", out, rec, err)
		}
		// A NaN rate is unequal to itself: the rates are compared bit
		// for bit, the rest field by field.
		if !sameServer(s, s2) || s2.String() != out {
			t.Fatalf("round trip: %q → %+v → %q → %+v", rec, s, out, s2)
		}
		// The batch reader accepts every canonical record, padded or not,
		// under the record length of its own shape and under an unknown one.
		for _, line := range []string{out, "           " + out} {
			for _, recLen := range []int{0, recLenOf(s)} {
				if checkAny([]byte(line), GetsRecords.grammar(recLen)...) != open {
					t.Fatalf("framing rejects the record %q (record length %d)", line, recLen)
				}
			}
		}
	})
}

// FuzzReadDataBatch feeds arbitrary bytes to the framing reader and the
// client's DATA exchange. The stream holds the server's messages separated
// by 0x1e (each one is sent after the client's next message, as ds-server
// does), each cut into pieces of chunk bytes (0: whole); the reader must
// never panic or hang, and what
// it accepts must be exactly the announced number of well-formed records.
func FuzzReadDataBatch(f *testing.F) {
	ms := seedMessages(f)
	perYear := map[bool]int{} // batches taken of each year: 2026 announces 135 or 177
	for i, m := range ms {
		if m.Dir != transcript.Sent || !strings.HasPrefix(m.Text, "DATA ") || !strings.HasPrefix(ms[i-1].Text, "GETS") {
			continue
		}
		y2026 := strings.HasSuffix(m.Text, " 135") || strings.HasSuffix(m.Text, " 177")
		if perYear[y2026] >= 40 {
			continue
		}
		perYear[y2026]++
		parts := []string{m.Text}
		if !strings.HasPrefix(m.Text, "DATA 0 ") {
			parts = append(parts, ms[i+2].Text)
		}
		parts = append(parts, ".")
		stream := []byte(strings.Join(parts, "\x1e"))
		f.Add(stream, uint8(0), false)
		f.Add(stream, uint8(7), true)
	}
	f.Add([]byte("DATA 2 124\x1ea 0 idle 0 1 1 1 0 0\n     a 1 idle 0 1 1 1 0 0\x1e."), uint8(3), false)
	f.Add([]byte("DATA 3 124\x1ea 0 idle 0 1 1 1 0 0\n     a 1 idle 0 1 1 1 0 0\x1e."), uint8(0), false)
	f.Add([]byte("DATA 1 166\x1ea 0 idle 0 1 1 1 0 0\x1e."), uint8(0), false)
	f.Add([]byte("DATA 2 135\x1ea 0 0.20 idle 0 1 1 1 0 0\n     a 1 0.20 idle 0 1 1 1 0 0\x1e."), uint8(5), false)
	f.Add([]byte("DATA 2 135\x1ea 0 0.20 idle 0 1 1 1 0 0\n     a 1 idle 0 1 1 1 0 0\x1e."), uint8(0), false)
	f.Add([]byte("DATA 1 177\x1ea 0 nan idle 0 1 1 1 0 0 1 2 3 4 5 6\x1e."), uint8(0), true)
	f.Add([]byte("DATA 1 124\x1ea 0 0.20 idle 0 1 1 1 0 0\x1e."), uint8(0), false)
	f.Add([]byte("ERR: invalid resource information query (GETS All)!"), uint8(0), false)
	f.Add([]byte("DATA -1 124\x1e."), uint8(0), false)
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8, newline bool) {
		s := &script{closed: true}
		for _, msg := range bytes.Split(stream, []byte{0x1e}) {
			if newline {
				msg = append(msg, '\n')
			}
			size := int(chunk)
			if size == 0 {
				size = len(msg)
			}
			var pieces [][]byte
			for len(msg) > 0 {
				k := min(size, len(msg))
				pieces = append(pieces, msg[:k])
				msg = msg[k:]
			}
			s.replies = append(s.replies, pieces)
		}
		framing := Plain
		if newline {
			framing = Newline
		}
		c := NewClient(s, nil, ConnOptions{Framing: framing})
		servers, err := c.GetsAll()
		if err != nil {
			if len(err.Error()) == 0 {
				t.Fatal("empty error")
			}
			return
		}
		first := bytes.Split(stream, []byte{0x1e})[0]
		if newline {
			// A line is a message: the header is the first line, and the
			// records may follow it in the same write (the reader buffers).
			first, _, _ = bytes.Cut(first, []byte("\n"))
		}
		hdr := strings.Fields(string(first))
		if len(hdr) != 3 || hdr[0] != "DATA" {
			t.Fatalf("accepted a batch without a DATA header: %q", stream)
		}
		if want, _ := strconv.Atoi(hdr[1]); want != len(servers) {
			t.Fatalf("header announced %d records, got %d", want, len(servers))
		}
		for _, sv := range servers {
			again, err := ParseServer(sv.String())
			if err != nil || again.String() != sv.String() || math.Float64bits(again.Rate) != math.Float64bits(sv.Rate) {
				t.Fatalf("record %+v does not round-trip: %v", sv, err)
			}
			if sv.HasRate != servers[0].HasRate || (sv.Failure == nil) != (servers[0].Failure == nil) {
				t.Fatalf("a batch of mixed shapes accepted: %q", stream)
			}
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// recLenOf is the record length ds-server announces for s's shape.
func recLenOf(s Server) int {
	return [2][2]int{{RecLenGets, RecLenGetsFailures}, {RecLenGets2026, RecLenGetsFailures2026}}[b2i(s.HasRate)][b2i(s.Failure != nil)]
}

// sameServer is reflect.DeepEqual but for a NaN rate, which is unequal to
// itself: the rates are compared bit for bit.
func sameServer(a, b Server) bool {
	if math.Float64bits(a.Rate) != math.Float64bits(b.Rate) {
		return false
	}
	a.Rate, b.Rate = 0, 0
	return reflect.DeepEqual(a, b)
}
