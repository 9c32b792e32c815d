package mocksrv

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

var (
	fuzzCfgOnce sync.Once
	fuzzCfg     *simconfig.Config
)

// FuzzClientMessages feeds any sequence of client messages (one per line of
// the input) to the text front. Whatever arrives, it never panics, answers
// each message with at most one reply, stays silent only inside a DATA
// exchange (a message other than OK), and says nothing more once the
// dialogue is over. The first byte chooses the config (a fixture, the
// hand-made system, the one with failures) and the framing.
func FuzzClientMessages(f *testing.F) {
	dir := fixtures.Dir(f)
	fuzzCfgOnce.Do(func() {
		p := filepath.Join(dir, "fixtures", "sample-config01", "config.xml")
		c, err := simconfig.LoadConfig(p, simconfig.LoadOptions{BaseDir: filepath.Dir(p)})
		if err == nil {
			fuzzCfg = c
		}
	})
	if fuzzCfg == nil {
		f.Fatal("cannot load sample-config01")
	}
	for _, p := range fixtures.Glob(f, "transcripts/sample-config01.*.vall.log.gz") {
		msgs := rcvdLines(fixtures.ReadGz(f, p))
		f.Add("\x00" + strings.Join(msgs, "\n"))
		f.Add("\x02" + strings.Join(msgs, "\n"))
	}
	for _, p := range fixtures.Glob(f, "transcripts/ds-sample-config0*.vall.log.gz") {
		msgs := rcvdLines(fixtures.ReadGz(f, p))
		if len(msgs) > 300 {
			msgs = msgs[:300]
		}
		f.Add("\x01" + strings.Join(msgs, "\n"))
		f.Add("\x04" + strings.Join(msgs, "\n"))
	}
	f.Add("\x01HELO\nAUTH x\nREDY\nRESC All\nREDY\nOK\nOK\nOK\nOK\nOK\nOK\nRESC Avail 1 100 100\nOK\nQUIT")
	f.Add("\x01HELO\nAUTH x\nREDY\nPSHJ\nREDY\nPSHJ\nREDY\nPSHJ\nENQJ GQ\nDEQJ GQ 0\nREDY\nSCHD 0 small 0\nQUIT")
	f.Add("\x05HELO\nAUTH x\nREDY\nREDY\nSCHD 0 tiny 1\nREDY\nSCHD 1 small 1\nREDY\nKILJ small 1 1\nTERM tiny 1\nMIGJ 1 small 1 big 0\nREDY\nREDY\nLSTQ GQ *\nOK\nOK\nQUIT")
	f.Fuzz(func(t *testing.T, in string) {
		if in == "" {
			return
		}
		var cfg *simconfig.Config
		switch in[0] % 3 {
		case 0:
			cfg = fuzzCfg
		case 1:
			cfg = tinyConfig()
		default:
			cfg = failConfig()
		}
		nl := in[0]&4 != 0
		opt := Options{Newline: nl, Level: LevelAll, Log: discard{}}
		if in[0]&8 != 0 {
			opt.NoFailureMsgs = true
		}
		tx, err := NewText(cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		msgs := strings.Split(in[1:], "\n")
		if len(msgs) > 2000 {
			msgs = msgs[:2000]
		}
		for i, m := range msgs {
			if nl {
				m += "\n"
			}
			before := tx.state
			reply, done, err := tx.Handle(m)
			if before == stDone {
				if reply != nil || !done {
					t.Fatalf("message %d %q after the end: reply %q done %v", i, m, reply, done)
				}
				continue
			}
			inData := before == stData1 || before == stData2 || before == stResc
			word, _, _ := strings.Cut(m, "\x00") // a NUL ends a message (C strings)
			word = strings.TrimSuffix(word, "\n")
			if reply == nil && err == nil && !(inData && word != "OK") {
				t.Fatalf("message %d %q (state %d): no reply outside a DATA exchange", i, m, before)
			}
			if reply != nil && inData && word != "OK" {
				t.Fatalf("message %d %q: a reply inside a DATA exchange to something other than OK", i, m)
			}
			if reply != nil && len(reply) == 0 {
				t.Fatalf("message %d %q: empty reply", i, m)
			}
			if nl && reply != nil && reply[len(reply)-1] != '\n' {
				t.Fatalf("message %d %q: newline-mode reply %q without its newline", i, m, reply)
			}
			if done && tx.state != stDone {
				t.Fatalf("message %d %q: done but the dialogue goes on", i, m)
			}
			if err != nil && !done {
				t.Fatalf("message %d %q: error %v without ending", i, m, err)
			}
		}
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
