package harness

import (
	"bytes"
	"testing"
)

// FuzzParsePiece: dsbench merge reads pieces that may come from anywhere
// (a cluster's shared folder, a truncated copy): any bytes give a piece or
// an error naming the file, never a panic; a piece read writes back to the
// same runs.
func FuzzParsePiece(f *testing.F) {
	var good bytes.Buffer
	sw := Sweep{Version: "v", Configs: []SweepConfig{{Name: "c", SHA256: "00"}}, Columns: []string{"ff"}, Objective: "tt"}
	res := []Result{{Config: "c", Variant: "ff", Status: StatusOK}}
	if err := writePiece(&good, Shard{I: 1, N: 1}, sw, 0, []int{0}, res); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()/2])
	f.Add([]byte(`{"format":"dsbench-shard-piece/1","runs":[{"index":0,"metrics":[{"name":"x","value":"NaN"}]}]}`))
	f.Add([]byte(`{"runs":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePiece("piece.json", data)
		if err != nil {
			if !bytes.HasPrefix([]byte(err.Error()), []byte("piece.json")) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if p.Format != pieceFormat {
			t.Fatalf("accepted format %q", p.Format)
		}
	})
}

// FuzzParseShard: the --shard values.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/4", "5/4", "0/3", "a/b", "-1/-1", " 2 / 3 ", "1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err == nil && (sh.I < 1 || sh.I > sh.N) {
			t.Fatalf("%q accepted as %v", s, sh)
		}
	})
}
