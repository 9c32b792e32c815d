package engine

import "strconv"

// Op names a client command of the main loop (ds-server.md §5). The
// handshake (§1.5) and the pre-simulation loop are the fronts' business.
type Op uint8

// The commands. LSTQ has one Op per form of its argument (§5.7).
const (
	OpInvalid   Op = iota // no command matches, or a client JCPL (§5.1, decision 3)
	OpREDY                // §3.2
	OpPSHJ                // §5.14
	OpQUIT                // §1.6 step 1; Finish does the rest
	OpGETS                // §5.3
	OpRESC                // §5.15
	OpSCHD                // §5.4
	OpENQJ                // §5.5
	OpDEQJ                // §5.6
	OpLSTQCount           // LSTQ GQ #
	OpLSTQAll             // LSTQ GQ *
	OpLSTQLast            // LSTQ GQ $
	OpLSTQAt              // LSTQ GQ i
	OpLSTJ                // §5.8
	OpCNTJ                // §5.9
	OpEJWT                // §5.10
	OpMIGJ                // §5.11
	OpKILJ                // §5.12
	OpTERM                // §5.13
	OpSCHM                // memory extension (estimation.md Part E item 4); OpInvalid's reply when off
)

// Missing flags the numeric arguments a text message lacked or gave as
// something other than a number. ds-server does not reject those as
// malformed: it goes on and refuses later, after lookups that print their
// stderr lines (§7.7), so the engine must know. The in-process front never
// sets them.
type Missing uint8

// The arguments that can be missing.
const (
	MissingJob   Missing = 1 << iota // SCHD, MIGJ, KILJ: the job id
	MissingID                        // SCHD, GETS One: the server id; MIGJ: the source's
	MissingTo                        // MIGJ: the target's server id
	MissingN                         // CNTJ: the state; DEQJ: the queue position
	MissingAlloc                     // SCHM: allocMem
)

// Command is one client command, parsed.
type Command struct {
	Op      Op
	Query   Query  // GETS, RESC: the option
	Job     int    // SCHD, SCHM, MIGJ, KILJ: the job id
	Alloc   int    // SCHM: allocMem
	Server  Ref    // SCHD, LSTJ, CNTJ, EJWT, KILJ, TERM, GETS Type/One; MIGJ: the source
	To      Ref    // MIGJ: the target
	Req     Req    // GETS, RESC Capable/Avail/Bounded
	N       int    // CNTJ: the job state; DEQJ, LSTQ i: the queue position
	Queue   string // ENQJ: the queue name
	Token   string // CNTJ, DEQJ: N as the client typed it, when that is echoed (text front)
	Missing Missing
}

// ReplyKind says what a Reply holds.
type ReplyKind uint8

// The kinds of reply.
const (
	ReplyOK      ReplyKind = iota // "OK"
	ReplyNumber                   // N: LSTQ #, CNTJ, EJWT
	ReplyKilled                   // N: TERM's "<N> jobs killed"
	ReplyMessage                  // Text: LSTQ GQ i's one-line answer
	ReplyEvent                    // Event: REDY, or PSHJ with no job on offer
	ReplyServers                  // GETS, RESC: N machines; see AppendData, FillServers, AppendRescRecord
	ReplyJobs                     // LSTJ: N jobs; see AppendData, JobRecords
	ReplyQueue                    // LSTQ GQ *: N entries; see AppendData, QueueRecords
	ReplyQuit                     // QUIT: the front logs its reply, then calls Finish
	ReplyRefused                  // Refusal
)

// Reply is the engine's answer to one Command. Record lists are not built
// here: each front renders them from the engine's state (bytes for the
// text front, typed records for the in-process one), before the next Exec.
type Reply struct {
	Kind    ReplyKind
	N       int    // the number, or the number of records of a DATA reply
	RecLen  int    // DATA replies: the record length of the DATA header (§5.2)
	Text    string // ReplyMessage
	Event   Event
	Refusal Refusal
	sel     []int32 // ReplyServers: the machines, valid until the next Exec
	query   Query   // ReplyServers: for RESC's availability column
	req     Req
	m       int32 // ReplyJobs: the machine
}

// Line is the reply text of the one-line replies (OK, a number, TERM's,
// LSTQ GQ i's); "" for the others.
func (r Reply) Line() string {
	switch r.Kind {
	case ReplyOK:
		return "OK"
	case ReplyNumber:
		return strconv.Itoa(r.N)
	case ReplyKilled:
		return strconv.Itoa(r.N) + " jobs killed"
	case ReplyMessage:
		return r.Text
	}
	return ""
}

func refused(r Refusal) Reply { return Reply{Kind: ReplyRefused, Refusal: r} }

// done is the reply of an action: OK, or its refusal.
func done(r Refusal) Reply {
	if !r.ok() {
		return refused(r)
	}
	return Reply{}
}

// Exec carries out one command (the engine's only entry point for client
// commands, used by both fronts) and returns ds-server's answer. The front
// logs the command and the reply (§7.3); the engine logs the events the
// command causes (§7.2) and prints its stderr lines (§7.7).
func (e *Engine) Exec(c *Command) Reply {
	switch c.Op {
	case OpREDY:
		return Reply{Kind: ReplyEvent, Event: e.redyJCPL()}
	case OpPSHJ:
		handled, r := e.pshj()
		if !handled {
			return Reply{Kind: ReplyEvent, Event: e.redyJCPL()}
		}
		return done(r)
	case OpQUIT:
		e.quitAdvance()
		return Reply{Kind: ReplyQuit}
	case OpGETS, OpRESC:
		return e.execGets(c)
	case OpSCHD:
		return done(e.schd(c.Job, c.Missing&MissingJob == 0, c.Server.Type, c.Server.ID, c.Missing&MissingID == 0))
	case OpSCHM:
		if e.opt.MemFail == MemFailOff {
			return refused(Refusal{code: rInvalid}) // ds-server has no SCHM
		}
		return done(e.schm(c))
	case OpENQJ:
		if c.Queue != globalQueue {
			return refused(Refusal{code: rNoQueue})
		}
		return done(e.enqj())
	case OpDEQJ:
		if c.Missing&MissingN != 0 {
			return refused(Refusal{code: rDeqNoJob, s: c.Token, b: len(e.gq)})
		}
		return done(e.deqj(c.N))
	case OpLSTQCount, OpLSTQAll, OpLSTQLast, OpLSTQAt:
		return e.execLSTQ(c)
	case OpLSTJ, OpCNTJ, OpEJWT, OpKILJ, OpTERM:
		return e.execOnMachine(c)
	case OpMIGJ:
		return e.execMIGJ(c)
	}
	return refused(Refusal{code: rInvalid})
}

// redyJCPL is REDY with §3.3 step 4 for a JCPL, which comes before the
// reply is logged.
func (e *Engine) redyJCPL() Event {
	ev := e.redy()
	if ev.kind == EventJCPL {
		e.finishJCPL(ev)
	}
	return ev
}

// execGets checks a GETS or RESC query and selects its machines (§5.3).
// The fronts have checked the syntax; the type name and the numbers are
// checked here, with their stderr lines.
func (e *Engine) execGets(c *Command) Reply {
	var ti int32
	switch c.Query {
	case QueryType, QueryOne:
		var ok bool
		if ti, ok = e.typeIndex(c.Server.Type); !ok {
			return refused(Refusal{code: rGETS})
		}
		// GETS One's id is not range-checked by the reference [UNDEFINED];
		// dsmock refuses a bad one (Appendix D).
		if c.Query == QueryOne && (c.Missing&MissingID != 0 || c.Server.ID < 0 || c.Server.ID >= e.types[ti].Limit) {
			return refused(Refusal{code: rGETS})
		}
	case QueryAvail, QueryCapable, QueryBounded:
		if !e.reqOK(c.Req) {
			return refused(Refusal{code: rGETS})
		}
	}
	e.ids = e.gets(c.Query, ti, c.Server.ID, c.Req, e.ids[:0])
	return Reply{Kind: ReplyServers, N: len(e.ids), RecLen: e.getsRecLen(), sel: e.ids, query: c.Query, req: c.Req}
}

// execLSTQ is LSTQ GQ # | * | $ | i (§5.7); the queue name is the front's.
func (e *Engine) execLSTQ(c *Command) Reply {
	i := c.N
	switch c.Op {
	case OpLSTQCount:
		return Reply{Kind: ReplyNumber, N: len(e.gq)}
	case OpLSTQAll:
		return Reply{Kind: ReplyQueue, N: len(e.gq), RecLen: 55}
	case OpLSTQLast:
		i = len(e.gq) - 1
	}
	if i < 0 || i >= len(e.gq) {
		return refused(Refusal{code: rLSTQ})
	}
	if i > 0 {
		// The lookup never advances past position 0 [BUG-COMPAT].
		return Reply{Kind: ReplyMessage, Text: "No such queue ID (" + strconv.Itoa(i) + ") exists!"}
	}
	return Reply{Kind: ReplyMessage, Text: e.queued(0).String() + "\n"}
}

// execOnMachine is a command about one machine: LSTJ, CNTJ, EJWT, KILJ,
// TERM (§5.8-§5.13). An unknown machine gets the command's own refusal.
func (e *Engine) execOnMachine(c *Command) Reply {
	s, ok := e.lookup(c.Server.Type, c.Server.ID, "Server ID")
	if !ok {
		return refused(Malformed(c.Op))
	}
	switch c.Op {
	case OpLSTJ:
		return Reply{Kind: ReplyJobs, N: len(s.running) + len(s.waiting), RecLen: 59, m: s.idx}
	case OpCNTJ:
		n, ok := 0, false
		if c.Missing&MissingN == 0 {
			n, ok = e.cntj(s, c.N)
		}
		if !ok {
			e.stderr(cntjStateLine(c))
			return refused(Refusal{code: rCNTJ})
		}
		return Reply{Kind: ReplyNumber, N: n}
	case OpEJWT:
		return Reply{Kind: ReplyNumber, N: e.ejwt(s)}
	case OpKILJ:
		if c.Missing&MissingJob != 0 {
			return refused(Refusal{code: rKILJ})
		}
		return done(e.kilj(s, c.Job))
	}
	n, r := e.term(s)
	if !r.ok() {
		return refused(r)
	}
	return Reply{Kind: ReplyKilled, N: n}
}

// cntjStateLine is the stderr line for a CNTJ state that is refused. Out
// of 0-8, ds-server's own range message; 0 and 8 pass ds-server's check
// and crash it (§5.9 [CRASH]), so refusing them is dsmock's choice and
// the line says so instead of calling them out of bound, as is one for a
// state that is not a number.
func cntjStateLine(c *Command) string {
	tok := c.Token
	if tok == "" {
		tok = strconv.Itoa(c.N)
	}
	const counted = "CNTJ counts states 1 (waiting) to 7 (killed)"
	switch {
	case c.Missing&MissingN != 0:
		return "dsmock: CNTJ job state " + strconv.Quote(tok) + " is not a number: " + counted
	case c.N == 0 || c.N == 8:
		name := ""
		if c.N == 0 {
			name = " (submitted)"
		}
		return "dsmock: CNTJ job state " + strconv.Itoa(c.N) + name + " is refused, as ds-server crashes on 0 and 8: " + counted
	}
	return tok + ": Out of bound! (0 - 8); Job state"
}

// execMIGJ is MIGJ (§5.11): both machines are looked up (with their stderr
// lines) before anything is refused.
func (e *Engine) execMIGJ(c *Command) Reply {
	src, ok1 := e.lookupIf(c.Server, c.Missing&MissingID == 0, "Source Server ID")
	tgt, ok2 := e.lookupIf(c.To, c.Missing&MissingTo == 0, "Target Server ID")
	if c.Missing&MissingJob != 0 || !ok1 || !ok2 {
		return refused(Refusal{code: rMIGJ})
	}
	return done(e.migj(c.Job, src, tgt))
}

// lookupIf is lookup when the id was given as a number, else a silent miss.
func (e *Engine) lookupIf(ref Ref, given bool, what string) (*Machine, bool) {
	if !given {
		return nil, false
	}
	return e.lookup(ref.Type, ref.ID, what)
}

// Malformed is ds-server's refusal of a message of command op whose
// syntax is wrong (the text front's verdict; the wording is ds-server's).
func Malformed(op Op) Refusal {
	switch op {
	case OpGETS, OpRESC:
		return Refusal{code: rGETS}
	case OpENQJ:
		return Refusal{code: rEnqSyntax}
	case OpDEQJ:
		return Refusal{code: rDeqSyntax}
	case OpLSTQCount, OpLSTQAll, OpLSTQLast, OpLSTQAt:
		return Refusal{code: rLSTQ}
	case OpLSTJ:
		return Refusal{code: rLSTJ}
	case OpCNTJ:
		return Refusal{code: rCNTJ}
	case OpEJWT:
		return Refusal{code: rEJWT}
	case OpMIGJ:
		return Refusal{code: rMIGJ}
	case OpKILJ:
		return Refusal{code: rKILJ}
	case OpTERM:
		return Refusal{code: rTERM}
	}
	return Refusal{code: rInvalid}
}
