package protocol

// Framing: how the client finds message boundaries (ds-server.md §1.2–§1.4).
//
// Newline mode (-n) is simple: every message ends with "\n" both ways, so a
// message is a line (a DATA batch is n lines).
//
// Plain mode (ds-server's default) has no framing at all: the server sends
// each message with a single send() and no terminator, and the dialogue is
// strictly alternating (§1.1: the server never sends two messages without
// reading in between). TCP may still split a message over several reads, so
// the reader never assumes "one read = one message". Instead the client
// always knows which reply it is waiting for, and the reply grammar tells it
// when the bytes received so far form a whole message:
//
//   - it reads what is available and checks the bytes against the grammar of
//     the expected reply (conn_grammar.go): OK; ERR…; an event (JOBN/JOBP and
//     6 integers, JCPL and 4 fields, RESF/RESR and 3, CHKQ, NONE); DATA n len;
//     "."; a number; "<n> jobs killed"; an LSTQ entry; QUIT;
//   - a DATA batch is read as ONE message of exactly n records joined by "\n"
//     (§5.2): a record is complete when the next record's "\n" arrives, the
//     batch when the n-th record has all its fields (9 or 15 for GETS, known
//     from the header's record length 124/166; 10 or 16 for ds-server
//     2026, 135/177; 8 for LSTJ/LSTQ). Records
//     after the first carry leading spaces (§5.3), which the grammar skips;
//   - bytes that cannot start any valid reply are reported at once, quoting
//     them; a valid prefix waits for more bytes, under a deadline.
//
// The one ambiguity is a message whose last token could still grow ("JOBN
// … 653" could become "… 6530"; ERR text is free). A message that arrived in
// a single read is taken as it is: ds-server writes each message with one
// send(), and a message shorter than a TCP segment is delivered whole, so
// the first read that ends on a grammatically complete message has all of
// it. Only a message that already arrived in pieces (a large DATA batch, or a
// fragmenting network), and every ERR reply, get a short coalescing wait
// (ConnOptions.Coalesce) for more bytes before they are accepted. Waiting
// on every message instead would cost the wait once per message (tens of
// thousands per run) to guard against a split that a single send() below
// the segment size does not suffer. If a split were ever misjudged, the
// stray bytes would be glued to the front of the next reply, which then
// fails the grammar: the run stops with an error, it never goes on with a
// wrong value.
//
// Every read has a deadline (ConnOptions.ReadTimeout, for the whole reply),
// so a server that stops answering yields an error, never a hang.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"
)

// Framing is the message framing of a connection.
type Framing int

const (
	// Plain is ds-server's default: no terminator on any message.
	Plain Framing = iota
	// Newline is ds-server -n: every message ends with "\n", both ways.
	Newline
)

func (f Framing) String() string {
	if f == Newline {
		return "newline"
	}
	return "plain"
}

// Transport is what a Conn runs over; a net.Conn is one.
type Transport interface {
	io.Reader
	io.Writer
	SetReadDeadline(t time.Time) error
}

// Defaults of ConnOptions.
const (
	DefaultReadTimeout = 60 * time.Second
	DefaultCoalesce    = 5 * time.Millisecond
)

// ConnOptions configure a Conn. Zero values take the defaults.
type ConnOptions struct {
	Framing Framing
	// ReadTimeout bounds the wait for one whole reply (default 60s).
	ReadTimeout time.Duration
	// Coalesce is how long a reply that arrived in several pieces and looks
	// complete waits for more bytes (plain mode only; default 5ms).
	Coalesce time.Duration
}

// Sentinel causes of an *ExchangeError.
var (
	ErrClosed     = errors.New("the server closed the connection")
	ErrTimeout    = errors.New("the server stopped answering")
	ErrUnexpected = errors.New("unexpected server message")
)

// ExchangeError is a failure to read the reply to a command: the server
// closed the connection, did not answer in time, or sent something that is
// not the expected reply. It says which command, what was expected and what
// arrived.
type ExchangeError struct {
	Command string        // the command whose reply was awaited
	Want    string        // the expected reply, in words
	Got     []byte        // what arrived of the reply
	Err     error         // ErrClosed, ErrTimeout, ErrUnexpected or an I/O error
	Timeout time.Duration // the deadline, for ErrTimeout
}

func (e *ExchangeError) Error() string {
	switch {
	case errors.Is(e.Err, ErrUnexpected):
		return fmt.Sprintf("unexpected server message %s during %q (want %s)", quoteBytes(e.Got), e.Command, e.Want)
	case errors.Is(e.Err, ErrClosed):
		return fmt.Sprintf("the server closed the connection during %q (waiting for %s; got %s)", e.Command, e.Want, e.got())
	case errors.Is(e.Err, ErrTimeout):
		return fmt.Sprintf("the server stopped answering: no complete reply within %v during %q (waiting for %s; got %s)", e.Timeout, e.Command, e.Want, e.got())
	}
	return fmt.Sprintf("reading from the server during %q: %v (waiting for %s; got %s)", e.Command, e.Err, e.Want, e.got())
}

func (e *ExchangeError) Unwrap() error { return e.Err }

func (e *ExchangeError) got() string {
	if len(e.Got) == 0 {
		return "nothing"
	}
	return "only " + quoteBytes(e.Got)
}

// quoteBytes quotes a message for an error, shortened past 200 bytes.
func quoteBytes(b []byte) string {
	const max = 200
	if len(b) <= max {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:max])) + fmt.Sprintf("… (%d bytes)", len(b))
}

// Reply names the reply a command expects; every one may also be an ERR.
type Reply int

// The replies of ds-server.md §0.1.
const (
	ReplyOK         Reply = iota // OK
	ReplyEvent                   // JOBN, JOBP, JCPL, RESF, RESR, CHKQ or NONE
	ReplyData                    // DATA n len
	ReplyDot                     // "." closing a DATA exchange
	ReplyNumber                  // CNTJ, EJWT, LSTQ GQ #
	ReplyKilled                  // TERM: "<n> jobs killed"
	ReplyQueueEntry              // LSTQ GQ i / $: a record and "\n", or "No such queue ID (i) exists!"
	ReplyQuit                    // QUIT
)

var replyWant = [...]string{
	ReplyOK:         "OK",
	ReplyEvent:      "an event: JOBN, JOBP, JCPL, RESF, RESR, CHKQ or NONE",
	ReplyData:       `"DATA nRecs recLen"`,
	ReplyDot:        `"."`,
	ReplyNumber:     "a number",
	ReplyKilled:     `"<n> jobs killed"`,
	ReplyQueueEntry: "a queue record",
	ReplyQuit:       "QUIT",
}

func (r Reply) check(b []byte) verdict {
	var v verdict
	switch r {
	case ReplyOK:
		v = checkLine(b, gOK)
	case ReplyEvent:
		v = checkAny(b, gJOBN, gJOBP, gJCPL, gRESF, gRESR, gCHKQ, gNONE)
	case ReplyData:
		v = checkLine(b, gData)
	case ReplyDot:
		v = checkLine(b, gDot)
	case ReplyNumber:
		v = checkLine(b, gNumber)
	case ReplyKilled:
		v = checkLine(b, gKilled)
	case ReplyQueueEntry:
		v = checkQueueEntry(b)
	case ReplyQuit:
		v = checkLine(b, gQuit)
	default:
		return invalid
	}
	return orErr(b, v)
}

// RecordKind is the kind of records in a DATA batch.
type RecordKind int

// Record kinds (ds-server.md §0.3).
const (
	GetsRecords  RecordKind = iota // GETS: 9 fields, or 15 with failures (2026: 10, 16)
	JobRecords                     // LSTJ: 8 integers
	QueueRecords                   // LSTQ GQ *: 8 integers
)

// Record lengths announced in DATA headers (ds-server.md §5.2). ds-server
// 2026 announces 11 more for GETS, the width of the rate it adds.
const (
	RecLenGets             = 124
	RecLenGetsFailures     = 166
	RecLenGets2026         = 135
	RecLenGetsFailures2026 = 177
	RecLenJobs             = 59
	RecLenQueue            = 55
)

// grammar is the record grammar of a batch. A GETS header's record length
// names the shape of all its records (the year, and failures or not), so a
// batch that mixes shapes or contradicts its header is refused; an unknown
// length (no ds-server sends one) allows every shape, each record then
// telling its own by its field count (ParseServer).
func (k RecordKind) grammar(recLen int) [][]tok {
	switch k {
	case JobRecords, QueueRecords:
		return [][]tok{gJobRec}
	}
	switch recLen {
	case RecLenGets:
		return [][]tok{gGets9}
	case RecLenGetsFailures:
		return [][]tok{gGets15}
	case RecLenGets2026:
		return [][]tok{gGets10}
	case RecLenGetsFailures2026:
		return [][]tok{gGets16}
	}
	return [][]tok{gGets9, gGets15, gGets10, gGets16}
}

func (k RecordKind) String() string {
	return [...]string{"GETS", "LSTJ", "LSTQ"}[k]
}

// maxLine bounds a single-line message; garbage cannot grow memory forever.
const maxLine = 64 << 10

// MaxRecords bounds the record count of a DATA header: ds-server has at
// most 100 types × 1000 servers and 1,000,000 jobs (ds-server.md §2.3,
// §2.7). A larger count is a malformed header, not a reason to allocate.
const MaxRecords = 1_000_000

// preallocRecords caps what is reserved ahead of the records' arrival.
const preallocRecords = 1024

// Conn is one framed connection to ds-server: it sends commands and reads
// replies of the expected kind. It is not safe for concurrent use (the
// protocol is a strict alternation anyway).
type Conn struct {
	t     Transport
	opt   ConnOptions
	buf   []byte // received, not yet consumed
	cmd   string // the last command sent: named in errors
	reads int    // reads that contributed to the message being read
	// broken is set by a failed read or write: the position in the
	// dialogue is then unknown and nothing more is sent.
	broken error
	rerr   error  // an error that came with data, returned by the next fill
	wbuf   []byte // the message being sent, reused (no allocation per message)
}

// NewConn wraps a transport.
func NewConn(t Transport, opt ConnOptions) *Conn {
	if opt.ReadTimeout <= 0 {
		opt.ReadTimeout = DefaultReadTimeout
	}
	if opt.Coalesce <= 0 {
		opt.Coalesce = DefaultCoalesce
	}
	return &Conn{t: t, opt: opt}
}

// Framing returns the connection's framing mode.
func (c *Conn) Framing() Framing { return c.opt.Framing }

// Broken returns the error that made the connection unusable, or nil.
func (c *Conn) Broken() error { return c.broken }

// Send writes one command: as is in plain mode, with "\n" in newline mode.
func (c *Conn) Send(cmd string) error {
	c.cmd = cmd
	return c.send(cmd)
}

// SendAck sends the "OK" of a DATA exchange (ds-server.md §5.2). Errors
// keep naming the command that opened the exchange.
func (c *Conn) SendAck() error { return c.send("OK") }

func (c *Conn) send(cmd string) error {
	if c.broken != nil {
		return fmt.Errorf("not sending %q: the connection is unusable: %w", cmd, c.broken)
	}
	c.wbuf = append(c.wbuf[:0], cmd...)
	if c.opt.Framing == Newline {
		c.wbuf = append(c.wbuf, '\n')
	}
	if wd, ok := c.t.(interface{ SetWriteDeadline(time.Time) error }); ok {
		if err := wd.SetWriteDeadline(time.Now().Add(c.opt.ReadTimeout)); err != nil {
			return c.fail(fmt.Errorf("sending %q: %w", cmd, err))
		}
	}
	if _, err := c.t.Write(c.wbuf); err != nil {
		if isClosed(err) {
			err = fmt.Errorf("%w (sending %q): %v", ErrClosed, cmd, err)
		} else {
			err = fmt.Errorf("sending %q: %w", cmd, err)
		}
		return c.fail(err)
	}
	return nil
}

func (c *Conn) fail(err error) error {
	c.broken = err
	return err
}

// Read reads one reply of the expected kind and returns it without
// framing. An ERR reply is returned as a message, not as an error: turning
// it into a *ServerError is the caller's business.
func (c *Conn) Read(r Reply) (string, error) {
	if c.broken != nil {
		return "", fmt.Errorf("not reading the reply to %q: the connection is unusable: %w", c.cmd, c.broken)
	}
	deadline := time.Now().Add(c.opt.ReadTimeout)
	if c.opt.Framing == Newline {
		return c.readNewline(r, deadline)
	}
	return c.readPlain(r, deadline)
}

func (c *Conn) exchangeErr(want string, got []byte, err error) error {
	e := &ExchangeError{Command: c.cmd, Want: want, Got: append([]byte(nil), got...), Err: err, Timeout: c.opt.ReadTimeout}
	return c.fail(e)
}

func (c *Conn) readPlain(r Reply, deadline time.Time) (string, error) {
	c.reads = 0
	if len(c.buf) > 0 {
		c.reads = 1
	}
	for {
		switch r.check(c.buf) {
		case complete:
			return c.take(len(c.buf)), nil
		case open:
			// ERR text is free, so an ERR always gets the coalescing
			// wait (it is rare and ends or redirects the run anyway).
			if (c.reads <= 1 && checkErr(c.buf) == invalid) || !c.coalesce() {
				return c.take(len(c.buf)), nil
			}
			continue
		case invalid:
			return "", c.exchangeErr(replyWant[r], c.buf, ErrUnexpected)
		}
		if len(c.buf) > maxLine {
			return "", c.exchangeErr(replyWant[r], c.buf, ErrUnexpected)
		}
		if err := c.fill(deadline); err != nil {
			return "", c.exchangeErr(replyWant[r], c.buf, err)
		}
	}
}

func (c *Conn) readNewline(r Reply, deadline time.Time) (string, error) {
	line, err := c.readLine(deadline)
	if err != nil {
		return "", c.exchangeErr(replyWant[r], line, err)
	}
	if r == ReplyQueueEntry && checkLine(line, gQueued) == open {
		// LSTQ GQ i: the record carries its own "\n" inside the message,
		// so -n mode ends it with "\n\n" (ds-server.md §5.7).
		rest, err := c.readLine(deadline)
		if err != nil || len(rest) != 0 {
			if err == nil {
				err = ErrUnexpected
			}
			return "", c.exchangeErr("a queue record followed by an empty line", append(append(line, '\n'), rest...), err)
		}
		return string(line) + "\n", nil
	}
	switch r.check(line) {
	case complete, open:
		return string(line), nil
	}
	return "", c.exchangeErr(replyWant[r], line, ErrUnexpected)
}

// readLine returns the next line without its "\n" (newline mode). On error
// it returns what arrived of the line.
func (c *Conn) readLine(deadline time.Time) ([]byte, error) {
	scanned := 0
	for {
		if i := bytes.IndexByte(c.buf[scanned:], '\n'); i >= 0 {
			i += scanned
			line := append([]byte(nil), c.buf[:i]...)
			c.consume(i + 1)
			return line, nil
		}
		scanned = len(c.buf)
		if len(c.buf) > maxLine {
			return c.buf, ErrUnexpected
		}
		if err := c.fill(deadline); err != nil {
			return c.buf, err
		}
	}
}

// ReadRecords reads the records message of a DATA exchange: exactly n
// records (n > 0) of the given kind, in ONE message (ds-server.md §5.2).
// recLen is the header's record length; for GETS it tells 9-field records
// (124) from 15-field ones (166), and ds-server 2026's 10 and 16 (135,
// 177). The records are returned as sent, padding included.
func (c *Conn) ReadRecords(n int, kind RecordKind, recLen int) ([]string, error) {
	if c.broken != nil {
		return nil, fmt.Errorf("not reading the reply to %q: the connection is unusable: %w", c.cmd, c.broken)
	}
	if n <= 0 {
		return nil, nil
	}
	want := fmt.Sprintf("%d %s record(s)", n, kind)
	g := kind.grammar(recLen)
	deadline := time.Now().Add(c.opt.ReadTimeout)
	if c.opt.Framing == Newline {
		return c.readRecordsNewline(n, g, want, deadline)
	}
	return c.readRecordsPlain(n, g, want, deadline)
}

// readRecordsNewline reads n records of one line each. Like the plain-mode
// reader it notes where each record ends and takes the whole batch from
// the buffer once, at the end.
func (c *Conn) readRecordsNewline(n int, g [][]tok, want string, deadline time.Time) ([]string, error) {
	ends := make([]int, 0, min(n, preallocRecords)) // end offset of each record
	pos := 0                                        // start of the record being received
	for len(ends) < n {
		i := bytes.IndexByte(c.buf[pos:], '\n')
		if i < 0 {
			err := ErrUnexpected
			if len(c.buf)-pos <= maxLine {
				err = c.fill(deadline)
			}
			if err != nil {
				return nil, c.exchangeErr(want, c.buf, err) // the records so far and what came of the next
			}
			continue
		}
		line := c.buf[pos : pos+i]
		if checkAny(line, g...) != open {
			return nil, c.badRecord(want, len(ends)+1, line)
		}
		ends = append(ends, pos+i)
		pos += i + 1
	}
	return splitAt(c.take(pos), ends), nil
}

// splitAt cuts msg into the records ending at ends, each followed by one
// separator byte.
func splitAt(msg string, ends []int) []string {
	recs := make([]string, len(ends))
	start := 0
	for i, e := range ends {
		recs[i] = msg[start:e]
		start = e + 1
	}
	return recs
}

// badRecord reports record k of a batch that is not a record of the kind.
func (c *Conn) badRecord(want string, k int, rec []byte) error {
	return c.exchangeErr(fmt.Sprintf("%s; record %d is not one", want, k), rec, ErrUnexpected)
}

func (c *Conn) readRecordsPlain(n int, g [][]tok, want string, deadline time.Time) ([]string, error) {
	c.reads = 0
	if len(c.buf) > 0 {
		c.reads = 1
	}
	limit := maxLine + n*512
	ends := make([]int, 0, min(n, preallocRecords)) // end offset of each complete record
	pos := 0                                        // start of the record being received
	for {
		// Records followed by "\n" are complete: check each once.
		for len(ends) < n {
			i := bytes.IndexByte(c.buf[pos:], '\n')
			if i < 0 {
				break
			}
			line := c.buf[pos : pos+i]
			if checkAny(line, g...) != open {
				return nil, c.badRecord(want, len(ends)+1, line)
			}
			if len(ends) == n-1 {
				// A "\n" after the n-th record: more records than
				// announced (plain mode has no terminator).
				return nil, c.exchangeErr(want+" and nothing after the last", c.buf, ErrUnexpected)
			}
			ends = append(ends, pos+i)
			pos += i + 1
		}
		v := checkAny(c.buf[pos:], g...)
		if v == invalid {
			return nil, c.badRecord(want, len(ends)+1, c.buf[pos:])
		}
		if len(ends) == n-1 && v == open {
			if c.reads > 1 && c.coalesce() {
				continue
			}
			ends = append(ends, len(c.buf))
			break
		}
		if len(c.buf) > limit {
			return nil, c.exchangeErr(want, c.buf, ErrUnexpected)
		}
		if err := c.fill(deadline); err != nil {
			return nil, c.exchangeErr(want, c.buf, err)
		}
	}
	return splitAt(c.take(len(c.buf)), ends), nil
}

// coalesce waits briefly for more bytes of a message that looks complete
// but arrived in pieces. It reports whether any came.
func (c *Conn) coalesce() bool {
	before := len(c.buf)
	err := c.fill(time.Now().Add(c.opt.Coalesce))
	if err != nil && !errors.Is(err, ErrTimeout) {
		// Keep the error (e.g. the server closed after its last message)
		// for the next read; this message is complete.
		c.rerr = err
	}
	return len(c.buf) > before
}

// take consumes the first n buffered bytes and returns them as a string.
func (c *Conn) take(n int) string {
	s := string(c.buf[:n])
	c.consume(n)
	return s
}

func (c *Conn) consume(n int) {
	rest := copy(c.buf, c.buf[n:])
	c.buf = c.buf[:rest]
}

// fill does one read with the given deadline and appends what it got.
func (c *Conn) fill(deadline time.Time) error {
	if c.rerr != nil {
		err := c.rerr
		c.rerr = nil
		return err
	}
	if err := c.t.SetReadDeadline(deadline); err != nil {
		return err
	}
	if cap(c.buf)-len(c.buf) < 4096 {
		nb := make([]byte, len(c.buf), 2*cap(c.buf)+64<<10)
		copy(nb, c.buf)
		c.buf = nb
	}
	n, err := c.t.Read(c.buf[len(c.buf):cap(c.buf)])
	c.buf = c.buf[:len(c.buf)+n]
	if n > 0 {
		c.reads++
		if err != nil {
			c.rerr = classify(err)
		}
		return nil
	}
	if err == nil {
		// A Reader may return 0, nil; count it as nothing and let the
		// deadline decide.
		if time.Now().After(deadline) {
			return ErrTimeout
		}
		return nil
	}
	return classify(err)
}

func classify(err error) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return ErrTimeout
	case isClosed(err):
		return ErrClosed
	}
	return err
}

func isClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)
}
