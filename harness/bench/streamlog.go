package bench

import (
	"bufio"
	"bytes"
	"os"
	"sync"
)

// streamedLog is an in-process run's server log on its way to the file
// --keep-logs names, written as the run goes instead of held in memory:
// a run of millions of offers (a job waiting out a long failure, pushed
// back every second) logged gigabytes, which dsbench held, then copied,
// until the system killed it and every other run's result with it. It
// keeps the log's last lines for a hung run's reason (timeoutReason). The
// run's goroutine may still be writing when a timed-out run is closed
// (it stops at its next REDY): writes after Close are dropped. A write
// error is kept for Close and the run goes on: the log is for debugging,
// the run's result is not lost over it.
type streamedLog struct {
	mu     sync.Mutex
	f      *os.File
	w      *bufio.Writer
	tail   []byte // at least the last tailBytes written, at most twice that
	err    error  // the first error writing or closing
	closed bool
}

// tailBytes is how much of the log's end a streamedLog keeps: more than
// the logTailLines lines a hung run's reason quotes.
const tailBytes = 4096

func createStreamedLog(path string) (*streamedLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &streamedLog{f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

func (s *streamedLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return len(p), nil
	}
	if _, err := s.w.Write(p); err != nil && s.err == nil {
		s.err = err
	}
	s.tail = append(s.tail, p...)
	if len(s.tail) > 2*tailBytes {
		s.tail = append(s.tail[:0], s.tail[len(s.tail)-tailBytes:]...)
	}
	return len(p), nil
}

// Tail is the log's end, from the first whole line within its last
// tailBytes.
func (s *streamedLog) Tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tail
	if len(t) > tailBytes {
		t = t[len(t)-tailBytes:]
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
	}
	return string(t)
}

// Close writes out what is buffered and closes the file, once; it returns
// the first error of the whole log's writing.
func (s *streamedLog) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.err
	}
	s.closed = true
	if err := s.w.Flush(); err != nil && s.err == nil {
		s.err = err
	}
	if err := s.f.Close(); err != nil && s.err == nil {
		s.err = err
	}
	return s.err
}
