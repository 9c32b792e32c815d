package protocol

import (
	"strconv"
	"strings"
	"testing"
)

// gets1000 is a 1,000-record GETS reply as ds-server sends it: every record
// after the first padded (ds-server.md §5.3), 10 types of 100 servers.
func gets1000() string {
	var b strings.Builder
	for i := range 1000 {
		if i > 0 {
			b.WriteString("\n           ")
		}
		s := Server{Type: "type" + strconv.Itoa(i/100), ID: i % 100, State: ServerState(i % 4), CurStartTime: 1000 + i,
			Cores: i % 64, Memory: 1000 * (i % 64), Disk: 4000 * (i % 64), Waiting: i % 3, Running: i % 5}
		b.WriteString(s.String())
	}
	return b.String()
}

// BenchmarkParseGets1000: one GETS exchange with a 1,000-record reply,
// through the plain-mode framing reader (the batch arriving in 16 KiB
// reads, as from a socket) and the record parser.
func BenchmarkParseGets1000(b *testing.B) {
	batch := []byte(gets1000())
	chunks := chunked(string(batch), 16<<10)
	s := &script{}
	c := NewClient(s, nil, ConnOptions{})
	b.SetBytes(int64(len(batch)))
	b.ReportAllocs()
	for b.Loop() {
		s.written.Reset()
		s.replies = append(s.replies[:0], [][]byte{[]byte("DATA 1000 124")}, chunks, [][]byte{[]byte(".")})
		recs, err := c.GetsAll()
		if err != nil || len(recs) != 1000 {
			b.Fatalf("%d records, %v", len(recs), err)
		}
	}
}
