package viewer

import (
	"bytes"
	"io"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// scripted starts a simulation of cfg on the simulator's text front, logs
// in as user and gives the tests' scripted clients what they need: send
// (one message, its reply; a refused message fails the test) and end,
// which sends QUIT and returns the log written at opts' level.
func scripted(t testing.TB, cfg *mocksrv.Config, opts mocksrv.Options, user string) (send func(string) string, end func() []byte) {
	t.Helper()
	var log bytes.Buffer
	opts.Log, opts.Stderr = &log, io.Discard
	txt, err := mocksrv.NewText(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	send = func(m string) string {
		reply, _, err := txt.Handle(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(reply)
	}
	send("HELO")
	send("AUTH " + user)
	return send, func() []byte {
		send("QUIT")
		txt.Flush()
		return log.Bytes()
	}
}
