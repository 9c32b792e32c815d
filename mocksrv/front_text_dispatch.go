package mocksrv

import (
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv/engine"
	"github.com/dssim-go/dssim-go/protocol"
)

// The text front's dispatch (§5.1): a main-loop message is matched by
// prefix, parsed into an engine.Command and executed; malformed messages
// are refused here. The reply is written from the engine.Reply.

// commands in ds-server's dispatch order (§5.1).
var commandOrder = [...]string{"HELO", "AUTH", "OK", "ERR", "JOBN", "JOBP", "NONE", "RESF", "RESR", "QUIT",
	"REDY", "PSHJ", "GETS", "RESC", "SCHD", "JCPL", "LSTJ", "LSTQ", "CNTJ", "MIGJ", "EJWT", "TERM", "KILJ", "ENQJ", "DEQJ"}

// parsers of the commands. Each returns the command, its Op set even when
// ok is false: a malformed message gets that command's refusal.
var parsers = map[string]func(msg string) (c engine.Command, ok bool){
	"REDY": noArgs(engine.OpREDY),
	"PSHJ": noArgs(engine.OpPSHJ),
	"QUIT": noArgs(engine.OpQUIT),
	"GETS": func(msg string) (engine.Command, bool) { return parseGets(engine.OpGETS, msg) },
	"RESC": func(msg string) (engine.Command, bool) { return parseGets(engine.OpRESC, msg) },
	"SCHD": parseSCHD,
	"LSTJ": func(msg string) (engine.Command, bool) { return parseMachineCmd(engine.OpLSTJ, msg, 3) },
	"LSTQ": parseLSTQ,
	"CNTJ": parseCNTJ,
	"MIGJ": parseMIGJ,
	"EJWT": func(msg string) (engine.Command, bool) { return parseMachineCmd(engine.OpEJWT, msg, 3) },
	"TERM": func(msg string) (engine.Command, bool) { return parseMachineCmd(engine.OpTERM, msg, 3) },
	"KILJ": parseKILJ,
	"ENQJ": parseENQJ,
	"DEQJ": parseDEQJ,
}

// noArgs parses a command whose arguments are ignored.
func noArgs(op engine.Op) func(string) (engine.Command, bool) {
	return func(string) (engine.Command, bool) { return engine.Command{Op: op}, true }
}

func (t *Text) dispatch(msg string) ([]byte, bool, error) {
	cmd := ""
	for _, c := range commandOrder {
		if strings.HasPrefix(msg, c) {
			cmd = c
			break
		}
	}
	switch cmd {
	case "HELO", "AUTH", "OK", "ERR", "JOBN", "JOBP", "NONE", "RESF", "RESR":
		return t.resend(), false, nil
	case "QUIT":
		if msg != "QUIT" {
			return t.resend(), false, nil
		}
	}
	parse := parsers[cmd]
	if cmd == "" && t.e.MemExt() && strings.HasPrefix(msg, "SCHM") {
		parse = parseSCHM // memory extension only: ds-server has no SCHM
	}
	if parse == nil {
		parse = noArgs(engine.OpInvalid) // JCPL from a client, or no command (decision 3)
	}
	c, ok := parse(msg)
	if !ok {
		r := engine.Reply{Kind: engine.ReplyRefused, Refusal: engine.Malformed(c.Op)}
		_ = t.watchOffers(msg, &r) // a refusal never ends the dialogue
		return t.sendMain(r.Refusal.Text(msg)), false, nil
	}
	r := t.e.Exec(&c)
	if err := t.watchOffers(msg, &r); err != nil {
		return nil, true, err
	}
	return t.reply(msg, c.Op, &r)
}

// reply sends the engine's reply to msg, a command op.
func (t *Text) reply(msg string, op engine.Op, r *engine.Reply) ([]byte, bool, error) {
	switch r.Kind {
	case engine.ReplyRefused:
		return t.sendMain(r.Refusal.Text(msg)), false, nil
	case engine.ReplyEvent:
		t.noneSent = t.noneSent || r.Event.Kind() == engine.EventNONE
		t.prev = t.e.AppendEvent(t.prev[:0], r.Event) // a main-loop message: the previous one from now
		t.e.LogSentBytes(t.prev)
		if t.nl {
			t.prev = append(t.prev, '\n')
		}
		return t.prev, false, nil
	case engine.ReplyQuit:
		out := t.sendMain("QUIT")
		t.state = stDone
		t.rep = t.e.Finish()
		return out, true, nil
	case engine.ReplyServers, engine.ReplyJobs, engine.ReplyQueue:
		if op == engine.OpRESC {
			return t.rescReply(r), false, nil
		}
		t.data = t.e.AppendData(t.data[:0], r)
		return t.startData(r.N, r.RecLen), false, nil
	}
	return t.sendMain(r.Line()), false, nil
}

// rescReply starts RESC's listing (§5.15): header "DATA", then one record
// per OK, then ".".
func (t *Text) rescReply(r *engine.Reply) []byte {
	t.resc = t.resc[:0]
	for i := 0; i < r.N; i++ {
		t.resc = append(t.resc, string(t.e.AppendRescRecord(nil, r, i)))
	}
	t.state = stResc
	return t.sendData([]byte("DATA"))
}

// getsOptions in the order ds-server tests them (§5.3).
var getsOptions = [...]struct {
	word string
	q    engine.Query
}{{"All", engine.QueryAll}, {"Type", engine.QueryType}, {"One", engine.QueryOne}, {"Avail", engine.QueryAvail},
	{"Capable", engine.QueryCapable}, {"Bounded", engine.QueryBounded}}

// parseGets reads the option and arguments after the four-letter command:
// skip every non-letter, the rest must begin with an option word (§5.3).
func parseGets(op engine.Op, msg string) (engine.Command, bool) {
	c := engine.Command{Op: op}
	rest := msg[4:]
	k := 0
	for k < len(rest) && !isLetter(rest[k]) {
		k++
	}
	rest = rest[k:]
	found := false
	for _, o := range getsOptions {
		if strings.HasPrefix(rest, o.word) {
			c.Query, found = o.q, true
			break
		}
	}
	if !found {
		return c, false
	}
	f := strings.Fields(rest)
	switch c.Query {
	case engine.QueryType:
		c.Server.Type = argAt(f, 1)
		return c, len(f) == 2
	case engine.QueryOne:
		// The type is looked up (with its stderr line) before the id is
		// read, so a bad id is the engine's to refuse.
		c.Server.Type = argAt(f, 1)
		c.Server.ID = numArg(f, 2, &c.Missing, engine.MissingID)
		return c, len(f) == 3
	case engine.QueryCapable, engine.QueryAvail, engine.QueryBounded:
		if len(f) != 4 {
			return c, false
		}
		var ok [3]bool
		c.Req.Cores, ok[0] = scanInt(f[1])
		c.Req.Memory, ok[1] = scanInt(f[2])
		c.Req.Disk, ok[2] = scanInt(f[3])
		return c, ok[0] && ok[1] && ok[2]
	}
	return c, true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// parseSCHD: missing or non-numeric fields are not malformed; ds-server
// goes on and refuses with the command's own error text (decision 3).
func parseSCHD(msg string) (engine.Command, bool) {
	f := strings.Fields(msg)
	c := engine.Command{Op: engine.OpSCHD}
	c.Job = numArg(f, 1, &c.Missing, engine.MissingJob)
	c.Server.Type = argAt(f, 2)
	c.Server.ID = numArg(f, 3, &c.Missing, engine.MissingID)
	return c, true
}

// parseSCHM reads SCHM jobID type id allocMem (the memory extension,
// estimation.md Part E item 4). The first three fields are read as SCHD's
// (a missing or non-numeric one is refused by the engine with SCHD's
// text); allocMem must be a plain decimal number and the last token (no
// reference behaviour binds it, so it is read strictly): otherwise it is
// flagged missing and refused as an invalid allocation.
func parseSCHM(msg string) (engine.Command, bool) {
	c, _ := parseSCHD(msg)
	c.Op = engine.OpSCHM
	f := strings.Fields(msg)
	v, err := strconv.Atoi(argAt(f, 4))
	if err != nil || len(f) != 5 {
		c.Missing |= engine.MissingAlloc
	}
	c.Alloc = v
	return c, true
}

// parseMachineCmd reads "<CMD> type id …" with exactly n tokens and a
// numeric id; the type and the id's range are the engine's to check.
func parseMachineCmd(op engine.Op, msg string, n int) (engine.Command, bool) {
	f := strings.Fields(msg)
	if len(f) != n {
		return engine.Command{Op: op}, false
	}
	id, ok := scanInt(f[2])
	return engine.Command{Op: op, Server: engine.Ref{Type: f[1], ID: id}}, ok
}

// parseCNTJ: a bad state is refused by the engine, after the server
// lookup, with a stderr line echoing the token as typed.
func parseCNTJ(msg string) (engine.Command, bool) {
	c, ok := parseMachineCmd(engine.OpCNTJ, msg, 4)
	if ok {
		f := strings.Fields(msg)
		c.Token = f[3]
		c.N = numArg(f, 3, &c.Missing, engine.MissingN)
	}
	return c, ok
}

// parseKILJ: the job id is read after the server lookup.
func parseKILJ(msg string) (engine.Command, bool) {
	c, ok := parseMachineCmd(engine.OpKILJ, msg, 4)
	if ok {
		c.Job = numArg(strings.Fields(msg), 3, &c.Missing, engine.MissingJob)
	}
	return c, ok
}

// parseMIGJ: MIGJ jobID srcType srcID tgtType tgtID; both servers are
// looked up before anything non-numeric is refused.
func parseMIGJ(msg string) (engine.Command, bool) {
	f := strings.Fields(msg)
	if len(f) != 6 {
		return engine.Command{Op: engine.OpMIGJ}, false
	}
	c := engine.Command{Op: engine.OpMIGJ}
	c.Job = numArg(f, 1, &c.Missing, engine.MissingJob)
	c.Server = engine.Ref{Type: f[2], ID: numArg(f, 3, &c.Missing, engine.MissingID)}
	c.To = engine.Ref{Type: f[4], ID: numArg(f, 5, &c.Missing, engine.MissingTo)}
	return c, true
}

// parseLSTQ: LSTQ GQ # | * | $ | i (§5.7).
func parseLSTQ(msg string) (engine.Command, bool) {
	f := strings.Fields(msg)
	if len(f) != 3 || f[1] != protocol.GlobalQueue {
		return engine.Command{Op: engine.OpLSTQAt}, false
	}
	switch f[2] {
	case "#":
		return engine.Command{Op: engine.OpLSTQCount}, true
	case "*":
		return engine.Command{Op: engine.OpLSTQAll}, true
	case "$":
		return engine.Command{Op: engine.OpLSTQLast}, true
	}
	i, ok := scanInt(f[2])
	return engine.Command{Op: engine.OpLSTQAt, N: i}, ok
}

// parseENQJ: ENQJ queue; the queue name is the engine's to check.
func parseENQJ(msg string) (engine.Command, bool) {
	f := strings.Fields(msg)
	return engine.Command{Op: engine.OpENQJ, Queue: argAt(f, 1)}, len(f) == 2
}

// parseDEQJ: DEQJ queue qID; the queue name is not checked (§5.6), a
// non-numeric qID is refused by the engine with the token as typed.
func parseDEQJ(msg string) (engine.Command, bool) {
	f := strings.Fields(msg)
	if len(f) != 3 {
		return engine.Command{Op: engine.OpDEQJ}, false
	}
	c := engine.Command{Op: engine.OpDEQJ, Token: f[2]}
	c.N = numArg(f, 2, &c.Missing, engine.MissingN)
	return c, true
}

// argAt is token i, or "" when there are fewer.
func argAt(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// numArg reads token i as a number, setting flag in missing when it is
// absent or not a number.
func numArg(f []string, i int, missing *engine.Missing, flag engine.Missing) int {
	if i < len(f) {
		if v, ok := scanInt(f[i]); ok {
			return v
		}
	}
	*missing |= flag
	return 0
}

// scanInt reads a number like C's sscanf("%d"): optional sign, digits,
// anything after them ignored ("1x" is 1); a number beyond 32 bits wraps
// as it does in ds-server (CInt: "4294967297" is 1), as the config loader
// reads the config's numbers. ok is false without digits.
func scanInt(s string) (int, bool) { return CInt(s) }
