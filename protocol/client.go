package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Client speaks the ds-sim protocol to a ds-server (or dsmock) over a
// connection. It implements client.Backend: the handshake, REDY, the
// actions, QUIT and every query of strategies.Queries, plus the remaining
// commands (LSTQ GQ i / $). Each method is one exchange; an ERR reply is a
// *ServerError, a broken or misbehaving connection an *ExchangeError.
type Client struct {
	conn   *Conn
	closer io.Closer
}

// DialOptions configure Dial.
type DialOptions struct {
	ConnOptions
	// ConnectTimeout is how long a refused connection is retried
	// (harnesses start the server a moment before the client). 0 means a
	// single attempt.
	ConnectTimeout time.Duration
	// RetryInterval is the longest pause between attempts (default 100ms).
	// The first pause is 1ms and each next one doubles up to this, so a
	// client started together with its server connects within a
	// millisecond or two of the server listening, while one waiting for a
	// slow server does not hammer it.
	RetryInterval time.Duration
	// WrapConn, when not nil, wraps the dialled connection before use: the
	// commands pass a busy-polling reader here (it saves a thread wake-up
	// per round trip), which this package leaves to them. nil: the plain
	// connection. The result must still support SetReadDeadline.
	WrapConn func(net.Conn) net.Conn
	// OnWait, when not nil, is called once when the connection has been
	// refused for WaitNotice and Dial keeps retrying, so that a command can
	// say that it is waiting for a server rather than stay silent for the
	// whole ConnectTimeout.
	OnWait func()
}

// WaitNotice is how long refused connections last before DialOptions.OnWait
// is called: longer than a harness takes to start a server beside the
// client (a few milliseconds), short enough that a user who forgot the
// server hears about it at once.
const WaitNotice = time.Second

// Dial connects to addr ("host:port"), retrying while the connection is
// refused until ConnectTimeout has passed.
func Dial(ctx context.Context, addr string, opt DialOptions) (*Client, error) {
	if opt.RetryInterval <= 0 {
		opt.RetryInterval = 100 * time.Millisecond
	}
	start := time.Now()
	stop := start.Add(opt.ConnectTimeout)
	attempts := 0
	pause := min(time.Millisecond, opt.RetryInterval)
	for {
		attempts++
		d := net.Dialer{Timeout: max(time.Until(stop), time.Second)}
		nc, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			if opt.WrapConn != nil {
				nc = opt.WrapConn(nc)
			}
			return NewClient(nc.(Transport), nc, opt.ConnOptions), nil
		}
		if !errors.Is(err, syscall.ECONNREFUSED) || !time.Now().Add(pause).Before(stop) {
			if attempts > 1 {
				return nil, fmt.Errorf("cannot connect to %s after %d attempts in %v: %w", addr, attempts, time.Since(start).Round(time.Millisecond), err)
			}
			return nil, fmt.Errorf("cannot connect to %s: %w", addr, err)
		}
		if opt.OnWait != nil && time.Since(start) >= WaitNotice {
			opt.OnWait()
			opt.OnWait = nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cannot connect to %s: %w", addr, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, opt.RetryInterval)
	}
}

// NewClient wraps a transport; closer (may be nil) is closed by Close.
func NewClient(t Transport, closer io.Closer, opt ConnOptions) *Client {
	return &Client{conn: NewConn(t, opt), closer: closer}
}

// Conn returns the framed connection.
func (c *Client) Conn() *Conn { return c.conn }

// Close closes the connection.
func (c *Client) Close() error {
	if c.closer == nil {
		return nil
	}
	return c.closer.Close()
}

// exchange sends cmd and reads one reply of kind r. An ERR reply becomes a
// *ServerError.
func (c *Client) exchange(cmd string, r Reply) (string, error) {
	if err := c.conn.Send(cmd); err != nil {
		return "", err
	}
	msg, err := c.conn.Read(r)
	if err != nil {
		return "", err
	}
	if isRefusal(msg) {
		return "", &ServerError{Command: cmd, Text: msg}
	}
	return msg, nil
}

// isRefusal reports whether msg is an ERR reply (or PSHJ's "Error: …",
// ds-server.md §5.14).
func isRefusal(msg string) bool {
	return IsErrReply(msg) || strings.HasPrefix(msg, "Error: ")
}

// Handshake sends HELO and AUTH user (ds-server.md §1.5).
func (c *Client) Handshake(user string) error {
	if _, err := c.exchange("HELO", ReplyOK); err != nil {
		return framingHint(err, c.conn.Framing())
	}
	_, err := c.exchange("AUTH "+user, ReplyOK)
	return err
}

// FramingError is a HELO that failed the way a framing mismatch makes it
// fail: ds-server run with -n exits at once when a message lacks its '\n'
// (ds-server.md §1.4), so a plain client sees the connection close; a
// plain server answers ERR to "HELO\n" and crashes (§1.3, §1.5); a server
// in the other framing answers with or without a '\n' the client does not
// expect. Err is the failure itself.
type FramingError struct {
	Err     error
	Framing Framing // this client's
}

func (e *FramingError) Error() string {
	if e.Framing == Newline {
		return e.Err.Error() + ": -n probably differs on the two sides: this client uses newline framing (-n), the server probably plain (remove -n here or start the server with -n)"
	}
	return e.Err.Error() + ": -n probably differs on the two sides: this client uses plain framing, the server probably runs with -n (add -n here or start the server without it)"
}

func (e *FramingError) Unwrap() error { return e.Err }

// framingHint turns a HELO failure that a framing mismatch explains (the
// connection closed, an ERR, an unexpected reply, or a partial reply and
// then silence) into a *FramingError; other errors are returned as they are.
func framingHint(err error, f Framing) error {
	var ee *ExchangeError
	switch {
	case IsServerError(err):
	case errors.As(err, &ee) && (errors.Is(ee.Err, ErrClosed) || errors.Is(ee.Err, ErrUnexpected) ||
		(errors.Is(ee.Err, ErrTimeout) && len(ee.Got) > 0)):
	default:
		return err
	}
	return &FramingError{Err: err, Framing: f}
}

// Ready sends REDY and returns the event (ds-server.md §3.2).
func (c *Client) Ready() (Event, error) {
	msg, err := c.exchange("REDY", ReplyEvent)
	if err != nil {
		return nil, err
	}
	ev, err := ParseEvent(msg)
	if err != nil {
		return nil, c.conn.fail(fmt.Errorf("in reply to \"REDY\": %w", err))
	}
	return ev, nil
}

// Do sends one action and returns the server's reply: "OK", or
// "<n> jobs killed" for TERM.
func (c *Client) Do(a Action) (string, error) {
	r := ReplyOK
	if _, ok := a.(Terminate); ok {
		r = ReplyKilled
	}
	return c.exchange(a.String(), r)
}

// Terminate sends TERM and returns the number of jobs killed.
func (c *Client) Terminate(s ServerRef) (int, error) {
	msg, err := c.Do(Terminate{Server: s})
	if err != nil {
		return 0, err
	}
	n, _ := strconv.Atoi(strings.Fields(msg)[0]) // the grammar checked it
	return n, nil
}

// Quit sends QUIT and waits for the server's QUIT (ds-server.md §1.6). On a
// connection that already failed it sends nothing and returns that failure
// at once, so a broken run ends without a second timeout.
func (c *Client) Quit() error {
	if err := c.conn.Broken(); err != nil {
		return fmt.Errorf("QUIT not sent: %w", err)
	}
	_, err := c.exchange("QUIT", ReplyQuit)
	return err
}

// data runs one DATA exchange (ds-server.md §5.2): cmd → DATA n len → OK →
// n records in one message (skipped when n = 0) → OK → ".".
func (c *Client) data(cmd string, kind RecordKind) ([]string, error) {
	hdr, err := c.exchange(cmd, ReplyData)
	if err != nil {
		return nil, err
	}
	f := strings.Fields(hdr)
	n, _ := strconv.Atoi(f[1]) // the grammar checked both integers
	recLen, _ := strconv.Atoi(f[2])
	if n < 0 || n > MaxRecords {
		return nil, c.conn.fail(&ExchangeError{Command: cmd, Want: fmt.Sprintf("a record count in 0..%d", MaxRecords), Got: []byte(hdr), Err: ErrUnexpected})
	}
	if err := c.conn.SendAck(); err != nil {
		return nil, err
	}
	var recs []string
	if n > 0 {
		if recs, err = c.conn.ReadRecords(n, kind, recLen); err != nil {
			return nil, err
		}
		if err := c.conn.SendAck(); err != nil {
			return nil, err
		}
	}
	dot, err := c.conn.Read(ReplyDot)
	if err != nil {
		return nil, err
	}
	if dot != "." {
		return nil, c.conn.fail(&ExchangeError{Command: c.conn.cmd, Want: `"."`, Got: []byte(dot), Err: ErrUnexpected})
	}
	return recs, nil
}

// servers runs a GETS exchange. Every record of a batch has one shape:
// the header's record length names it (Conn checks that), and under a
// length no ds-server announces the first record's shape is the batch's.
func (c *Client) servers(cmd string) ([]Server, error) {
	recs, err := records(c, cmd, GetsRecords, ParseServer)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].HasRate != recs[0].HasRate || (recs[i].Failure == nil) != (recs[0].Failure == nil) {
			return nil, c.conn.fail(fmt.Errorf("in reply to %q, record %d: %s is a record of another shape than record 1, %s (one batch, one shape)",
				cmd, i+1, recordYear(recs[i]), recordYear(recs[0])))
		}
	}
	return recs, nil
}

// recordYear describes a record's shape for an error.
func recordYear(s Server) string {
	year, n := "2025", 9
	if s.HasRate {
		year, n = "2026", 10
	}
	if s.Failure != nil {
		n += 6
	}
	return fmt.Sprintf("%q (%d fields, ds-server %s)", s.String(), n, year)
}

// records sends cmd, reads its DATA batch of kind k and parses each record.
func records[T any](c *Client, cmd string, k RecordKind, parse func(string) (T, error)) ([]T, error) {
	recs, err := c.data(cmd, k)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(recs))
	for i, r := range recs {
		if out[i], err = parse(r); err != nil {
			return nil, c.conn.fail(fmt.Errorf("in reply to %q, record %d: %w", cmd, i+1, err))
		}
	}
	return out, nil
}

// GetsAll sends GETS All.
func (c *Client) GetsAll() ([]Server, error) { return c.servers("GETS All") }

// GetsType sends GETS Type t.
func (c *Client) GetsType(typ string) ([]Server, error) { return c.servers("GETS Type " + typ) }

// GetsOne sends GETS One t id and returns its single record.
func (c *Client) GetsOne(s ServerRef) (Server, error) {
	cmd := "GETS One " + s.String()
	recs, err := c.servers(cmd)
	if err != nil {
		return Server{}, err
	}
	if len(recs) != 1 {
		return Server{}, fmt.Errorf("in reply to %q: %d records, want 1", cmd, len(recs))
	}
	return recs[0], nil
}

// GetsCapable sends GETS Capable c m d.
func (c *Client) GetsCapable(r Requirement) ([]Server, error) {
	return c.servers("GETS Capable " + r.String())
}

// GetsAvail sends GETS Avail c m d.
func (c *Client) GetsAvail(r Requirement) ([]Server, error) {
	return c.servers("GETS Avail " + r.String())
}

// GetsBounded sends GETS Bounded c m d.
func (c *Client) GetsBounded(r Requirement) ([]Server, error) {
	return c.servers("GETS Bounded " + r.String())
}

// ListJobs sends LSTJ t id.
func (c *Client) ListJobs(s ServerRef) ([]JobRecord, error) {
	return records(c, "LSTJ "+s.String(), JobRecords, ParseJobRecord)
}

// ListQueue sends LSTQ GQ *.
func (c *Client) ListQueue() ([]QueuedJob, error) {
	return records(c, "LSTQ "+GlobalQueue+" *", QueueRecords, ParseQueuedJob)
}

func (c *Client) number(cmd string) (int, error) {
	msg, err := c.exchange(cmd, ReplyNumber)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(msg)
	if err != nil {
		return 0, c.conn.fail(&ExchangeError{Command: cmd, Want: "a number", Got: []byte(msg), Err: ErrUnexpected})
	}
	return n, nil
}

// CountJobs sends CNTJ t id state. States 0 and 8 crash the reference
// server (ds-server.md §5.9), so they are refused here without sending.
func (c *Client) CountJobs(s ServerRef, st JobState) (int, error) {
	if st < JobStateWaiting || st > JobStateKilled {
		return 0, fmt.Errorf("CNTJ %s %d: job state must be 1..7 (0 and 8 crash ds-server)", s, st)
	}
	return c.number("CNTJ " + s.String() + " " + strconv.Itoa(int(st)))
}

// EstWait sends EJWT t id.
func (c *Client) EstWait(s ServerRef) (int, error) { return c.number("EJWT " + s.String()) }

// QueueLen sends LSTQ GQ #.
func (c *Client) QueueLen() (int, error) { return c.number("LSTQ " + GlobalQueue + " #") }

// QueueEntry sends LSTQ GQ i. ds-server finds only position 0 (ds-server.md
// §5.7, [BUG-COMPAT]); for any other position it answers "No such queue ID
// (i) exists!", returned here as ok = false.
func (c *Client) QueueEntry(i int) (q QueuedJob, ok bool, err error) {
	return c.queueEntry("LSTQ " + GlobalQueue + " " + strconv.Itoa(i))
}

// QueueLast sends LSTQ GQ $ (same caveat as QueueEntry: only a one-entry
// queue gives a record).
func (c *Client) QueueLast() (q QueuedJob, ok bool, err error) {
	return c.queueEntry("LSTQ " + GlobalQueue + " $")
}

func (c *Client) queueEntry(cmd string) (QueuedJob, bool, error) {
	msg, err := c.exchange(cmd, ReplyQueueEntry)
	if err != nil {
		return QueuedJob{}, false, err
	}
	if strings.HasPrefix(msg, "No such queue ID") {
		return QueuedJob{}, false, nil
	}
	q, err := ParseQueuedJob(strings.TrimSuffix(msg, "\n"))
	if err != nil {
		return QueuedJob{}, false, c.conn.fail(fmt.Errorf("in reply to %q: %w", cmd, err))
	}
	return q, true, nil
}
