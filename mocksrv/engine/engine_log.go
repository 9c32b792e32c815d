package engine

import (
	"io"
	"strconv"
	"strings"
)

// Level is a -v verbosity level (ds-server.md §7.4).
// The zero value is no -v at all.
type Level struct {
	Word       string // as given ("" when -v was absent)
	Recognised bool   // all, brief, jobs or stats (by prefix)
	Stats      bool   // stats: no event lines (SUBMITTED, SCHEDULED, RUNNING, …)
	Proto      int    // protocol lines: ProtoNone, ProtoBrief or ProtoAll
	Detail     bool   // a final '+': per-server detail in the report (§6.5)
}

// Events reports whether event lines are printed (every level but stats).
func (l Level) Events() bool { return !l.Stats }

// Protocol-line levels.
const (
	ProtoNone  = 0
	ProtoBrief = 1
	ProtoAll   = 2
)

// ParseLevel reads a -v word. ds-server matches the word by prefix ("allx"
// is all, "bri" is unrecognised) and a final '+' on a recognised word adds
// the per-server detail; an unrecognised word behaves exactly like no -v
// (§7.4).
func ParseLevel(word string) Level {
	l := Level{Word: word}
	switch {
	case strings.HasPrefix(word, "all"):
		l.Recognised, l.Proto = true, ProtoAll
	case strings.HasPrefix(word, "brief"):
		l.Recognised, l.Proto = true, ProtoBrief
	case strings.HasPrefix(word, "jobs"):
		l.Recognised = true
	case strings.HasPrefix(word, "stats"):
		l.Recognised, l.Stats = true, true
	}
	l.Detail = l.Recognised && strings.HasSuffix(word, "+")
	return l
}

// Levels used by tests and the in-process API.
var (
	LevelNone  = ParseLevel("")
	LevelBrief = ParseLevel("brief")
	LevelAll   = ParseLevel("all")
	LevelStats = ParseLevel("stats")
)

// lineKind is the kind of a buffered event line.
type lineKind uint8

const (
	lineRunning lineKind = iota
	lineCompleted
	lineMemFailed // memory extension: a job failed for lack of memory
)

// pendingLine is an event line produced by a state advance; such lines are
// printed sorted by time (stable) at the end of the operation (§3.4, §7.2).
type pendingLine struct {
	t    int
	kind lineKind
	job  int32
	srv  int32
}

// logger writes ds-server's stdout log. It keeps the timestamp-prefix state
// (§7.2) even when nothing is written, because GETS padding depends on it
// (§5.3). With out == nil only that state is kept and no text is formatted.
type logger struct {
	out   io.Writer
	lvl   Level
	buf   []byte
	hasT  bool
	lastT int
	plen  int // length of "t <lastT>: "
	pend  []pendingLine
	err   error // first write error
}

func newLogger(out io.Writer, lvl Level) *logger {
	return &logger{out: out, lvl: lvl}
}

// pad is the number of spaces before SENT/RCVD lines and continuation text.
func (l *logger) pad() int { return l.plen }

// writing reports whether text is produced at all.
func (l *logger) writing() bool { return l.out != nil }

// header prints a line that is never prefixed (header, welcome, report).
func (l *logger) header(s string) {
	if l.out == nil {
		return
	}
	l.buf = append(l.buf, s...)
	l.buf = append(l.buf, '\n')
}

// stamp writes the timestamp prefix for an event at time t, or the spaces
// that stand for it (§7.2), and updates the remembered prefix.
func (l *logger) stamp(t int) {
	if !l.hasT || t != l.lastT {
		l.hasT, l.lastT = true, t
		l.plen = 4 + digits(t)
		if l.out != nil {
			l.buf = append(l.buf, "t "...)
			l.buf = strconv.AppendInt(l.buf, int64(t), 10)
			l.buf = append(l.buf, ": "...)
		}
		return
	}
	if l.out != nil {
		l.spaces(l.plen)
	}
}

func (l *logger) spaces(n int) {
	for ; n > 0; n-- {
		l.buf = append(l.buf, ' ')
	}
}

func digits(t int) int {
	n := 1
	if t < 0 {
		n++
		t = -t
	}
	for t >= 10 {
		t /= 10
		n++
	}
	return n
}

// event starts an event line at time t and reports whether the caller is to
// append the message and its '\n' (false when event lines are off or
// nothing is written).
func (l *logger) event(t int) bool {
	if !l.lvl.Events() {
		return false
	}
	l.stamp(t)
	return l.out != nil
}

// emptyLine prints the empty line that follows failed/killed lines (§7.2).
func (l *logger) emptyLine() {
	if l.lvl.Events() && l.out != nil {
		l.buf = append(l.buf, '\n')
	}
}

// queue buffers an advance line.
func (l *logger) queue(t int, k lineKind, job, srv int32) {
	if l.lvl.Events() {
		l.pend = append(l.pend, pendingLine{t, k, job, srv})
	}
}

// proto prints a SENT or RCVD line when the level shows it (§7.3).
func (l *logger) proto(sent bool, msg string) { logProto(l, sent, msg) }

// protoBytes is proto for a message built in a buffer (no string made).
func (l *logger) protoBytes(sent bool, msg []byte) { logProto(l, sent, msg) }

func logProto[S string | []byte](l *logger, sent bool, msg S) {
	if l.out == nil || l.lvl.Proto == ProtoNone {
		return
	}
	if l.lvl.Proto == ProtoBrief && !briefShows(sent, msg) {
		return
	}
	l.spaces(l.plen)
	if sent {
		l.buf = append(l.buf, "SENT "...)
	} else {
		l.buf = append(l.buf, "RCVD "...)
	}
	l.buf = append(l.buf, msg...)
	l.buf = append(l.buf, '\n')
}

// protoOn reports whether any protocol line is printed; callers use it to
// avoid building message text nobody reads.
func (l *logger) protoOn() bool { return l.out != nil && l.lvl.Proto != ProtoNone }

// briefShows is the -v brief filter (§7.3).
func briefShows[S string | []byte](sent bool, msg S) bool {
	is := func(w string) bool { return string(msg) == w }
	has := func(p string) bool { return len(msg) >= len(p) && string(msg[:len(p)]) == p }
	if sent {
		return has("JOB") || is("OK") || is("NONE") || has("JCPL") || has("RESF") || has("RESR") || is("QUIT")
	}
	return is("HELO") || has("AUTH") || is("REDY") || has("SCHD") || has("MIGJ") || is("QUIT")
}

// sync writes the buffered text to out.
func (l *logger) sync() {
	if l.out == nil || len(l.buf) == 0 {
		l.buf = l.buf[:0]
		return
	}
	if _, err := l.out.Write(l.buf); err != nil && l.err == nil {
		l.err = err
	}
	l.buf = l.buf[:0]
}

// maybeSync writes when the buffer has grown large.
func (l *logger) maybeSync() {
	if len(l.buf) >= 64<<10 {
		l.sync()
	}
}

// The fronts log the messages of the dialogue (§7.3) through these; the
// engine logs the events (§7.2).

// LogRcvd logs a message received from the client.
func (e *Engine) LogRcvd(msg string) { e.log.proto(false, msg) }

// LogSent logs a message sent to the client.
func (e *Engine) LogSent(msg string) { e.log.proto(true, msg) }

// LogSentBytes is LogSent for a message built in a buffer.
func (e *Engine) LogSentBytes(msg []byte) { e.log.protoBytes(true, msg) }

// ProtoOn reports whether any protocol line is logged; fronts use it to
// avoid building message text nobody reads.
func (e *Engine) ProtoOn() bool { return e.log.protoOn() }

// Flush writes the buffered log text to Options.Log. The log is buffered
// (as ds-server's stdout is when redirected) and written in large pieces.
func (e *Engine) Flush() { e.log.sync() }

// MaybeFlush writes the buffered log text when it has grown large.
func (e *Engine) MaybeFlush() { e.log.maybeSync() }

// LogPending reports whether log text is buffered, not yet written.
func (e *Engine) LogPending() bool { return len(e.log.buf) > 0 }

// Stderr prints one of ds-server's stderr lines (§7.7) to Options.Stderr.
func (e *Engine) Stderr(line string) { e.stderr(line) }
