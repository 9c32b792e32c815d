package shard

import (
	"bytes"
	"testing"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// FuzzParsePiece: dsbench merge reads pieces that may come from anywhere
// (a cluster's shared folder, a truncated copy): any bytes give a piece or
// an error naming the file, never a panic; a piece read writes back to the
// same runs.
func FuzzParsePiece(f *testing.F) {
	var good bytes.Buffer
	sw := Fingerprint{Version: "v", Configs: []FingerprintConfig{{Name: "c", SHA256: "00"}}, Columns: []string{"ff"}, Objective: "tt"}
	res := []bench.Result{{Config: "c", Variant: "ff", Status: bench.StatusOK}}
	if err := WritePiece(&good, bench.Shard{I: 1, N: 1}, sw, 0, []int{0}, res); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()/2])
	f.Add([]byte(`{"format":"dsbench-shard-piece/1","runs":[{"index":0,"metrics":[{"name":"x","value":"NaN"}]}]}`))
	f.Add([]byte(`{"runs":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePiece("piece.json", data)
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
