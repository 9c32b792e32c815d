package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
)

// capture is one output of a run (the server's log, the server's stderr,
// the client's stderr) as dsbench keeps it: its first headBytes and its
// last tailBytes in memory, and the whole of it streamed to its
// --keep-logs file, when dsbench keeps logs, as the run goes. An output
// was once held whole: a run of millions of offers (a job waiting out a
// long failure, pushed back every second) logged gigabytes, which dsbench
// held, then copied, until the system killed it and every other run's
// result with it; a server binary's log, or a client's stderr, can grow as
// far. What dsbench reads of an output is at its ends: ds-server's version
// line at the start of its log, the summary at its end, the last lines of
// a stderr or of a hung run's log in a reason.
//
// A run's goroutine may still be writing when a timed-out run is closed
// (an in-process run stops at its next REDY): writes after Close are
// dropped. A write error is kept for Close and the run goes on: the log is
// for debugging, the run's result is not lost over it.
type capture struct {
	mu        sync.Mutex
	f         *os.File // nil: kept in memory only
	w         *bufio.Writer
	head      []byte // the first headBytes written
	tail      []byte // what came after head: at least its last tailBytes, at most twice that
	dropped   int64  // bytes written after head that tail no longer holds
	keepEmpty bool   // the file stays when nothing was written (the server's log)
	err       error  // the first error writing or closing
	closed    bool
}

// headBytes and tailBytes are how much of an output's start and end a
// capture holds: far more than the version line, the summary's three
// lines, and the logTailLines a reason quotes.
const (
	headBytes = 16 << 10
	tailBytes = 16 << 10
)

// newCapture is an output kept in memory, and streamed to path unless
// path is empty. keepEmpty keeps the file when nothing is written.
func newCapture(path string, keepEmpty bool) (*capture, error) {
	c := &capture{keepEmpty: keepEmpty}
	if path == "" {
		return c, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	c.f, c.w = f, bufio.NewWriterSize(f, 1<<16)
	return c, nil
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return len(p), nil
	}
	if c.w != nil {
		if _, err := c.w.Write(p); err != nil && c.err == nil {
			c.err = err
		}
	}
	n := min(len(p), headBytes-len(c.head))
	c.head = append(c.head, p[:n]...)
	c.tail = append(c.tail, p[n:]...)
	if len(c.tail) > 2*tailBytes {
		cut := len(c.tail) - tailBytes
		c.dropped += int64(cut)
		c.tail = append(c.tail[:0], c.tail[cut:]...)
	}
	return len(p), nil
}

// Text is the output whole when the capture holds all of it; else its
// start and its end, each cut at a line's end, around a line that says
// how much is left out and where it is.
func (c *capture) Text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dropped == 0 {
		return string(c.head) + string(c.tail)
	}
	head := c.head[:bytes.LastIndexByte(c.head, '\n')+1]
	tail := fromLine(c.tail)
	if len(tail) == 0 { // one line longer than the tail: its end, rather than the marker last
		tail = c.tail
	}
	left := c.dropped + int64(len(c.head)-len(head)+len(c.tail)-len(tail))
	where := "--keep-logs keeps it whole"
	if c.f != nil {
		where = "whole in " + c.f.Name()
	}
	return fmt.Sprintf("%s[dsbench: %d bytes left out here; %s]\n%s", head, left, where, tail)
}

// Tail is the output's end, from the first whole line within its last
// tailBytes.
func (c *capture) Tail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.tail
	if c.dropped == 0 && len(t) <= tailBytes {
		t = append(append(make([]byte, 0, len(c.head)+len(t)), c.head...), t...)
	}
	if len(t) > tailBytes {
		w := t[len(t)-tailBytes:]
		if t = fromLine(w); len(t) == 0 { // one line longer than the tail: its end
			t = w
		}
	}
	return string(t)
}

// reset empties the capture and its file, for another attempt at the run.
func (c *capture) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.head, c.tail, c.dropped = c.head[:0], c.tail[:0], 0
	if c.f != nil {
		c.w.Reset(c.f)
		if err := c.f.Truncate(0); err != nil && c.err == nil {
			c.err = err
		}
		if _, err := c.f.Seek(0, io.SeekStart); err != nil && c.err == nil {
			c.err = err
		}
	}
}

// fromLine is b from after its first newline (all of b without one).
func fromLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// Close writes out what is buffered and closes the file, once (removing
// it when nothing was written, unless keepEmpty); it returns the first
// error of the whole output's writing.
func (c *capture) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.f == nil {
		c.closed = true
		return c.err
	}
	c.closed = true
	if err := c.w.Flush(); err != nil && c.err == nil {
		c.err = err
	}
	if err := c.f.Close(); err != nil && c.err == nil {
		c.err = err
	}
	if len(c.head) == 0 && !c.keepEmpty {
		if err := os.Remove(c.f.Name()); err != nil && c.err == nil {
			c.err = err
		}
	}
	return c.err
}

// file is the output's --keep-logs file once closed, or "" when it has none.
func (c *capture) file() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil || len(c.head) == 0 && !c.keepEmpty {
		return ""
	}
	return c.f.Name()
}
