// Package transcript reads ds-server's stdout log at -v all (ds-server.md
// §7) back into the ordered list of protocol messages, byte for byte as they
// travelled: a golden source for replaying a client against a recorded run
// (protocol tests) and for comparing the simulator's replies (mocksrv tests).
//
// A log line is one of:
//   - "# …": header, welcome and report lines (§7.1, §6.4): not messages;
//   - "t N: …" or padding + "job …": event lines (§7.2): not messages;
//   - an empty line after a "failed"/"killed" event line (§7.2);
//   - padding + "SENT <msg>" / "RCVD <msg>": a protocol message (§7.3).
//
// A message may span several lines. A DATA batch (GETS, LSTJ, LSTQ GQ *) is
// one message of n records joined by "\n" (§5.2): its continuation lines are
// taken verbatim, so the padding of GETS records after the first (§5.3) is
// part of the bytes, and LSTJ/LSTQ continuation lines are unindented. The
// number of continuation lines is known from the preceding "DATA n len".
// A SENT message that itself ends in "\n" (the LSTQ GQ i record, §5.7, and
// the newline accumulation of re-sent messages in -n mode, §1.4) shows as
// empty lines right after it; each one adds a "\n" to the message.
package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Dir is a message's direction, named as ds-server's log names it.
type Dir int

const (
	// Sent is a message from the server to the client ("SENT").
	Sent Dir = iota
	// Rcvd is a message from the client to the server ("RCVD").
	Rcvd
)

func (d Dir) String() string {
	if d == Rcvd {
		return "RCVD"
	}
	return "SENT"
}

// Message is one protocol message.
type Message struct {
	Dir  Dir
	Text string // the exact bytes, without the -n terminator
	Line int    // 1-based log line where it starts
	// Pad is the number of spaces before SENT/RCVD on its log line: the
	// length of the timestamp prefix in force (§7.3).
	Pad int
}

// Lines splits a message at "\n" (the records of a DATA batch).
func (m Message) Lines() []string { return strings.Split(m.Text, "\n") }

func (m Message) String() string { return m.Dir.String() + " " + m.Text }

// Transcript is a parsed log.
type Transcript struct {
	// Header holds the "#" lines before the first message (version,
	// command line, port: §7.1). Comparisons with a re-run start after
	// them. "#" lines between messages (the welcome) are not kept.
	Header   []string
	Messages []Message
	// Report holds the trailing "#" lines after the last message: the
	// end-of-run report (§6.4), and the per-server detail with LEVEL+.
	Report []string
	// Lines is the number of lines read.
	Lines int
}

// User returns the name the client sent with AUTH (everything after
// "AUTH ", ds-server.md §1.5), or "" when there was no AUTH.
func (t *Transcript) User() string {
	for _, m := range t.Messages {
		if user, ok := m.authUser(); ok && m.Dir == Rcvd {
			return user
		}
	}
	return ""
}

// authUser is the user name of an AUTH message (everything after "AUTH ").
func (m Message) authUser() (string, bool) {
	if !strings.HasPrefix(m.Text, "AUTH") {
		return "", false
	}
	return strings.TrimPrefix(m.Text[4:], " "), true
}

// Filter returns the messages of one direction, in order.
func (t *Transcript) Filter(d Dir) []Message {
	var out []Message
	for _, m := range t.Messages {
		if m.Dir == d {
			out = append(out, m)
		}
	}
	return out
}

// ParseBytes parses a whole log held in memory.
func ParseBytes(data []byte) (*Transcript, error) { return Parse(bytes.NewReader(data)) }

// Parse reads a -v all log. Errors name the line.
func Parse(r io.Reader) (*Transcript, error) {
	p := &parser{t: &Transcript{}, cur: -1}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		p.line++
		if err := p.feed(sc.Text()); err != nil {
			return nil, fmt.Errorf("transcript line %d: %w", p.line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("transcript line %d: %w", p.line+1, err)
	}
	if p.cont > 0 {
		return nil, fmt.Errorf("transcript line %d: log ends inside the DATA batch of line %d: %d more record line(s) expected",
			p.line, p.t.Messages[p.cur].Line, p.cont)
	}
	p.t.Lines = p.line
	if len(p.t.Messages) == 0 {
		p.t.Header = p.hash
	} else {
		p.t.Report = p.hash
	}
	return p.t, nil
}

type parser struct {
	t    *Transcript
	line int
	cur  int      // index of the message that may continue, -1 if none
	cont int      // continuation lines still owed to Messages[cur]
	data int      // records announced by the last SENT "DATA n len", not yet seen
	ends bool     // the previous line ended a SENT message (empty lines extend it)
	hash []string // "#" lines since the last message
}

func (p *parser) feed(line string) error {
	if p.cont > 0 {
		m := &p.t.Messages[p.cur]
		m.Text += "\n" + line
		p.cont--
		p.ends = p.cont == 0
		return nil
	}
	if line == "" {
		if p.ends {
			p.t.Messages[p.cur].Text += "\n"
		}
		return nil // else the empty line after a failed/killed event line
	}
	p.ends = false
	if strings.HasPrefix(line, "#") {
		p.hash = append(p.hash, line)
		return nil
	}
	if hasTimePrefix(line) {
		return nil
	}
	body := strings.TrimLeft(line, " ")
	pad := len(line) - len(body)
	if strings.HasPrefix(body, "job ") || strings.HasPrefix(body, "Total #failures:") {
		return nil
	}
	var dir Dir
	switch {
	case body == "SENT" || strings.HasPrefix(body, "SENT "):
		dir = Sent
	case body == "RCVD" || strings.HasPrefix(body, "RCVD "):
		dir = Rcvd
	default:
		return fmt.Errorf("not a protocol, event or comment line: %q", line)
	}
	text := ""
	if len(body) > 5 {
		text = body[5:]
	}
	if len(p.t.Messages) == 0 {
		p.t.Header = p.hash
	}
	p.hash = nil // "#" lines between messages (the welcome) are dropped
	p.t.Messages = append(p.t.Messages, Message{Dir: dir, Text: text, Line: p.line, Pad: pad})
	p.cur = len(p.t.Messages) - 1
	if dir == Rcvd {
		return nil
	}
	switch {
	case p.data > 0:
		// The records message of a DATA exchange (the client's OK came
		// in between): n records, the first on this line.
		p.cont = p.data - 1
		p.data = 0
	default:
		p.data = dataCount(text)
	}
	p.ends = p.cont == 0
	return nil
}

// hasTimePrefix reports whether line starts with "t <int>: " (§7.2).
func hasTimePrefix(line string) bool {
	if !strings.HasPrefix(line, "t ") {
		return false
	}
	i := 2
	if i < len(line) && line[i] == '-' {
		i++
	}
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	return j > i && strings.HasPrefix(line[j:], ": ")
}

// dataCount returns n for "DATA n len", 0 for anything else.
func dataCount(msg string) int {
	f := strings.Fields(msg)
	if len(f) != 3 || f[0] != "DATA" {
		return 0
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 0 {
		return 0
	}
	return n
}
