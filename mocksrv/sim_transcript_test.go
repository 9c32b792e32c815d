package mocksrv

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// transcriptName splits "dir/NAME.ALGO.vall.log.gz".
func transcriptName(path string) (name, algo string) {
	name, algo, _ = transcriptCase(path)
	return name, algo
}

// transcriptCase splits "dir/NAME.ALGO[.n].vall.log.gz"; newline is set
// for a run with -n on both sides (".n").
func transcriptCase(path string) (name, algo string, newline bool) {
	base := strings.TrimSuffix(filepath.Base(path), ".vall.log.gz")
	if newline = strings.HasSuffix(base, ".n"); newline {
		base = strings.TrimSuffix(base, ".n")
	}
	i := strings.LastIndexByte(base, '.')
	return base[:i], base[i+1:], newline
}

// transcriptYears are the shared -v all transcripts of each ds-server
// year: the 2025 server's, and the 2026 server's of the same runs (and one
// with -n), whose GETS records carry the hourly rate.
var transcriptYears = []struct {
	year Year
	glob string
}{
	{Year2025, "transcripts/*.vall.log.gz"},
	{Year2026, "v2026/transcripts/*.vall.log.gz"},
}

// rcvdLines returns the client's messages of a -v all log, in order.
func rcvdLines(log []byte) []string {
	var out []string
	for _, l := range strings.Split(string(log), "\n") {
		t := strings.TrimLeft(l, " ")
		if strings.HasPrefix(t, "RCVD ") {
			out = append(out, t[5:])
		}
	}
	return out
}

func loadFixture(t testing.TB, name string) *simconfig.Config {
	t.Helper()
	p := filepath.Join(fixtures.Dir(t), "fixtures", name, "config.xml")
	cfg, err := simconfig.LoadConfig(p, simconfig.LoadOptions{BaseDir: filepath.Dir(p)})
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return cfg
}

// replayText feeds msgs to a text front of the 2025 server and returns the
// stdout log.
func replayText(t testing.TB, cfg *simconfig.Config, lvl Level, msgs []string) ([]byte, *Text) {
	t.Helper()
	return replayTextWith(t, cfg, Options{Level: lvl, Year: Year2025}, msgs)
}

// replayTextWith is replayText with the options given (Log, CommandLine
// and Port set here).
func replayTextWith(t testing.TB, cfg *simconfig.Config, opt Options, msgs []string) ([]byte, *Text) {
	t.Helper()
	var out bytes.Buffer
	opt.Log, opt.CommandLine, opt.Port = &out, "ds-server -c config.xml -v all -p 50000", 50000
	tx, err := NewText(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The guard dsbench sets for external clients: it must change nothing
	// in the reference clients' dialogues.
	tx.MaxRefusedOffers = RefusedOffersGuard
	for i, m := range msgs {
		if opt.Newline {
			m += "\n" // a -n client ends every message with it (§1.4)
		}
		_, done, err := tx.Handle(m)
		if err != nil {
			t.Fatalf("message %d %q: %v", i+1, m, err)
		}
		if done && i != len(msgs)-1 {
			t.Fatalf("dialogue ended at message %d %q of %d", i+1, m, len(msgs))
		}
	}
	if !tx.Done() {
		t.Fatalf("no QUIT processed")
	}
	return out.Bytes(), tx
}

// simFirstDiff describes the first differing line with context, or "".
func simFirstDiff(got, want []byte) string {
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			var b strings.Builder
			fmt.Fprintf(&b, "first difference at line %d (of got %d / want %d)\n", i+1, len(g), len(w))
			for k := max(0, i-6); k < i; k++ {
				fmt.Fprintf(&b, "   %5d  %s\n", k+1, w[k])
			}
			fmt.Fprintf(&b, "want %5d  %q\ngot  %5d  %q\n", i+1, wl, i+1, gl)
			for k := i + 1; k < min(len(w), i+4); k++ {
				fmt.Fprintf(&b, "want %5d  %s\n", k+1, w[k])
			}
			for k := i + 1; k < min(len(g), i+4); k++ {
				fmt.Fprintf(&b, "got  %5d  %s\n", k+1, g[k])
			}
			return b.String()
		}
	}
	return ""
}

// dropLines removes the first n lines.
func dropLines(b []byte, n int) []byte {
	for ; n > 0; n-- {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		b = b[i+1:]
	}
	return b
}

// TestTranscripts: every shared -v all transcript of either ds-server
// year, replayed message by message through the text front of that year,
// gives the same log from line 4 on (GETS records with the rate for 2026,
// without it for 2025), in the transcript's framing.
func TestTranscripts(t *testing.T) {
	for _, y := range transcriptYears {
		paths := fixtures.Glob(t, y.glob)
		ok := 0
		for _, p := range paths {
			name, _, nl := transcriptCase(p)
			t.Run(fmt.Sprintf("%v/%s", y.year, strings.TrimSuffix(filepath.Base(p), ".vall.log.gz")), func(t *testing.T) {
				want := fixtures.ReadGz(t, p)
				got, _ := replayTextWith(t, loadFixture(t, name), Options{Level: LevelAll, Year: y.year, Newline: nl}, rcvdLines(want))
				if d := simFirstDiff(dropLines(got, 3), dropLines(want, 3)); d != "" {
					t.Fatal(d)
				}
				ok++
			})
		}
		t.Logf("%v: %d/%d transcripts identical", y.year, ok, len(paths))
	}
}

// filterLog derives the log of another -v level from a -v all log, by the
// rules of §7.3/§7.4: protocol lines (with their continuation lines) kept
// only when the level shows them, event lines dropped at stats.
func filterLog(all []byte, lvl Level) []byte {
	var out []byte
	lines := strings.SplitAfter(string(all), "\n")
	keep := true // for continuation lines of the current protocol message
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(t, "SENT ") || strings.HasPrefix(t, "RCVD "):
			sent := strings.HasPrefix(t, "SENT ")
			// The whole message: this line and its continuation lines.
			msg := strings.TrimSuffix(t[5:], "\n")
			j := i + 1
			for j < len(lines) && isContinuation(lines[j]) {
				msg += "\n" + strings.TrimSuffix(lines[j], "\n")
				j++
			}
			keep = lvl.Proto == ProtoAll || (lvl.Proto == ProtoBrief && briefShown(sent, msg))
			if keep {
				out = append(out, l...)
			}
		case isContinuation(l):
			if keep {
				out = append(out, l...)
			}
		case strings.HasPrefix(l, "#"):
			out = append(out, l...)
		default: // event lines and the empty line after failed/killed
			if lvl.Events() {
				out = append(out, l...)
			}
		}
	}
	return out
}

// isContinuation: a line that is neither a protocol line, an event line, a
// '#' line nor the empty line after a failed/killed line belongs to the
// protocol message above it (GETS/LSTJ/LSTQ batches).
func isContinuation(l string) bool {
	t := strings.TrimLeft(l, " ")
	if t == "\n" || t == "" || strings.HasPrefix(l, "#") {
		return false
	}
	return !strings.HasPrefix(t, "SENT ") && !strings.HasPrefix(t, "RCVD ") &&
		!strings.HasPrefix(t, "job ") && !strings.HasPrefix(t, "t ")
}

// TestTranscriptLevels: the same dialogues at -v brief, jobs, stats and
// with no -v print the -v all transcript filtered by §7.3/§7.4's rules.
func TestTranscriptLevels(t *testing.T) {
	paths := fixtures.Glob(t, "transcripts/*.vall.log.gz")
	for _, p := range paths {
		name, algo := transcriptName(p)
		all := fixtures.ReadGz(t, p)
		msgs := rcvdLines(all)
		cfg := loadFixture(t, name)
		for _, lvl := range []Level{LevelBrief, ParseLevel("jobs"), LevelStats, LevelNone} {
			t.Run(name+"."+algo+"."+lvl.Word, func(t *testing.T) {
				got, _ := replayText(t, cfg, lvl, msgs)
				want := filterLog(dropLines(all, 3), lvl)
				if d := simFirstDiff(dropLines(got, 3), want); d != "" {
					t.Fatal(d)
				}
			})
		}
	}
}

// briefShown is the -v brief filter of §7.3, written here again so that
// the filtered transcripts check the engine's own filter.
func briefShown(sent bool, msg string) bool {
	is := func(w string) bool { return msg == w }
	has := func(p string) bool { return strings.HasPrefix(msg, p) }
	if sent {
		return has("JOB") || is("OK") || is("NONE") || has("JCPL") || has("RESF") || has("RESR") || is("QUIT")
	}
	return is("HELO") || has("AUTH") || is("REDY") || has("SCHD") || has("MIGJ") || is("QUIT")
}
