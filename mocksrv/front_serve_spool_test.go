package mocksrv

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A session's log stays in memory up to spoolInMemory and then goes to a
// temporary file; either way it comes out whole, in order; past max it
// is cut at the byte and over is called once.
func TestSpool(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks int
		max    int64
		toFile bool
	}{
		{"small, in memory", 10, 0, false},
		{"large, in a file", 5000, 0, true},
		{"cut in memory", 100, 1234, false},
		{"cut in a file", 5000, 300000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			overs := 0
			s := &spool{max: tc.max, over: func() { overs++ }}
			defer s.close()
			var want bytes.Buffer
			for i := range tc.chunks {
				line := strings.Repeat(string(rune('a'+i%26)), i%200) + "\n"
				want.WriteString(line)
				if n, err := s.Write([]byte(line)); n != len(line) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if (s.file != nil) != tc.toFile {
				t.Errorf("in a file: %v, want %v (%d bytes)", s.file != nil, tc.toFile, want.Len())
			}
			w := want.Bytes()
			if tc.max > 0 {
				w = w[:tc.max]
				if overs != 1 || !errors.Is(s.err, ErrLogTooLarge) {
					t.Errorf("over called %d times, err %v", overs, s.err)
				}
			} else if overs != 0 || s.err != nil {
				t.Errorf("over called %d times, err %v", overs, s.err)
			}
			var got bytes.Buffer
			if err := s.writeTo(&got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), w) {
				t.Errorf("got %d bytes back, want %d", got.Len(), len(w))
			}
		})
	}
}
