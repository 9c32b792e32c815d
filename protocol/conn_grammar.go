package protocol

import (
	"bytes"
	"strconv"
)

// This file is the reply grammar the framing reader uses to decide, in plain
// mode, whether the bytes received so far are a whole message (see conn.go
// for the design). Each check looks at the bytes of one message and returns
// a verdict; it never parses values (that is the job of ParseEvent,
// ParseServer, … once the message is complete).

// verdict is what the grammar says about the bytes received so far.
type verdict int

const (
	// incomplete: a proper prefix of some valid message; read more.
	incomplete verdict = iota
	// complete: a whole message that no further byte could extend (it ends
	// in a fixed word such as OK, CHKQ, ".", "killed").
	complete
	// open: a whole message whose last token could still continue (a number
	// or free text): "JOBN 0 37 3 700 3800 653" is valid, but so would be
	// "…6530" if one more byte arrived.
	open
	// invalid: no continuation can make it valid.
	invalid
)

// tok is the class of one token of a single-line message.
type tok struct {
	word string // a fixed word, or "" for the classes below
	kind byte   // 'w' fixed word, 'i' integer, 'n' any name, 's' server state name, 'r' hourly rate
}

func word(w string) tok { return tok{word: w, kind: 'w'} }

var (
	tInt   = tok{kind: 'i'}
	tName  = tok{kind: 'n'}
	tState = tok{kind: 's'}
	tRate  = tok{kind: 'r'}
)

// The single-line messages of ds-server.md §0.1, as token sequences.
var (
	gOK      = []tok{word("OK")}
	gDot     = []tok{word(".")}
	gQuit    = []tok{word("QUIT")}
	gCHKQ    = []tok{word("CHKQ")}
	gNONE    = []tok{word("NONE")}
	gJOBN    = []tok{word("JOBN"), tInt, tInt, tInt, tInt, tInt, tInt}
	gJOBP    = []tok{word("JOBP"), tInt, tInt, tInt, tInt, tInt, tInt}
	gJCPL    = []tok{word("JCPL"), tInt, tInt, tName, tInt}
	gRESF    = []tok{word("RESF"), tName, tInt, tInt}
	gRESR    = []tok{word("RESR"), tName, tInt, tInt}
	gData    = []tok{word("DATA"), tInt, tInt}
	gNumber  = []tok{tInt}
	gKilled  = []tok{tInt, word("jobs"), word("killed")}
	gNoQueue = []tok{word("No"), word("such"), word("queue"), word("ID"), tName, word("exists!")}
	gQueued  = []tok{tInt, tInt, tInt, tInt, tInt, tInt, tInt, tInt} // LSTQ record (§5.7)

	// Records of DATA batches (§0.3): GETS with 9 fields, or 15 when
	// failures are simulated; ds-server 2026 puts the hourly rate third
	// (10 or 16 fields); LSTJ and LSTQ with 8 integers.
	gGets9  = []tok{tName, tInt, tState, tInt, tInt, tInt, tInt, tInt, tInt}
	gGets15 = append(append([]tok(nil), gGets9...), tInt, tInt, tInt, tInt, tInt, tInt)
	gGets10 = []tok{tName, tInt, tRate, tState, tInt, tInt, tInt, tInt, tInt, tInt}
	gGets16 = append(append([]tok(nil), gGets10...), tInt, tInt, tInt, tInt, tInt, tInt)
	gJobRec = gQueued
)

// isSpace is the white space ds-server's records may contain (padding).
func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// checkLine checks b (no newline allowed) against one token sequence.
func checkLine(b []byte, g []tok) verdict {
	if len(b) == 0 {
		return incomplete
	}
	if bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0 {
		return invalid
	}
	n := 0 // tokens seen
	i := 0
	for i < len(b) {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i == len(b) {
			break
		}
		j := i
		for j < len(b) && !isSpace(b[j]) {
			j++
		}
		if n >= len(g) {
			return invalid
		}
		whole := j < len(b) // followed by a space: the token is finished
		if !tokOK(b[i:j], g[n], whole) {
			return invalid
		}
		n++
		i = j
	}
	switch {
	case n < len(g):
		return incomplete
	case isSpace(b[len(b)-1]):
		return invalid // trailing space after the last token: ds-server never sends it
	}
	last := g[len(g)-1]
	if last.kind == 'i' && lastToken(b) == "-" {
		return incomplete
	}
	if last.kind == 'w' {
		// tokOK accepted a prefix of the word; whole only if equal.
		if lastToken(b) == last.word {
			return complete
		}
		return incomplete
	}
	return open
}

// tokOK reports whether t can be token class c (exactly when whole, as a
// prefix otherwise).
func tokOK(t []byte, c tok, whole bool) bool {
	switch c.kind {
	case 'w':
		if whole {
			return string(t) == c.word
		}
		return len(t) <= len(c.word) && string(t) == c.word[:len(t)]
	case 'i':
		d := t
		if d[0] == '-' {
			d = d[1:]
			if len(d) == 0 {
				return !whole
			}
		}
		for _, c := range d {
			if c < '0' || c > '9' {
				return false
			}
		}
		// Same range as the parsers (strconv.Atoi): a value they reject
		// must not pass as a whole message. Up to 18 digits cannot
		// overflow, so only longer ones need the check.
		if len(d) > 18 && (whole || len(d) > 19) {
			_, err := strconv.Atoi(string(t))
			return err == nil
		}
		return true
	case 'r':
		return rateOK(t, whole)
	case 's':
		for _, n := range stateNames {
			if whole && string(t) == n || !whole && len(t) <= len(n) && string(t) == n[:len(t)] {
				return true
			}
		}
		return false
	}
	return true
}

// rateOK reports whether t is a rate as FormatRate writes one (whole), or
// could begin one.
func rateOK(t []byte, whole bool) bool {
	if whole {
		_, ok := parseRate(string(t))
		return ok
	}
	if len(t) > 0 && t[0] == '-' {
		t = t[1:]
	}
	for _, w := range [...]string{"nan", "inf"} {
		if len(t) > 0 && len(t) <= len(w) && string(t) == w[:len(t)] {
			return true
		}
	}
	point := bytes.IndexByte(t, '.')
	for i, c := range t {
		if i != point && (c < '0' || c > '9') {
			return false
		}
	}
	return point != 0 && (point < 0 || len(t)-point <= 3)
}

func lastToken(b []byte) string {
	i := len(b)
	for i > 0 && !isSpace(b[i-1]) {
		i--
	}
	return string(b[i:])
}

// checkAny returns the best verdict of b against several alternatives: a
// message is complete/open if one alternative says so, incomplete if it is a
// prefix of one, invalid only if every alternative rejects it.
func checkAny(b []byte, gs ...[]tok) verdict {
	best := invalid
	for _, g := range gs {
		switch v := checkLine(b, g); v {
		case complete, open:
			return v
		case incomplete:
			best = incomplete
		}
	}
	return best
}

// checkErr is the grammar of an ERR reply: exactly "ERR", or "ERR:" and
// free text (ds-server.md §0.1). Free text can always continue, so it is
// open. PSHJ's "Error: simulation can't continue …" (§5.14) is accepted as
// well, with its trailing newline.
func checkErr(b []byte) verdict {
	for _, w := range [...]string{"ERR", "Error: "} {
		if len(b) < len(w) {
			if string(b) == w[:len(b)] {
				return incomplete
			}
			continue
		}
		if string(b[:len(w)]) != w {
			continue
		}
		if w == "ERR" && len(b) > 3 && b[3] != ':' {
			return invalid
		}
		return open
	}
	return invalid
}

// orErr combines a reply grammar with the ERR grammar: every command may be
// refused.
func orErr(b []byte, v verdict) verdict {
	if v == complete || v == open {
		return v
	}
	switch e := checkErr(b); e {
	case open, complete:
		return e
	case incomplete:
		return incomplete
	}
	return v
}

// checkQueueEntry is the reply to LSTQ GQ i / $ (§5.7): one record followed
// by "\n" inside the message, or "No such queue ID (i) exists!".
func checkQueueEntry(b []byte) verdict {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		if i != len(b)-1 {
			return invalid
		}
		switch checkLine(b[:i], gQueued) {
		case open, complete:
			return complete
		}
		return invalid
	}
	switch v := checkLine(b, gQueued); v {
	case open, incomplete:
		return incomplete // the record is complete only with its "\n"
	}
	return checkLine(b, gNoQueue)
}
