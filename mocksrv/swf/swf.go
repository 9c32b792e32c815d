package swf

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// NumFields is the number of fields of an SWF job line.
const NumFields = 18

// Missing is SWF's value of an unknown field.
const Missing = -1

// FieldNames are the SWF field names, index 0 = field 1; errors use them.
var FieldNames = [NumFields]string{
	"job number", "submit time", "wait time", "run time", "allocated processors",
	"average CPU time", "used memory", "requested processors", "requested time",
	"requested memory", "status", "user id", "group id", "executable number",
	"queue", "partition", "preceding job", "think time",
}

// timeField reports whether field i (0-based) may hold a fraction: the page
// allows floating point in time fields only.
func timeField(i int) bool {
	switch i {
	case 1, 2, 3, 5, 8, 17:
		return true
	}
	return false
}

// Job is one job line. Times are in seconds, possibly fractional; Missing
// (-1) marks an unknown value in every field.
type Job struct {
	Line      int // 1-based line in the file
	Number    int64
	Submit    float64
	Wait      float64
	Run       float64
	Alloc     int64 // allocated processors
	AvgCPU    float64
	UsedMem   int64 // KB per processor
	ReqProcs  int64
	ReqTime   float64
	ReqMem    int64 // KB per processor
	Status    int64
	User      int64
	Group     int64
	Exe       int64
	Queue     int64
	Partition int64
	Preceding int64
	Think     float64
}

// Header is what the header comments say about the machine; 0 when absent.
type Header struct {
	MaxProcs      int64
	MaxNodes      int64
	UnixStartTime int64
	// Comments are every comment line without its ';', in order.
	Comments []string
}

// Trace is a parsed SWF file.
type Trace struct {
	Name   string
	Header Header
	Jobs   []Job
}

// ParseError is a line that is not SWF; Field is 1-based, 0 for the line.
type ParseError struct {
	File  string
	Line  int
	Field int
	Msg   string
}

func (e *ParseError) Error() string {
	if e.Field == 0 {
		return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: line %d: field %d (%s): %s", e.File, e.Line, e.Field, FieldNames[e.Field-1], e.Msg)
}

// maxLine bounds a line: a longer one is an error, not a memory blow-up.
const maxLine = 1 << 20

// Parse reads a trace; name is used in errors. A gzip stream is
// decompressed first.
func Parse(name string, r io.Reader) (*Trace, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var zr *streamReader
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, GzipError(name, err)
		}
		defer z.Close()
		zr = &streamReader{r: z}
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	t := &Trace{Name: name}
	line := 0
	for sc.Scan() {
		line++
		if err := t.addLine(sc.Bytes(), line); err != nil {
			// A stream cut short ends in a partial line: the cut is the
			// fault, not the line.
			return nil, cmp.Or(zr.fault(name), err)
		}
	}
	if err := zr.fault(name); err != nil {
		return nil, err
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, &ParseError{File: name, Line: line + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	return t, nil
}

// streamReader keeps the first error of a gzip stream, which the
// scanner would only report after handing out the partial line before it.
type streamReader struct {
	r   io.Reader
	err error
}

func (s *streamReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// fault is the stream's error, named for the file; nil when there is
// none or the file is not compressed (s nil).
func (s *streamReader) fault(name string) error {
	if s == nil || s.err == nil {
		return nil
	}
	return GzipError(name, s.err)
}

// GzipError is err, from reading the gzip file name, in words that say
// which file and what is wrong with it: gzip's own ("unexpected EOF",
// "gzip: invalid checksum") say neither. A file cut short is the common
// case. dsview words its .gz logs' errors with it too, so the same fault
// reads the same in every command.
func GzipError(name string, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: truncated gzip file: it ends before its compressed data does (a partial download or copy?)", name)
	}
	return fmt.Errorf("%s: invalid gzip file: %w", name, err)
}

// addLine takes one line: blank, a comment, or a job.
func (t *Trace) addLine(b []byte, line int) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return nil
	case b[0] == ';':
		return t.Header.add(t.Name, string(b[1:]), line)
	}
	j, err := parseJob(t.Name, b, line)
	if err != nil {
		return err
	}
	t.Jobs = append(t.Jobs, j)
	return nil
}

// add reads a header comment; the machine sizes must be numbers, other
// comments (Note, Computer, …) are kept as text.
func (h *Header) add(file, c string, line int) error {
	h.Comments = append(h.Comments, strings.TrimSpace(c))
	key, val, ok := strings.Cut(c, ":")
	if !ok {
		return nil
	}
	var dst *int64
	switch strings.TrimSpace(key) {
	case "MaxProcs":
		dst = &h.MaxProcs
	case "MaxNodes":
		dst = &h.MaxNodes
	case "UnixStartTime":
		dst = &h.UnixStartTime
	default:
		return nil
	}
	val = strings.TrimSpace(val)
	n, err := strconv.ParseInt(val, 10, 64)
	if err != nil || n < 0 {
		return &ParseError{File: file, Line: line, Msg: fmt.Sprintf("header %s: %q is not a non-negative integer", strings.TrimSpace(key), val)}
	}
	*dst = n
	return nil
}

// parseJob reads the 18 fields of a job line.
func parseJob(file string, b []byte, line int) (Job, error) {
	var v [NumFields]float64
	s := string(b)
	n := 0
	for len(s) > 0 {
		i := strings.IndexAny(s, " \t\r\v\f")
		tok := s
		if i >= 0 {
			tok, s = s[:i], strings.TrimLeft(s[i:], " \t\r\v\f")
		} else {
			s = ""
		}
		if n < NumFields {
			x, err := parseField(tok, n)
			if err != "" {
				return Job{}, &ParseError{File: file, Line: line, Field: n + 1, Msg: fmt.Sprintf("%q: %s", tok, err)}
			}
			v[n] = x
		}
		n++
	}
	if n != NumFields {
		return Job{}, &ParseError{File: file, Line: line, Msg: fmt.Sprintf("%d fields, want %d (SWF job lines have 18 whitespace-separated fields)", n, NumFields)}
	}
	i := func(k int) int64 { return int64(v[k]) }
	return Job{Line: line, Number: i(0), Submit: v[1], Wait: v[2], Run: v[3], Alloc: i(4), AvgCPU: v[5],
		UsedMem: i(6), ReqProcs: i(7), ReqTime: v[8], ReqMem: i(9), Status: i(10), User: i(11), Group: i(12),
		Exe: i(13), Queue: i(14), Partition: i(15), Preceding: i(16), Think: v[17]}, nil
}

// maxInt is the largest integer a field may hold: beyond 2^53 a float64
// (the common carrier) is no longer exact, and no trace needs it.
const maxInt = 1 << 53

// parseField reads field k (0-based); the error is "" when the value is good.
func parseField(tok string, k int) (float64, string) {
	x, ok := smallInt(tok)
	if !ok {
		f, ferr := strconv.ParseFloat(tok, 64)
		switch {
		case ferr != nil && isRange(ferr):
			return 0, "too large"
		case ferr != nil || math.IsNaN(f) || math.IsInf(f, 0):
			return 0, "not a number"
		case !timeField(k) && f != math.Trunc(f):
			return 0, "not an integer (only time fields may have a fraction)"
		case math.Abs(f) > maxInt:
			return 0, "too large"
		}
		x = f
	}
	if x < 0 && x != Missing {
		return 0, "negative (only -1, unknown, is allowed)"
	}
	if k == 10 && x > 5 {
		return 0, "unknown status (SWF 2.2 defines -1 and 0 to 5)"
	}
	return x, ""
}

// smallInt reads an optionally signed run of at most 15 digits, the
// common case, without strconv's error allocation on a fraction; ok is
// false for anything else, which ParseFloat then judges.
func smallInt(tok string) (float64, bool) {
	neg := false
	if len(tok) > 0 && (tok[0] == '-' || tok[0] == '+') {
		neg, tok = tok[0] == '-', tok[1:]
	}
	if len(tok) == 0 || len(tok) > 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return float64(n), true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
