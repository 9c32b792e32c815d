package engine

import (
	"cmp"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv/model"
	"github.com/dssim-go/dssim-go/protocol/cfloat"
)

// Options configure one simulation.
type Options struct {
	// Level is the -v verbosity (§7.4); the zero value behaves like no -v.
	Level Level
	// Newline is -n (or <config newline="true">): newline mode (§1.4).
	Newline bool
	// NoFailureMsgs is -o: RESF/RESR are not sent (§3.6).
	NoFailureMsgs bool
	// Log receives the stdout log (§7); nil for none (nothing is formatted).
	Log io.Writer
	// Stderr receives ds-server's informational stderr lines (§7.7); nil for none.
	Stderr io.Writer
	// CommandLine is echoed in the second header line (§7.1); Port in the third.
	CommandLine string
	Port        int
	// NoHeader suppresses the three header lines (the caller prints them,
	// e.g. dsmock prints them once before accepting connections).
	NoHeader bool
	// FreshRecords (in-process Session only) gives every GETS result its
	// own slice. By default a Session's GETS results share one buffer, as
	// the strategies.Queries contract allows: a slice is valid until the
	// next GETS on the same Session. Reuse saves the allocation of every
	// record, the bulk of an in-process run's garbage (config100-long-high
	// with ff: 14.9 MB → 1.3 MB per run, about twice as fast). Set it for
	// code that keeps GETS results across GETS queries.
	FreshRecords bool
	// Year is the ds-server release reproduced: the zero value is
	// model.DefaultYear (2026, GETS records with the hourly rate); 2025
	// sends them without it. Its version heads the log.
	Year model.Year
	// MemFail switches the memory extension on (estimation.md Part E:
	// SCHM, hidden actMemory, memory failures) with its failure model.
	// The zero value, MemFailOff, is ds-server exactly.
	MemFail MemFailModel
}

// Engine is the simulation core: ds-server's state and its reaction to
// every client command, with no I/O of its own (it writes the log to the
// io.Writer it was given). It is not safe for concurrent use; independent
// Engines share nothing.
type Engine struct {
	cfg      *model.Config
	opt      Options
	types    []model.ServerType
	first    []int32 // index of each type's server 0 in servers
	machines []*Machine
	byName   map[string]int32
	jobs     []model.Job
	log      *logger

	clock     int
	next      int // release index into jobs
	sq, gq    []qent
	lastSent  int32 // -1: none
	completed int
	actualEnd int

	batch  []batchEnt
	batchT int

	chkQ     bool
	prevQLen int

	fevents []fevent
	fnext   int

	endH, bootH keyHeap
	idleCand    []int32
	scratch     []int32
	ids         []int32 // the machines of the last GETS or RESC

	failures bool // failures are simulated (cached Config.Simulated)
	// rates are the types' hourly rates as 2026 GETS records write them
	// (nil for 2025, whose records have none): formatted once, not per
	// record.
	rates    []string
	rateVals []float64 // rates as a client reads them back (RecordRate)

	mem memExt // the memory extension's state (engine_memext.go)
}

type batchEnt struct {
	srv int32
	job int32
}

// fevent is a failure (rec.Start) or recovery (rec.End+1) event (Appendix C.1).
type fevent struct {
	t       int
	recover bool
	srv     int32
	dur     int // failEnd - failStart
}

// NewEngine builds a simulation of cfg. The config must have been loaded
// (types sorted, jobs present). Failure trace records naming an unknown
// server are an error.
func NewEngine(cfg *model.Config, opt Options) (*Engine, error) {
	if cfg == nil || len(cfg.Types) == 0 {
		return nil, errors.New("mocksrv: config has no server types")
	}
	e := &Engine{cfg: cfg, opt: opt, types: cfg.Types, jobs: cfg.Jobs, lastSent: -1,
		byName: make(map[string]int32, len(cfg.Types)), failures: cfg.Simulated()}
	n := 0
	for _, t := range cfg.Types {
		n += t.Limit
	}
	e.machines = make([]*Machine, 0, n)
	store := make([]Machine, n)
	for ti, t := range cfg.Types {
		if _, dup := e.byName[t.Name]; dup {
			return nil, errors.New("mocksrv: server type " + strconv.Quote(t.Name) + " listed twice")
		}
		if !oneToken(t.Name) || t.Limit < 1 || t.Cores < 1 || t.Memory < 0 || t.Disk < 0 {
			// A loaded config never has these but for control characters
			// in a name; a hand-built one is refused here rather than
			// failing later (ds-system.xml, GETS). A name must travel as
			// one protocol token, so a lookup of a name that cannot is a
			// miss in both fronts.
			return nil, errors.New("mocksrv: server type " + strconv.Quote(t.Name) + ": a name (one token, no white space or control characters), limit ≥ 1, cores ≥ 1 and non-negative memory and disk are required")
		}
		e.byName[t.Name] = int32(ti)
		e.first = append(e.first, int32(len(e.machines)))
		for id := 0; id < t.Limit; id++ {
			s := &store[len(e.machines)]
			*s = Machine{name: t.Name, idx: int32(len(e.machines)), typ: int32(ti), id: id, state: inactive,
				curStart: -1, c: t.Cores, m: t.Memory, d: t.Disk, mark: -1,
				mttf: -1, mttr: -1, madf: -1, endPushed: inf, bootPushed: inf}
			e.machines = append(e.machines, s)
		}
	}
	if opt.Year.Rates() {
		e.rates, e.rateVals = make([]string, len(cfg.Types)), make([]float64, len(cfg.Types))
		for ti, t := range cfg.Types {
			// As ds-system.xml writes it (mocksrv.SystemXML): the 32-bit
			// rate's exact value with two decimals.
			e.rates[ti] = cfloat.Fixed2(float64(t.HourlyRate))
			e.rateVals[ti] = readFixed2(e.rates[ti])
		}
	}
	if cfg.Simulated() {
		if err := e.loadFailures(); err != nil {
			return nil, err
		}
	}
	if opt.MemFail != MemFailOff {
		if err := CheckMemExt(cfg, opt.MemFail); err != nil {
			return nil, err
		}
		e.mem.rand = uint64(int64(cfg.Seed))
	}
	e.log = newLogger(opt.Log, opt.Level)
	if !opt.NoHeader {
		e.header()
	}
	return e, nil
}

// readFixed2 reads back what cfloat.Fixed2 wrote ("-nan" included, which
// strconv does not read): the value a client parses from a record.
func readFixed2(s string) float64 {
	neg := strings.HasPrefix(s, "-")
	v, _ := strconv.ParseFloat(strings.TrimPrefix(s, "-"), 64) // Fixed2's output always parses
	if neg {
		return -v // flips the sign bit of NaN and zero too
	}
	return v
}

// oneToken: a type name with white space or control characters could not
// travel as one token.
func oneToken(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' {
			return false
		}
	}
	return true
}

// header prints the three lines ds-server prints before accepting (§7.1).
func (e *Engine) header() {
	if e.log.writing() {
		e.log.buf = append(e.log.buf, ModelLines(e.cfg, e.opt.Level)...)
		e.log.buf = append(e.log.buf, Header(e.opt.Year, e.opt.CommandLine, e.opt.Port)...)
	}
}

// ModelLines returns the two lines ds-server prints at -v all while it
// generates a failure model's failures, before its banner because the
// configuration is read first (failure-models.md §8); "" otherwise.
func ModelLines(cfg *model.Config, lvl Level) string {
	if cfg.FailureModel == "" || lvl.Proto != ProtoAll {
		return ""
	}
	return "# Start generating resource failures based on " + cfg.FailureModel + " distribution.\n" +
		"Total #failures: " + strconv.Itoa(cfg.FailureTotal) + "\n"
}

// Header returns the three lines year's ds-server prints before accepting
// a connection (§7.1): the version, the command line exactly as given
// (space-joined) and the port.
func Header(year model.Year, commandLine string, port int) string {
	return "# ds-sim server " + year.Version() + "\n" +
		"# Server-side simulator started with '" + commandLine + "'\n" +
		"# Waiting for connection to port " + strconv.Itoa(port) + " of IP address 127.0.0.1\n"
}

// loadFailures builds the event list of Appendix C.1 from the trace
// records, adding the phantom failure of the smallest type's server 0, or
// from a model's generated failures, which have no phantom
// (failure-models.md §1.6, §5.7: failure then recovery per record, stably
// sorted by time, exactly as for a trace).
func (e *Engine) loadFailures() error {
	ev := make([]fevent, 0, 2*len(e.cfg.Failures)+1) // +1: the phantom
	for i, r := range e.cfg.Failures {
		ti, ok := e.byName[r.Type]
		if !ok {
			return errors.New(e.cfg.FailureFile + ": failure record " + itoa(i+1) + ": no server type " + strconv.Quote(r.Type))
		}
		if r.ID < 0 || r.ID >= e.types[ti].Limit {
			return errors.New(e.cfg.FailureFile + ": failure record " + itoa(i+1) + ": server id " + itoa(r.ID) +
				" out of range for type " + strconv.Quote(r.Type) + " (0-" + itoa(e.types[ti].Limit-1) + ")")
		}
		srv := e.first[ti] + int32(r.ID)
		ev = append(ev, fevent{t: r.Start, srv: srv, dur: r.End - r.Start},
			fevent{t: r.End + 1, recover: true, srv: srv, dur: r.End - r.Start})
	}
	slices.SortStableFunc(ev, func(a, b fevent) int { return cmp.Compare(a.t, b.t) })
	if e.cfg.FailureFile == "" {
		e.fevents = ev
		return nil
	}
	// The phantom failure goes after every real time-0 event (Appendix C.1).
	k := 0
	for k < len(ev) && ev[k].t <= 0 {
		k++
	}
	ev = append(ev, fevent{})
	copy(ev[k+1:], ev[k:])
	ev[k] = fevent{t: 0, srv: 0, dur: 0}
	e.fevents = ev
	return nil
}

// simulated reports whether failures are simulated (GETS carries six more fields).
func (e *Engine) simulated() bool { return e.failures }

// stderr prints one of ds-server's stderr lines (§7.7).
func (e *Engine) stderr(line string) {
	if e.opt.Stderr != nil {
		io.WriteString(e.opt.Stderr, line+"\n")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// ---- REDY (§3.2) ----

// Event is a REDY outcome (§3.2), formatted only when needed: AppendEvent
// gives its text, ProtoEvent its typed value.
type Event struct {
	kind EventKind
	job  int32 // EventJob, EventJCPL
	t    int   // offer time, end time or event time
	srv  int32 // EventJCPL, EventRESF, EventRESR
	resp bool  // EventJob: JOBP
}

// AppendEvent writes the event's message as ds-server sends it.
func (e *Engine) AppendEvent(b []byte, ev Event) []byte {
	switch ev.kind {
	case EventJob:
		j := &e.jobs[ev.job]
		if ev.resp {
			b = append(b, "JOBP "...)
		} else {
			b = append(b, "JOBN "...)
		}
		b = appendInts(b, j.ID, ev.t, j.Cores, j.Memory, j.Disk, j.EstRunTime)
	case EventJCPL:
		b = append(b, "JCPL "...)
		b = appendInts(b, ev.t, e.jobs[ev.job].ID)
		b = append(b, ' ')
		b = e.appendRef(b, ev.srv)
	case EventRESF, EventRESR:
		if ev.kind == EventRESF {
			b = append(b, "RESF "...)
		} else {
			b = append(b, "RESR "...)
		}
		b = e.appendRef(b, ev.srv)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(ev.t), 10)
	case EventCHKQ:
		b = append(b, "CHKQ"...)
	case EventNONE:
		b = append(b, "NONE"...)
	}
	return b
}

func (e *Engine) appendRef(b []byte, srv int32) []byte {
	s := e.machines[srv]
	b = append(b, e.types[s.typ].Name...)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(s.id), 10)
}

// appendJobOn writes "job ID on type id", the start of the event lines
// about a job on a server (§7.2).
func (e *Engine) appendJobOn(b []byte, job, srv int32) []byte {
	b = append(b, "job "...)
	b = strconv.AppendInt(b, int64(e.jobs[job].ID), 10)
	b = append(b, " on "...)
	return e.appendRef(b, srv)
}

// flushLog prints the buffered advance lines sorted by time, stable.
func (e *Engine) flushLog() {
	l := e.log
	if len(l.pend) == 0 {
		return
	}
	p := l.pend
	byTime := func(a, b pendingLine) int { return cmp.Compare(a.t, b.t) }
	if !slices.IsSortedFunc(p, byTime) {
		slices.SortStableFunc(p, byTime)
	}
	for _, x := range p {
		if !l.event(x.t) {
			continue
		}
		l.buf = e.appendJobOn(l.buf, x.job, x.srv)
		switch x.kind {
		case lineRunning:
			l.buf = append(l.buf, " RUNNING\n"...)
		case lineCompleted:
			l.buf = append(l.buf, " COMPLETED\n"...)
		default:
			l.buf = append(l.buf, " MEMORY FAILED\n"...)
		}
	}
	l.pend = l.pend[:0]
}

func appendInts(b []byte, v ...int) []byte {
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return b
}

// Kind is the kind of the event.
func (ev Event) Kind() EventKind { return ev.kind }

// Time is the event's time: the offer time of a job (JOBN/JOBP), the end
// time of JCPL, the time of RESF/RESR.
func (ev Event) Time() int { return ev.t }

// Resubmitted is true for JOBP.
func (ev Event) Resubmitted() bool { return ev.resp }

// JobOf is the job of a JOBN, JOBP or JCPL event.
func (e *Engine) JobOf(ev Event) *model.Job { return &e.jobs[ev.job] }

// ServerOf is the server of a JCPL, RESF or RESR event.
func (e *Engine) ServerOf(ev Event) Ref { return e.ref(ev.srv) }

func (e *Engine) ref(srv int32) Ref {
	s := e.machines[srv]
	return Ref{Type: e.types[s.typ].Name, ID: s.id}
}

// redy is ds-server's reply to REDY (§3.2). For a JCPL the caller must run
// finishJCPL (§3.3 step 4, §3.6) after building the reply text and before
// logging it.
func (e *Engine) redy() Event {
	for {
		ev := e.redyOnce()
		if e.opt.NoFailureMsgs && (ev.kind == EventRESF || ev.kind == EventRESR) {
			// -o: the event happened but is not sent; REDY is processed again (§3.6).
			continue
		}
		if ev.kind == eventSilent {
			// A memory failure sends nothing; the next event is chosen
			// again (estimation.md Part E item 5).
			continue
		}
		return ev
	}
}

func (e *Engine) redyOnce() Event {
	e.pruneBatch()
	F := e.batchT
	if len(e.batch) == 0 {
		F = e.minEnd()
	}
	N, none := 0, false
	switch {
	case len(e.sq) > 0:
		N = e.sq[0].t
	case e.next < len(e.jobs):
		N = e.jobs[e.next].Submit
	default:
		none = true
	}
	if none {
		N = inf
		if len(e.gq) > 0 {
			if !e.chkQ && e.prevQLen == 0 {
				e.chkQ = true
			} else if e.chkQ && e.prevQLen == len(e.gq) {
				e.chkQ = false
			}
		} else {
			e.chkQ = false
		}
	}
	E := inf
	if e.fnext < len(e.fevents) {
		E = e.fevents[e.fnext].t
	}
	noMore := F == inf && N == inf
	if !e.chkQ && !noMore && F != inf && F <= E && F <= N {
		e.prevQLen = 0
		return e.completion(F)
	}
	if !e.chkQ && !noMore && E != inf && E < F && E <= N {
		e.batch = e.batch[:0]
		return e.failureEvent()
	}
	e.batch = e.batch[:0]
	return e.offer()
}

// pruneBatch drops batch entries that are no longer running with the batch
// time (a client may KILJ/MIGJ/TERM them between two JCPLs; Appendix D says
// any behaviour is acceptable there, this one never reports a job twice).
func (e *Engine) pruneBatch() {
	for len(e.batch) > 0 {
		b := e.batch[0]
		s := e.machines[b.srv]
		found := false
		for _, r := range s.running {
			if r.job == b.job && r.end == e.batchT {
				found = true
				break
			}
		}
		if !found {
			for _, w := range s.waiting {
				if w.job == b.job && w.end == e.batchT {
					found = true
					break
				}
			}
		}
		if found {
			return
		}
		e.batch = e.batch[1:]
	}
}

// completion is the JCPL path (§3.3 steps 1-3). Step 4 is finishJCPL.
func (e *Engine) completion(F int) Event {
	if len(e.batch) == 0 {
		e.batchT = F
		// Servers holding a job that ends at F, in server order.
		srvs := e.popUpTo(&e.endH, F, false, e.scratch[:0])
		slices.Sort(srvs)
		for _, si := range srvs {
			s := e.machines[si]
			for _, r := range s.running {
				if r.end == F {
					e.batch = append(e.batch, batchEnt{si, r.job})
				}
			}
			for _, w := range s.waiting {
				if w.start >= 0 && w.end == F {
					e.batch = append(e.batch, batchEnt{si, w.job})
				}
			}
		}
		e.clock = F
		// Boot completions, in server order (§3.3 step 1).
		boots := e.popUpTo(&e.bootH, F, true, srvs[len(srvs):])
		slices.Sort(boots)
		for _, si := range boots {
			e.bootDone(e.machines[si], F)
		}
		for _, si := range srvs {
			e.touch(e.machines[si])
		}
		for _, si := range boots {
			e.touch(e.machines[si])
		}
		e.scratch = srvs[:0]
	}
	b := e.batch[0]
	e.batch = e.batch[1:]
	s := e.machines[b.srv]
	for i, r := range s.running {
		if r.job == b.job {
			if r.memFail {
				e.memFailed(s, i)
				e.afterMemFailure(s)
				return Event{kind: eventSilent}
			}
			e.complete(s, i)
			break
		}
	}
	e.touch(s)
	return Event{kind: EventJCPL, job: b.job, t: e.batchT, srv: b.srv}
}

// finishJCPL is §3.3 step 4: start waiting jobs on the server of the JCPL
// just built, unless the next job of the batch is on the same server.
// Its RUNNING lines come before the SENT JCPL line.
func (e *Engine) finishJCPL(ev Event) {
	if len(e.batch) > 0 && e.batch[0].srv == ev.srv {
		e.flushLog()
		return
	}
	s := e.machines[ev.srv]
	e.startWaiting(s, e.clock)
	e.touch(s)
	e.flushLog()
}

// bootDone applies a boot completion at time t: known-start waiting jobs
// with start <= t run; the server becomes active (§3.3 step 1, §3.4 step 2).
func (e *Engine) bootDone(s *Machine, t int) {
	if s.state != booting || s.curStart > t {
		return
	}
	n := 0
	for n < len(s.waiting) && s.waiting[n].start >= 0 && s.waiting[n].start <= t {
		w := s.waiting[n]
		s.insertRunning(w)
		e.log.queue(w.start, lineRunning, w.job, s.idx)
		n++
	}
	s.waiting = s.waiting[:copy(s.waiting, s.waiting[n:])]
	s.state = active
}

// complete finishes running job i of s (§3.3 step 2).
func (e *Engine) complete(s *Machine, i int) {
	r := s.running[i]
	s.running = removeAt(s.running, i)
	s.release(&e.jobs[r.job], r.mem())
	s.leave(r.start, r.end, s.minRunStart())
	s.completed = append(s.completed, r)
	e.completed++
	if r.end > e.actualEnd {
		e.actualEnd = r.end
	}
	e.log.queue(r.end, lineCompleted, r.job, s.idx)
}

// startWaiting starts waiting jobs FIFO at time t, stopping at the first
// misfit: no backfilling (§3.5).
func (e *Engine) startWaiting(s *Machine, t int) {
	n := 0
	for n < len(s.waiting) {
		w := s.waiting[n]
		j := &e.jobs[w.job]
		if j.Cores > s.c || w.mem() > s.m || j.Disk > s.d {
			break
		}
		s.reserve(j, w.mem())
		w.start = t
		e.setEnd(s, &w)
		s.insertRunning(w)
		e.log.queue(t, lineRunning, w.job, s.idx)
		n++
	}
	if n > 0 {
		s.waiting = s.waiting[:copy(s.waiting, s.waiting[n:])]
	}
}

// advance is the full state advance to time T (§3.4). Only servers that
// have something due are visited, in server order; the lines are printed
// sorted by time at the end.
func (e *Engine) advance(T int) {
	srvs := e.popUpTo(&e.endH, T, false, e.scratch[:0])
	srvs = e.popUpTo(&e.bootH, T, true, srvs)
	srvs = append(srvs, e.idleCand...)
	e.idleCand = e.idleCand[:0]
	if len(srvs) > 1 {
		slices.Sort(srvs)
	}
	prev := int32(-1)
	for _, si := range srvs {
		if si == prev {
			continue
		}
		prev = si
		s := e.machines[si]
		s.maybeIdle = false
		e.advanceMachine(s, T)
		e.touch(s)
	}
	e.scratch = srvs[:0]
	e.flushLog()
}

func (e *Engine) advanceMachine(s *Machine, T int) {
	for {
		for len(s.running) > 0 && s.running[0].end <= T {
			end := s.running[0].end
			if s.running[0].memFail {
				e.memFailed(s, 0)
			} else {
				e.complete(s, 0)
			}
			e.startWaiting(s, end)
		}
		if s.state == booting && s.curStart <= T {
			e.bootDone(s, T)
			continue
		}
		break
	}
	if s.state == active && len(s.running) == 0 {
		s.state = idle
	}
}

// offer is §3.2 step 8.
func (e *Engine) offer() Event {
	var q qent
	switch {
	case len(e.sq) > 0:
		q = e.sq[0]
	case e.next < len(e.jobs):
		q = qent{t: e.jobs[e.next].Submit, job: int32(e.next)}
		e.sq = append(e.sq, q)
		e.next++
	default:
		if e.completed == len(e.jobs) {
			return Event{kind: EventNONE}
		}
		e.prevQLen = len(e.gq)
		return Event{kind: EventCHKQ}
	}
	e.clock = q.t
	j := &e.jobs[q.job]
	e.lastSent = q.job
	e.advance(e.clock)
	if e.log.event(e.clock) {
		b := append(e.log.buf, "job "...)
		b = strconv.AppendInt(b, int64(j.ID), 10)
		b = append(b, " -- CPU: "...)
		b = strconv.AppendInt(b, int64(j.Cores), 10)
		b = append(b, ", Mem: "...)
		b = strconv.AppendInt(b, int64(j.Memory), 10)
		b = append(b, ", Disk: "...)
		b = strconv.AppendInt(b, int64(j.Disk), 10)
		b = append(b, ", Est Runtime: "...)
		b = strconv.AppendInt(b, int64(j.EstRunTime), 10)
		e.log.buf = append(b, " SUBMITTED\n"...)
	}
	return Event{kind: EventJob, job: q.job, t: q.t, resp: q.t != j.Submit || q.memFail}
}

// failureEvent applies the next failure or recovery event (Appendix C.3).
func (e *Engine) failureEvent() Event {
	f := e.fevents[e.fnext]
	e.fnext++
	e.clock = f.t
	e.advance(f.t)
	s := e.machines[f.srv]
	if f.recover {
		e.recoverMachine(s, f)
		e.touch(s)
		return Event{kind: EventRESR, t: f.t, srv: f.srv}
	}
	e.failMachine(s, f)
	e.touch(s)
	return Event{kind: EventRESF, t: f.t, srv: f.srv}
}

func (e *Engine) failMachine(s *Machine, f fevent) {
	t := f.t
	if s.state == idle || s.state == active {
		s.billed += t - s.curStart
	}
	e.evict(s, t, "failed", &s.failed)
	s.powerOff(t)
	s.state = unavailable
	s.curStart = -1
	s.c, s.m, s.d = 0, 0, 0
	s.nFail++
	s.failDur = append(s.failDur, f.dur)
	s.mttf = (t - s.totalFail) / s.nFail
	sum := 0
	for _, d := range s.failDur {
		sum += abs(d - s.mttf)
	}
	s.madf = sum / s.nFail
}

func (e *Engine) recoverMachine(s *Machine, f fevent) {
	t := f.t
	// Jobs of a server that recovers without having failed (overlapping
	// trace records) cannot survive the reset; they are treated as failed.
	e.evict(s, t, "failed", &s.failed)
	if p := s.powerOff(t); p != nil { // a powered server is reset, unbilled (Report.Unbilled)
		p.reset = true
	}
	tp := e.types[s.typ]
	s.state = inactive
	s.curStart = -1
	s.c, s.m, s.d = tp.Cores, tp.Memory, tp.Disk
	s.totalFail += f.dur
	if s.nFail > 0 {
		s.mttr = int(float32(s.totalFail) / float32(s.nFail))
	}
	s.lastStart = t
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// jobGone logs a failed/killed job, queues it at the end of GQ and does the
// usage accounting (§5.12, C.3). r.end is already the leaving time.
// evict ends every job of s at time t: the running ones (end-time order),
// then the waiting ones (FIFO), each as jobGone with word ("killed" for
// TERM, "failed" for a failure; §5.13, C.3) and appended to hist. It
// returns how many there were.
func (e *Engine) evict(s *Machine, t int, word string, hist *[]slot) int {
	n := len(s.running) + len(s.waiting)
	if n == 0 {
		return 0
	}
	runMin := s.minRunStart()
	for _, lst := range [2][]slot{s.running, s.waiting} {
		for _, r := range lst {
			r.end = t
			e.jobGone(s, r, word, runMin)
			*hist = append(*hist, r)
		}
	}
	s.running, s.waiting = s.running[:0], s.waiting[:0]
	return n
}

func (e *Engine) jobGone(s *Machine, r slot, word string, runMin int) {
	if e.log.event(e.clock) {
		b := e.appendJobOn(e.log.buf, r.job, s.idx)
		b = append(b, ' ')
		b = append(b, word...)
		e.log.buf = append(b, '\n')
	}
	e.log.emptyLine()
	e.gq = append(e.gq, qent{t: e.clock, job: r.job})
	s.leave(r.start, r.end, runMin)
}
