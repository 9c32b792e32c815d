package baselines

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// This file replays the reference transcripts (../dssim/transcripts,
// `-v all` ds-server logs of the reference client; baselines.md §8.9): for
// every server message the strategy must produce exactly the client
// messages the log shows (every GETS, LSTJ, SCHD, ENQJ, DEQJ, in order).
// The wire framing is not involved; that is the client's own test.

// wireMsg is one protocol line of a log: Dir 'S' = sent by the server,
// 'R' = received from the client. A DATA batch's records are in Recs.
type wireMsg struct {
	Line int
	Dir  byte
	Text string
	Recs []string
}

var logPrefix = regexp.MustCompile(`^t -?\d+: `)

// parseLog reads a `-v all` log from line 4 on (lines 1–3 name the binary
// and the port; ds-server.md §7). Event lines are skipped; the continuation
// lines of a DATA batch are taken by count (the n of `DATA n len`), since
// GETS continuation lines are padded and LSTJ ones are not (ds-server.md
// §5.3, §7.3).
func parseLog(name string, data []byte) ([]wireMsg, error) {
	lines := strings.Split(string(data), "\n")
	var out []wireMsg
	pending := 0 // records announced by the last DATA, not yet read
	for i := 3; i < len(lines); i++ {
		l := strings.TrimLeft(lines[i], " ")
		l = logPrefix.ReplaceAllString(l, "")
		dir := byte(0)
		switch {
		case strings.HasPrefix(l, "SENT "):
			dir = 'S'
		case strings.HasPrefix(l, "RCVD "):
			dir = 'R'
		default:
			continue
		}
		msg := wireMsg{Line: i + 1, Dir: dir, Text: l[5:]}
		if dir == 'S' && pending > 0 && msg.Text != "." {
			msg.Recs = append(msg.Recs, msg.Text)
			for k := 1; k < pending; k++ {
				i++
				if i >= len(lines) {
					return nil, fmt.Errorf("%s: log ends inside a DATA batch", name)
				}
				msg.Recs = append(msg.Recs, strings.TrimSpace(lines[i]))
			}
			pending = 0
		} else if dir == 'S' && strings.HasPrefix(msg.Text, "DATA ") {
			f := strings.Fields(msg.Text)
			n, err := strconv.Atoi(f[1])
			if len(f) != 3 || err != nil {
				return nil, fmt.Errorf("%s:%d: bad DATA line %q", name, i+1, msg.Text)
			}
			pending = n
		}
		out = append(out, msg)
	}
	return out, nil
}

// replay is a View that answers from a log and checks that every query is
// the one the reference client sent at that point.
type replay struct {
	name     string
	msgs     []wireMsg
	i        int
	sys      *servertypes.System
	now      int
	excluded []protocol.ServerRef
	fail     error // first divergence
}

var errDiverged = errors.New("diverged from the reference transcript")

func (r *replay) diverge(format string, a ...any) error {
	if r.fail == nil {
		line := 0
		if r.i < len(r.msgs) {
			line = r.msgs[r.i].Line
		}
		r.fail = fmt.Errorf("%s:%d: %s", r.name, line, fmt.Sprintf(format, a...))
	}
	return errDiverged
}

func (r *replay) next(dir byte) (wireMsg, bool) {
	if r.i >= len(r.msgs) || r.msgs[r.i].Dir != dir {
		return wireMsg{}, false
	}
	r.i++
	return r.msgs[r.i-1], true
}

// expectClient checks that the client's next message is cmd.
func (r *replay) expectClient(cmd string) error {
	if r.fail != nil {
		return errDiverged
	}
	if r.i >= len(r.msgs) {
		return r.diverge("client sends %q after the end of the log", cmd)
	}
	if m := r.msgs[r.i]; m.Dir != 'R' || m.Text != cmd {
		return r.diverge("client sends %q, the reference sent %q (%c)", cmd, m.Text, m.Dir)
	}
	r.i++
	return nil
}

func (r *replay) server() (string, error) {
	m, ok := r.next('S')
	if !ok {
		return "", r.diverge("expected a server message")
	}
	return m.Text, nil
}

// data reads a whole DATA exchange: DATA n len, OK, [records, OK], ".".
func (r *replay) data() ([]string, error) {
	head, err := r.server()
	if err != nil {
		return nil, err
	}
	if protocol.IsErrReply(head) {
		return nil, &protocol.ServerError{Text: head}
	}
	if !strings.HasPrefix(head, "DATA ") {
		return nil, r.diverge("expected DATA, log has %q", head)
	}
	if err := r.expectClient("OK"); err != nil {
		return nil, err
	}
	var recs []string
	if !strings.HasPrefix(head, "DATA 0 ") {
		m, ok := r.next('S')
		if !ok || m.Recs == nil {
			return nil, r.diverge("expected records")
		}
		recs = m.Recs
		if err := r.expectClient("OK"); err != nil {
			return nil, err
		}
	}
	if dot, err := r.server(); err != nil || dot != "." {
		return nil, r.diverge("expected \".\", log has %q", dot)
	}
	return recs, nil
}

func (r *replay) gets(cmd string) ([]protocol.Server, error) {
	if err := r.expectClient(cmd); err != nil {
		return nil, err
	}
	lines, err := r.data()
	if err != nil {
		return nil, err
	}
	out := make([]protocol.Server, 0, len(lines))
	for _, l := range lines {
		s, err := protocol.ParseServer(l)
		if err != nil {
			return nil, r.diverge("%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

func (r *replay) System() *servertypes.System    { return r.sys }
func (r *replay) Now() int                       { return r.now }
func (r *replay) Excluded() []protocol.ServerRef { return r.excluded }
func (r *replay) Ledger() *strategies.Ledger     { return nil }

func (r *replay) GetsAll() ([]protocol.Server, error) { return r.gets("GETS All") }
func (r *replay) GetsType(t string) ([]protocol.Server, error) {
	return r.gets("GETS Type " + t)
}
func (r *replay) GetsCapable(q protocol.Requirement) ([]protocol.Server, error) {
	return r.gets("GETS Capable " + q.String())
}
func (r *replay) GetsAvail(q protocol.Requirement) ([]protocol.Server, error) {
	return r.gets("GETS Avail " + q.String())
}
func (r *replay) GetsBounded(q protocol.Requirement) ([]protocol.Server, error) {
	return r.gets("GETS Bounded " + q.String())
}
func (r *replay) GetsOne(s protocol.ServerRef) (protocol.Server, error) {
	l, err := r.gets("GETS One " + s.String())
	if err != nil || len(l) != 1 {
		return protocol.Server{}, r.diverge("GETS One")
	}
	return l[0], nil
}

func (r *replay) ListJobs(s protocol.ServerRef) ([]protocol.JobRecord, error) {
	if err := r.expectClient("LSTJ " + s.String()); err != nil {
		return nil, err
	}
	lines, err := r.data()
	if err != nil {
		return nil, err
	}
	out := make([]protocol.JobRecord, 0, len(lines))
	for _, l := range lines {
		j, err := protocol.ParseJobRecord(l)
		if err != nil {
			return nil, r.diverge("%v", err)
		}
		out = append(out, j)
	}
	return out, nil
}

func (r *replay) number(cmd string) (int, error) {
	if err := r.expectClient(cmd); err != nil {
		return 0, err
	}
	s, err := r.server()
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, r.diverge("%s: reply %q", cmd, s)
	}
	return n, nil
}

func (r *replay) CountJobs(s protocol.ServerRef, st protocol.JobState) (int, error) {
	return r.number("CNTJ " + s.String() + " " + strconv.Itoa(int(st)))
}
func (r *replay) EstWait(s protocol.ServerRef) (int, error) { return r.number("EJWT " + s.String()) }
func (r *replay) QueueLen() (int, error)                    { return r.number("LSTQ GQ #") }
func (r *replay) ListQueue() ([]protocol.QueuedJob, error) {
	return nil, r.diverge("LSTQ GQ * is not replayed")
}

// replayStats counts what a replay checked.
type replayStats struct {
	Decisions int // JOBN/JOBP decided identically (queries and action)
	Events    int // other events answered identically
}

// runReplay drives strategy s through the log, from HELO to QUIT.
func runReplay(s strategies.Strategy, r *replay) (replayStats, error) {
	var st replayStats
	for _, m := range []struct {
		dir  byte
		text string
	}{{'R', "HELO"}, {'S', "OK"}, {'R', "AUTH root"}, {'S', "OK"}, {'R', "REDY"}} {
		got, ok := r.next(m.dir)
		if !ok || got.Text != m.text {
			return st, r.diverge("handshake: want %q", m.text)
		}
	}
	// do sends the actions; it reports whether a Schedule was refused.
	do := func(acts []protocol.Action) (refusedBy *protocol.ServerRef, err error) {
		for _, a := range acts {
			if err := r.expectClient(a.String()); err != nil {
				return nil, err
			}
			reply, err := r.server()
			if err != nil {
				return nil, err
			}
			if protocol.IsErrReply(reply) {
				if sc, ok := a.(protocol.Schedule); ok {
					return &sc.Server, nil
				}
				return nil, r.diverge("%s refused: %s", a, reply)
			}
		}
		return nil, nil
	}
	for {
		msg, err := r.server()
		if err != nil {
			return st, err
		}
		ev, err := protocol.ParseEvent(msg)
		if err != nil {
			return st, r.diverge("%v", err)
		}
		switch e := ev.(type) {
		case *protocol.NoMoreJobs:
			if err := r.expectClient("QUIT"); err != nil {
				return st, err
			}
			return st, nil
		case *protocol.JobOffer:
			r.now, r.excluded = e.Submit, nil
			for {
				acts, err := s.Job(r, e.Job)
				if r.fail != nil {
					return st, r.fail
				}
				if errors.Is(err, strategies.ErrNoServer) && len(r.excluded) > 0 {
					// The reference prints the ERR and quits (§2.3 step 6).
					return st, r.expectClient("QUIT")
				}
				if err != nil {
					return st, r.diverge("job %d: %v", e.ID, err)
				}
				ref, err := do(acts)
				if err != nil {
					return st, err
				}
				if ref == nil {
					break
				}
				r.excluded = append(r.excluded, *ref)
			}
			st.Decisions++
		default:
			switch e := ev.(type) {
			case *protocol.JobCompleted:
				r.now = e.Time
			case *protocol.ServerFailed:
				r.now = e.Time
			case *protocol.ServerRecovered:
				r.now = e.Time
			}
			acts, err := s.Event(r, ev)
			if err != nil {
				return st, r.diverge("%s: %v", ev, err)
			}
			if _, err := do(acts); err != nil {
				return st, err
			}
			st.Events++
		}
		if err := r.expectClient("REDY"); err != nil {
			return st, err
		}
	}
}

// loadTranscript parses NAME.ALGO.vall.log.gz.
func loadTranscript(t testing.TB, path string) (name, alg string, msgs []wireMsg) {
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(path), ".vall.log.gz")
	base = strings.TrimSuffix(base, ".n") // a run with -n: the same messages
	dot := strings.LastIndexByte(base, '.')
	name, alg = base[:dot], base[dot+1:]
	msgs, err := parseLog(filepath.Base(path), fixtures.ReadGz(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return name, alg, msgs
}

// TestTranscripts replays all 21 reference transcripts of the 2025 server
// and the 22 of the 2026 one, whose GETS records carry the rate: every
// decision and every query must match (baselines.md §8.9), against either
// server.
func TestTranscripts(t *testing.T) {
	dir := fixtures.Dir(t)
	files := append(fixtures.Glob(t, "transcripts/*.vall.log.gz"), fixtures.Glob(t, "v2026/transcripts/*.vall.log.gz")...)
	total := replayStats{}
	for _, f := range files {
		name, alg, msgs := loadTranscript(t, f)
		t.Run(strings.TrimPrefix(filepath.Dir(f), dir+"/")+"/"+strings.TrimSuffix(filepath.Base(f), ".vall.log.gz"), func(t *testing.T) {
			r := &replay{name: filepath.Base(f), msgs: msgs, sys: systemOf(t, dir, name)}
			st, err := runReplay(mustNew(t, alg), r)
			if err != nil {
				if r.fail != nil {
					err = r.fail
				}
				t.Fatalf("after %d identical decisions: %v", st.Decisions, err)
			}
			if st.Decisions == 0 {
				t.Fatal("no decision replayed")
			}
			if rest := r.msgs[r.i:]; len(rest) > 1 || len(rest) == 1 && rest[0].Text != "QUIT" {
				t.Fatalf("log continues after the client's QUIT: %+v", rest[0])
			}
			total.Decisions += st.Decisions
			total.Events += st.Events
			t.Logf("%d decisions, %d other events identical", st.Decisions, st.Events)
		})
	}
	t.Logf("%d transcripts: %d decisions and %d other events replayed", len(files), total.Decisions, total.Events)
}

// TestTranscriptNegativeControl: replaying a log with another algorithm's
// rule must diverge (baselines.md §6.4), so the replay cannot pass vacuously.
func TestTranscriptNegativeControl(t *testing.T) {
	dir := fixtures.Dir(t)
	for _, c := range [][2]string{{"sample-config01.bf", "ff"}, {"sample-config01.ff", "bf"}, {"sample-config01.wf", "bf"},
		{"sample-config01.fafc", "fc"}, {"sample-config01.atl", "fc"}, {"ds-sample-config02.lrr", "atl"},
		{"ds-sample-config02.ffq", "bfq"}, {"config20-med-med.bfq", "wfq"}} {
		name, _, msgs := loadTranscript(t, filepath.Join(dir, "transcripts", c[0]+".vall.log.gz"))
		r := &replay{name: c[0], msgs: msgs, sys: systemOf(t, dir, name)}
		st, err := runReplay(mustNew(t, c[1]), r)
		if err == nil || r.fail == nil {
			t.Errorf("%s replayed with %s: no divergence (%v)", c[0], c[1], err)
			continue
		}
		t.Logf("%s with %s: diverges after %d decisions: %v", c[0], c[1], st.Decisions, r.fail)
	}
}

// TestSection82d: baselines.md §8.2.d, from the transcript's own state:
// ds-sample-config02 job 24 (wf run, t 205). ff, bf and wf query xlarge
// 6–9 in order and fall back on xlarge 0; ffq/bfq/wfq enqueue.
func TestSection82d(t *testing.T) {
	dir := fixtures.Dir(t)
	_, _, msgs := loadTranscript(t, filepath.Join(dir, "transcripts", "ds-sample-config02.wf.vall.log.gz"))
	sys := systemOf(t, dir, "ds-sample-config02")
	v := &fakeView{Sys: sys, LSTJ: map[protocol.ServerRef][]protocol.JobRecord{}}
	var job protocol.Job
	for i, m := range msgs {
		if m.Dir == 'S' && strings.HasPrefix(m.Text, "JOBN 24 ") {
			job = offer(t, m.Text)
			v.Capable = recs(t, msgs[i+4].Recs...) // JOBN, GETS, DATA, OK, records
			for k := i + 5; !strings.HasPrefix(msgs[k].Text, "SCHD"); k++ {
				if msgs[k].Dir == 'R' && strings.HasPrefix(msgs[k].Text, "LSTJ ") {
					v.LSTJ[ref(t, msgs[k].Text[5:])] = jobRecs(t, msgs[k+3].Recs...)
				}
			}
			break
		}
	}
	if len(v.Capable) != 10 || len(v.LSTJ) != 4 {
		t.Fatalf("job 24 not found as expected: %d records, %d LSTJ", len(v.Capable), len(v.LSTJ))
	}
	q := []string{"GETS Capable 15 13900 21200", "LSTJ xlarge 6", "LSTJ xlarge 7", "LSTJ xlarge 8", "LSTJ xlarge 9"}
	for _, alg := range []string{"ff", "bf", "wf", "ffq", "bfq", "wfq"} {
		want := append(slices.Clone(q), "SCHD 24 xlarge 0")
		if strings.HasSuffix(alg, "q") {
			want[len(want)-1] = "ENQJ GQ"
		}
		if got := decide(mustNew(t, alg), v, job); !slices.Equal(got, want) {
			t.Errorf("%s: got %q want %q", alg, got, want)
		}
	}
}

// TestParseLog checks the log reader on a hand-made fragment with padded
// GETS and unpadded LSTJ continuation lines.
func TestParseLog(t *testing.T) {
	log := "# 1\n# 2\n# 3\nRCVD HELO\nSENT OK\n" +
		"t 37: job 0 -- CPU: 3 SUBMITTED\n" +
		"      SENT JOBN 0 37 3 700 3800 653\n" +
		"      RCVD GETS Capable 3 700 3800\n" +
		"      SENT DATA 2 124\n      RCVD OK\n" +
		"      SENT joon 0 inactive -1 4 16000 64000 0 0\n" +
		"           joon 1 inactive -1 4 16000 64000 0 0\n" +
		"      RCVD OK\n      SENT .\n" +
		"      RCVD LSTJ joon 0\n      SENT DATA 2 59\n      RCVD OK\n" +
		"      SENT 7 1 165 225 344 1 200 1000\n12 1 175 225 5 2 1400 900\n" +
		"      RCVD OK\n      SENT .\n"
	msgs, err := parseLog("frag", []byte(log))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range msgs {
		texts = append(texts, string(m.Dir)+" "+m.Text+fmt.Sprint(len(m.Recs)))
	}
	want := []string{"R HELO0", "S OK0", "S JOBN 0 37 3 700 3800 6530", "R GETS Capable 3 700 38000",
		"S DATA 2 1240", "R OK0", "S joon 0 inactive -1 4 16000 64000 0 02", "R OK0", "S .0",
		"R LSTJ joon 00", "S DATA 2 590", "R OK0", "S 7 1 165 225 344 1 200 10002", "R OK0", "S .0"}
	if !slices.Equal(texts, want) {
		t.Errorf("got  %q\nwant %q", texts, want)
	}
	if msgs[6].Recs[1] != "joon 1 inactive -1 4 16000 64000 0 0" || msgs[12].Recs[1] != "12 1 175 225 5 2 1400 900" {
		t.Errorf("records: %q %q", msgs[6].Recs, msgs[12].Recs)
	}
	if _, err := parseLog("cut", []byte("#\n#\n#\nSENT DATA 3 59\nRCVD OK\nSENT 1 1 1 1 1 1 1 1\n")); err == nil {
		t.Error("a log cut inside a DATA batch must be an error")
	}
}
