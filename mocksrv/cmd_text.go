package mocksrv

import (
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/protocol"
)

// Fatal ends a connection the way ds-server ends its process: an exit
// status and a stderr message (decision 2; §1.4, §1.5).
type Fatal struct {
	Status int
	Msg    string
}

func (f *Fatal) Error() string { return f.Msg }

// textState is where the text front is in the dialogue.
type textState uint8

const (
	stHELO  textState = iota // waiting for HELO (§1.5)
	stAUTH                   // waiting for AUTH
	stPre                    // pre-simulation loop: only REDY or GETS… start it
	stMain                   // main loop (§5)
	stData1                  // sent DATA n len; waiting for OK (§5.2)
	stData2                  // sent the records; waiting for OK
	stResc                   // RESC: one record per OK (§5.15)
	stDone                   // QUIT processed or fatal
)

// Text is the text front door: one client message in, the reply bytes out,
// exactly as ds-server sends them, and the log written to Options.Log. TCP
// serving uses it. Not safe for concurrent use.
type Text struct {
	e     *Engine
	nl    bool
	state textState
	prev  []byte // previous main-loop message, as last sent (newlines accumulate in -n mode, §1.4)
	out   []byte // reply under construction
	data  []byte // pending DATA records
	ndata int
	ids   []int32
	resc  []string // RESC records still to send
	rep   *Report
	// OnAuth is called at AUTH with the ds-system.xml text, between the
	// welcome line and the "system information" line (§1.5); dsmock writes
	// the file there. A non-nil error ends the connection.
	OnAuth func(systemXML []byte) error
}

// NewText starts a simulation of cfg behind a text front. The header lines
// (§7.1) are logged at once unless opt.NoHeader.
func NewText(cfg *simconfig.Config, opt Options) (*Text, error) {
	if cfg.Newline {
		opt.Newline = true
	}
	e, err := NewEngine(cfg, opt)
	if err != nil {
		return nil, err
	}
	return &Text{e: e, nl: opt.Newline}, nil
}

// Engine exposes the simulation (for files and the report after QUIT).
func (t *Text) Engine() *Engine { return t.e }

// Done reports whether the dialogue is over (QUIT processed, or fatal).
func (t *Text) Done() bool { return t.state == stDone }

// Flush writes the buffered log text to Options.Log. The log is buffered
// (as ds-server's stdout is when redirected) and written in large pieces,
// at the end of the run and when the caller flushes.
func (t *Text) Flush() { t.e.log.sync() }

// Report returns the report once QUIT has been processed, else nil.
func (t *Text) Report() *Report { return t.rep }

// Handle processes one client message (in newline mode including its final
// '\n') and returns the bytes to send, nil when ds-server sends nothing
// (a non-OK message inside a DATA exchange, §5.2). The returned slice is
// valid until the next call. done is true when the connection must be
// closed after sending the reply; err is a *Fatal when the reference would
// exit abnormally.
func (t *Text) Handle(raw string) (reply []byte, done bool, err error) {
	defer t.e.log.maybeSync()
	if t.state == stDone {
		return nil, true, nil
	}
	msg := raw
	if t.nl {
		if len(msg) == 0 || msg[len(msg)-1] != '\n' {
			t.state = stDone
			t.e.log.sync()
			return nil, true, &Fatal{1, "No new line character at the end of " + msg + "!"}
		}
		msg = msg[:len(msg)-1]
	}
	t.out = t.out[:0]
	t.e.log.proto(false, msg)
	switch t.state {
	case stHELO:
		if msg != "HELO" {
			return t.handshakeFail(msg)
		}
		t.state = stAUTH
		return t.sendMain("OK"), false, nil
	case stAUTH:
		if len(msg) <= 4 || !strings.HasPrefix(msg, "AUTH") {
			return t.handshakeFail(msg)
		}
		t.e.welcome(msg[4:])
		if t.OnAuth != nil {
			if err := t.OnAuth(SystemXML(t.e.cfg)); err != nil {
				t.state = stDone
				t.e.log.sync()
				return nil, true, &Fatal{1, "ds-system.xml: " + err.Error()}
			}
		}
		t.e.systemInfoLine()
		t.state = stPre
		return t.sendMain("OK"), false, nil
	case stPre:
		if msg != "REDY" && !strings.HasPrefix(msg, "GETS") {
			t.e.errf("ERR: invalid message (%s)!", msg)
			return t.sendMain("ERR"), false, nil
		}
		t.state = stMain
	case stResc:
		if msg != "OK" {
			t.e.errf("The message is supposed to be \"OK\", but received \"%s\"", msg)
			return nil, false, nil
		}
		if len(t.resc) > 0 {
			r := t.resc[0]
			t.resc = t.resc[1:]
			return t.sendData([]byte(r)), false, nil
		}
		t.state = stMain
		return t.sendMain("."), false, nil
	case stData1, stData2:
		if msg != "OK" {
			t.e.errf("The message is supposed to be \"OK\", but received \"%s\"", msg)
			return nil, false, nil
		}
		if t.state == stData1 && t.ndata > 0 {
			t.state = stData2
			return t.sendData(t.data), false, nil
		}
		t.state = stMain
		return t.sendMain("."), false, nil
	}
	return t.dispatch(msg)
}

// handshakeFail: the reference replies ERR and crashes [CRASH]; dsmock
// replies ERR and closes with status 1 (Appendix D).
func (t *Text) handshakeFail(msg string) ([]byte, bool, error) {
	t.e.errf("ERR: invalid message (%s)!", msg)
	r := t.sendMain("ERR")
	t.state = stDone
	t.e.log.sync()
	return r, true, &Fatal{1, "ERR: invalid message (" + msg + ")!"}
}

// sendMain sends a main-loop message: it becomes the previous message.
func (t *Text) sendMain(msg string) []byte {
	t.e.log.proto(true, msg)
	t.prev = append(t.prev[:0], msg...)
	if t.nl {
		t.prev = append(t.prev, '\n')
	}
	return t.prev
}

// resend re-sends the previous message; in -n mode the stored buffer gets
// one more '\n' each time [BUG-COMPAT] (§1.4, §5.1). The log shows it
// without the newline added now.
func (t *Text) resend() []byte {
	t.e.log.protoBytes(true, t.prev)
	if t.nl {
		t.prev = append(t.prev, '\n')
	}
	return t.prev
}

// sendData sends a DATA header or the records (not stored as previous).
func (t *Text) sendData(msg []byte) []byte {
	t.e.log.protoBytes(true, msg)
	t.out = append(t.out[:0], msg...)
	if t.nl {
		t.out = append(t.out, '\n')
	}
	return t.out
}

// startData begins a DATA exchange with the records already in t.data.
func (t *Text) startData(n, recLen int) []byte {
	t.ndata = n
	t.state = stData1
	h := append([]byte("DATA "), strconv.Itoa(n)...)
	h = append(h, ' ')
	h = strconv.AppendInt(h, int64(recLen), 10)
	return t.sendData(h)
}

// commands in ds-server's dispatch order (§5.1).
var commandOrder = [...]string{"HELO", "AUTH", "OK", "ERR", "JOBN", "JOBP", "NONE", "RESF", "RESR", "QUIT",
	"REDY", "PSHJ", "GETS", "RESC", "SCHD", "JCPL", "LSTJ", "LSTQ", "CNTJ", "MIGJ", "EJWT", "TERM", "KILJ", "ENQJ", "DEQJ"}

func (t *Text) dispatch(msg string) ([]byte, bool, error) {
	cmd := ""
	for _, c := range commandOrder {
		if strings.HasPrefix(msg, c) {
			cmd = c
			break
		}
	}
	e := t.e
	refuse := func(r refusal) ([]byte, bool, error) { return t.sendMain(r.text(msg)), false, nil }
	switch cmd {
	case "HELO", "AUTH", "OK", "ERR", "JOBN", "JOBP", "NONE", "RESF", "RESR":
		return t.resend(), false, nil
	case "QUIT":
		if msg != "QUIT" {
			return t.resend(), false, nil
		}
		e.quitAdvance()
		r := t.sendMain("QUIT")
		t.state = stDone
		t.rep = e.finish()
		return r, true, nil
	case "REDY":
		return t.redy(), false, nil
	case "PSHJ":
		handled, r := e.pshj()
		if !handled {
			return t.redy(), false, nil
		}
		if !r.ok() {
			return refuse(r)
		}
		return t.sendMain("OK"), false, nil
	case "GETS":
		return t.gets(msg)
	case "RESC":
		return t.rescCmd(msg)
	case "SCHD":
		f := strings.Fields(msg)
		var jobID, id int
		var jobOK, idOK bool
		typ := ""
		if len(f) > 1 {
			jobID, jobOK = scanInt(f[1])
		}
		if len(f) > 2 {
			typ = f[2]
		}
		if len(f) > 3 {
			id, idOK = scanInt(f[3])
		}
		if r := e.schd(jobID, jobOK, typ, id, idOK); !r.ok() {
			return refuse(r)
		}
		return t.sendMain("OK"), false, nil
	case "LSTJ":
		s, ok := t.serverArg(msg, 3)
		if !ok {
			return refuse(refusal{code: rLSTJ})
		}
		t.data = e.appendJobList(t.data[:0], s)
		return t.startData(len(s.running)+len(s.waiting), 59), false, nil
	case "LSTQ":
		return t.lstq(msg)
	case "CNTJ":
		s, ok := t.serverArg(msg, 4)
		if !ok {
			return refuse(refusal{code: rCNTJ})
		}
		st, ok := scanInt(strings.Fields(msg)[3])
		n := 0
		if ok {
			n, ok = e.cntj(s, st)
		}
		if !ok {
			e.errf("%s: Out of bound! (0 - 8); Job state", strings.Fields(msg)[3])
			return refuse(refusal{code: rCNTJ})
		}
		return t.sendMain(strconv.Itoa(n)), false, nil
	case "MIGJ":
		f := strings.Fields(msg)
		if len(f) != 6 {
			return refuse(refusal{code: rMIGJ})
		}
		jobID, ok1 := scanInt(f[1])
		src, ok2 := t.serverTok(f[2], f[3], "Source Server ID")
		tgt, ok3 := t.serverTok(f[4], f[5], "Target Server ID")
		if !ok1 || !ok2 || !ok3 {
			return refuse(refusal{code: rMIGJ})
		}
		if r := e.migj(jobID, src, tgt); !r.ok() {
			return refuse(r)
		}
		return t.sendMain("OK"), false, nil
	case "EJWT":
		s, ok := t.serverArg(msg, 3)
		if !ok {
			return refuse(refusal{code: rEJWT})
		}
		return t.sendMain(strconv.Itoa(e.ejwt(s))), false, nil
	case "TERM":
		s, ok := t.serverArg(msg, 3)
		if !ok {
			return refuse(refusal{code: rTERM})
		}
		n, r := e.term(s)
		if !r.ok() {
			return refuse(r)
		}
		return t.sendMain(strconv.Itoa(n) + " jobs killed"), false, nil
	case "KILJ":
		s, ok := t.serverArg(msg, 4)
		if !ok {
			return refuse(refusal{code: rKILJ})
		}
		jobID, ok := scanInt(strings.Fields(msg)[3])
		if !ok {
			return refuse(refusal{code: rKILJ})
		}
		if r := e.kilj(s, jobID); !r.ok() {
			return refuse(r)
		}
		return t.sendMain("OK"), false, nil
	case "ENQJ":
		f := strings.Fields(msg)
		if len(f) != 2 {
			return refuse(refusal{code: rEnqSyntax})
		}
		if f[1] != protocol.GlobalQueue {
			return refuse(refusal{code: rNoQueue})
		}
		if r := e.enqj(); !r.ok() {
			return refuse(r)
		}
		return t.sendMain("OK"), false, nil
	case "DEQJ":
		f := strings.Fields(msg)
		if len(f) != 3 {
			return refuse(refusal{code: rDeqSyntax})
		}
		// The queue name is not checked (§5.6).
		q, ok := scanInt(f[2])
		if !ok {
			return refuse(refusal{code: rDeqNoJob, s: f[2], b: len(e.gq)})
		}
		if r := e.deqj(q); !r.ok() {
			return refuse(r)
		}
		return t.sendMain("OK"), false, nil
	}
	// JCPL from a client is [UNDEFINED]: decision 3 says invalid command.
	return refuse(refusal{code: rInvalid})
}

// redy handles REDY (and PSHJ with nothing on offer).
func (t *Text) redy() []byte {
	e := t.e
	ev := e.redy()
	if ev.kind == evJCPL {
		e.finishJCPL(ev)
	}
	t.prev = e.appendEvent(t.prev[:0], ev) // a main-loop message: the previous one from now
	e.log.protoBytes(true, t.prev)
	if t.nl {
		t.prev = append(t.prev, '\n')
	}
	return t.prev
}

// serverArg checks "<CMD> type id …" with exactly n tokens, a known type
// and 0 <= id < limit.
func (t *Text) serverArg(msg string, n int) (*server, bool) {
	f := strings.Fields(msg)
	if len(f) != n {
		return nil, false
	}
	return t.serverTok(f[1], f[2], "Server ID")
}

func (t *Text) serverTok(typ, idTok, what string) (*server, bool) {
	id, ok := scanInt(idTok)
	if !ok {
		return nil, false
	}
	return t.e.lookup(typ, id, what)
}

// gets handles every GETS form (§5.3).
func (t *Text) gets(msg string) ([]byte, bool, error) {
	e := t.e
	q, ok := t.parseGets(msg)
	if !ok {
		return t.sendMain(refusal{code: rGETS}.text(msg)), false, nil
	}
	t.ids = e.gets(q.kind, q.ti, q.id, q.req, t.ids[:0])
	t.data = e.appendGetsBatch(t.data[:0], t.ids)
	return t.startData(len(t.ids), e.getsRecLen()), false, nil
}

// getsQuery is a parsed GETS (or RESC) query.
type getsQuery struct {
	kind getsKind
	ti   int32
	id   int
	req  protocol.Requirement
}

// parseGets reads the option and arguments after the four-letter command:
// skip every non-letter, the rest must begin with an option word (§5.3).
func (t *Text) parseGets(msg string) (getsQuery, bool) {
	e := t.e
	var q getsQuery
	rest := msg[4:]
	k := 0
	for k < len(rest) && !isLetter(rest[k]) {
		k++
	}
	rest = rest[k:]
	found := false
	for _, o := range getsOptions {
		if strings.HasPrefix(rest, o.word) {
			q.kind, found = o.kind, true
			break
		}
	}
	if !found {
		return q, false
	}
	f := strings.Fields(rest)
	switch q.kind {
	case getsType:
		if len(f) != 2 {
			return q, false
		}
		var ok bool
		if q.ti, ok = e.typeIndex(f[1]); !ok {
			return q, false
		}
	case getsOne:
		// The id is not range-checked by the reference [UNDEFINED];
		// dsmock refuses a bad one (Appendix D).
		if len(f) != 3 {
			return q, false
		}
		var ok bool
		if q.ti, ok = e.typeIndex(f[1]); !ok {
			return q, false
		}
		if q.id, ok = scanInt(f[2]); !ok || q.id < 0 || q.id >= e.types[q.ti].Limit {
			return q, false
		}
	case getsCapable, getsAvail, getsBounded:
		if len(f) != 4 {
			return q, false
		}
		var ok [3]bool
		q.req.Cores, ok[0] = scanInt(f[1])
		q.req.Memory, ok[1] = scanInt(f[2])
		q.req.Disk, ok[2] = scanInt(f[3])
		if !ok[0] || !ok[1] || !ok[2] || !e.reqOK(q.req) {
			return q, false
		}
	}
	return q, true
}

// rescCmd is RESC, the old form of GETS (§5.15, optional and mostly
// [NOT VERIFIED]): header "DATA", then one record per OK, then ".".
// A bad query gets GETS's error text (the reference's is not documented).
func (t *Text) rescCmd(msg string) ([]byte, bool, error) {
	e := t.e
	q, ok := t.parseGets(msg)
	if !ok {
		return t.sendMain(refusal{code: rGETS}.text(msg)), false, nil
	}
	t.ids = e.gets(q.kind, q.ti, q.id, q.req, t.ids[:0])
	t.resc = t.resc[:0]
	for _, si := range t.ids {
		t.resc = append(t.resc, string(e.appendRescRecord(nil, si, q)))
	}
	t.state = stResc
	return t.sendData([]byte("DATA")), false, nil
}

// appendRescRecord: <type> <id> <stateCode> <availTime> <cores> <mem>
// <disk> (+ the failure fields), resources as available now. availTime:
// idle → clock; inactive → clock + boot time; unavailable → -1;
// booting/active → -1, except under RESC Avail/Bounded when the server has
// room and no waiting job: booting → its boot end, active → clock.
func (e *Engine) appendRescRecord(b []byte, si int32, q getsQuery) []byte {
	s := e.servers[si]
	avail := -1
	switch s.state {
	case protocol.Idle:
		avail = e.clock
	case protocol.Inactive:
		avail = e.clock + e.types[s.typ].BootupTime
	case protocol.Booting, protocol.Active:
		if (q.kind == getsAvail || q.kind == getsBounded) && len(s.waiting) == 0 &&
			q.req.Cores <= s.c && q.req.Memory <= s.m && q.req.Disk <= s.d {
			avail = e.clock
			if s.state == protocol.Booting {
				avail = s.curStart
			}
		}
	}
	b = append(b, e.types[s.typ].Name...)
	b = append(b, ' ')
	b = appendInts(b, s.id, int(s.state), avail, s.c, s.m, s.d)
	if e.failures {
		b = append(b, ' ')
		b = appendInts(b, s.nFail, s.totalFail, s.mttf, s.mttr, s.madf, s.lastStart)
	}
	return b
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// lstq handles LSTQ GQ # | * | $ | i (§5.7).
func (t *Text) lstq(msg string) ([]byte, bool, error) {
	e := t.e
	bad := func() ([]byte, bool, error) { return t.sendMain(refusal{code: rLSTQ}.text(msg)), false, nil }
	f := strings.Fields(msg)
	if len(f) != 3 || f[1] != protocol.GlobalQueue {
		return bad()
	}
	one := func(i int) ([]byte, bool, error) {
		if i > 0 {
			// The lookup never advances past position 0 [BUG-COMPAT].
			return t.sendMain("No such queue ID (" + strconv.Itoa(i) + ") exists!"), false, nil
		}
		return t.sendMain(e.queued(0).String() + "\n"), false, nil
	}
	switch f[2] {
	case "#":
		return t.sendMain(strconv.Itoa(len(e.gq))), false, nil
	case "*":
		t.data = e.appendQueueList(t.data[:0])
		return t.startData(len(e.gq), 55), false, nil
	case "$":
		if len(e.gq) == 0 {
			return bad()
		}
		return one(len(e.gq) - 1)
	}
	i, ok := scanInt(f[2])
	if !ok || i < 0 || i >= len(e.gq) {
		return bad()
	}
	return one(i)
}

func (e *Engine) appendJobRecord(b []byte, x slot, st protocol.JobState) []byte {
	j := &e.jobs[x.job]
	return appendInts(b, j.ID, int(st), j.Submit, x.start, j.EstRunTime, j.Cores, j.Memory, j.Disk)
}

// scanInt reads a number like C's sscanf("%d"): optional sign, digits,
// anything after them ignored ("1x" is 1). ok is false without digits.
func scanInt(s string) (int, bool) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start, v := i, int64(0)
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v < 1<<40 {
			v = v*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, false
	}
	if v > 1<<31-1 {
		v = 1<<31 - 1 // values beyond int32 are undefined in the reference; clamp
	}
	if neg {
		v = -v
	}
	return int(v), true
}
