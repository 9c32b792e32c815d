package dsclient_test

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/ports"
	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/heldport"
	"github.com/dssim-go/dssim-go/internal/transcript"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

func init() {
	strategies.Register(strategies.Info{
		Name:    "test-next-capable",
		Summary: "test only: first capable server not refused yet (exercises the loop's SCHD-ERR retry)",
		New:     func(strategies.Params) (strategies.Strategy, error) { return strattest.FirstCapable{}, nil },
	})
}

const testSystem = `<?xml version="1.0" encoding="UTF-8"?>
<system>
	<servers>
		<server type="a" limit="2" bootupTime="10" hourlyRate="0.10" cores="4" memory="16000" disk="64000" />
	</servers>
</system>
`

// script builds a dialogue: "<X" is a message X from the client (RCVD in
// ds-server's log), ">X" one from the server (SENT).
func script(lines ...string) []transcript.Message {
	var out []transcript.Message
	for i, l := range lines {
		d := transcript.Sent
		if l[0] == '<' {
			d = transcript.Rcvd
		}
		out = append(out, transcript.Message{Dir: d, Text: l[1:], Line: i + 1})
	}
	return out
}

var handshake = []string{"<HELO", ">OK", "<AUTH root", ">OK"}

func dialogue(parts ...[]string) []transcript.Message {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return script(all...)
}

// ending is what the fake server does after its script.
type ending int

const (
	checkClose ending = iota // the client must close the connection
	closeNow                 // close the connection at once
	// hold keeps it open, silent, until the client closes it (which it
	// must, without sending anything more, once its read timeout is up):
	// the client times out however late a loaded machine runs the script,
	// where a fixed pause before closing raced the client's timer.
	hold
)

// fakeServer serves one connection with a script and returns its port and
// the script's result.
func fakeServer(t *testing.T, ln net.Listener, msgs []transcript.Message, end ending) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		ln.Close()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		done <- transcript.Replay(c, msgs, transcript.ReplayOptions{Timeout: 30 * time.Second, SkipCloseCheck: end == closeNow})
	}()
	return done
}

func listen(t *testing.T) (net.Listener, string) {
	ln, err := ports.TestListen() // DSSIM_PORTS when set
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	return ln, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// heldPort is a loopback port that refuses connections until p.Listen,
// and that no other test can take meanwhile (heldport).
func heldPort(t *testing.T) (*heldport.Port, string) {
	t.Helper()
	p, err := heldport.Hold()
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p, strconv.Itoa(p.Number())
}

func writeSystem(t *testing.T, content string) string {
	p := filepath.Join(t.TempDir(), "ds-system.xml")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

type result struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
}

func runMain(args ...string) result {
	var out, errb bytes.Buffer
	start := time.Now()
	code := dsclient.Main(args, &out, &errb)
	return result{code, out.String(), errb.String(), time.Since(start)}
}

// readTimeout is the --read-timeout of the cases where the server stops
// answering; it still bounds each of the fake server's replies before
// that: 2 s, where stalls of 1 s were seen with the machine loaded ten
// times over (and 500 ms was too short). promptTimeout is the others': a
// slow fake server cannot run into it. A case that takes longer than
// hangBound hangs: it is well under promptTimeout, and under the 30 s
// the fake server waits for the client's next message or its close.
const readTimeout, promptTimeout, hangBound = 2 * time.Second, 30 * time.Second, 15 * time.Second

// TestBadServers: whatever the server does wrong, dsclient exits non-zero
// within its read timeout with one line that names the command, what it
// waited for and what it got.
func TestBadServers(t *testing.T) {
	job := []string{"<REDY", ">JOBN 0 10 1 100 100 5", "<GETS Capable 1 100 100"}
	tests := []struct {
		name string
		msgs []transcript.Message
		end  ending
		want string
	}{
		{"unknown message", dialogue(handshake, []string{"<REDY", ">HELLO WORLD"}), checkClose,
			`dsclient: REDY: unexpected server message "HELLO WORLD" during "REDY" (want an event: JOBN, JOBP, JCPL, RESF, RESR, CHKQ or NONE)`},
		{"malformed event", dialogue(handshake, []string{"<REDY", ">JOBN 0 10 one 100 100 5"}), checkClose,
			`dsclient: REDY: unexpected server message "JOBN 0 10 one 100 100 5" during "REDY"`},
		{"garbage", script("<HELO", ">\x00\x01garbage\xff"), checkClose,
			`dsclient: handshake: unexpected server message "\x00\x01garbage\xff" during "HELO" (want OK)`},
		{"nothing at all", script("<HELO"), hold,
			`dsclient: handshake: the server stopped answering: no complete reply within 2s during "HELO" (waiting for OK; got nothing)`},
		{"dropped at once", nil, closeNow,
			`dsclient: handshake: `},
		{"dropped after REDY", dialogue(handshake, []string{"<REDY"}), closeNow,
			`dsclient: REDY: the server closed the connection during "REDY" (waiting for an event: JOBN, JOBP, JCPL, RESF, RESR, CHKQ or NONE; got nothing)`},
		{"closed mid-message", dialogue(handshake, []string{"<REDY", ">JOBN 0 1"}), closeNow,
			`dsclient: REDY: the server closed the connection during "REDY" (waiting for an event: JOBN, JOBP, JCPL, RESF, RESR, CHKQ or NONE; got only "JOBN 0 1")`},
		{"stops answering", dialogue(handshake, []string{"<REDY"}), hold,
			`dsclient: REDY: the server stopped answering: no complete reply within 2s during "REDY"`},
		{"closing mid-exchange", dialogue(handshake, job, []string{">DATA 2 124", "<OK"}), closeNow,
			`the server closed the connection during "GETS Capable 1 100 100" (waiting for 2 GETS record(s); got nothing)`},
		{"truncated records", dialogue(handshake, job, []string{">DATA 2 124", "<OK", ">a 0 inactive -1 4 16000 64000 0 0\n     a 1 inac"}), closeNow,
			`the server closed the connection during "GETS Capable 1 100 100" (waiting for 2 GETS record(s); got only "a 0 inactive -1 4 16000 64000 0 0\n     a 1 inac")`},
		{"fewer records than announced", dialogue(handshake, job, []string{">DATA 3 124", "<OK", ">a 0 inactive -1 4 16000 64000 0 0\n     a 1 inactive -1 4 16000 64000 0 0"}), hold,
			`the server stopped answering: no complete reply within 2s during "GETS Capable 1 100 100" (waiting for 3 GETS record(s); got only "a 0 inactive -1 4 16000 64000 0 0\n     a 1 inactive -1 4 16000 64000 0 0")`},
		{"garbage record", dialogue(handshake, job, []string{">DATA 2 124", "<OK", ">a 0 inactive -1 4 16000 64000 0 0\nhello world\n"}), checkClose,
			`unexpected server message "hello world" during "GETS Capable 1 100 100" (want 2 GETS record(s); record 2 is not one)`},
		{"ERR to AUTH", script("<HELO", ">OK", "<AUTH root", ">ERR"), checkClose,
			`dsclient: handshake: server refused "AUTH root": ERR`},
	}
	sys := writeSystem(t, testSystem)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case has its own fake server; three wait out a read timeout
			ln, port := listen(t)
			done := fakeServer(t, ln, tc.msgs, tc.end)
			timeout := promptTimeout
			if tc.end == hold {
				timeout = readTimeout
			}
			r := runMain("-p", port, "--user", "root", "--system", sys, "--read-timeout", timeout.String())
			assert.Equal(t, dsclient.ExitFailed, r.code)
			assert.Contains(t, r.stderr, tc.want)
			assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
			assert.Less(t, r.elapsed, hangBound, "bounded by --read-timeout %v, not waiting it out or for ever", timeout)
			require.NoError(t, <-done, "the client's messages up to the failure")
		})
	}
}

// TestSchdRefusedRetry: after ERR to SCHD the strategy is asked again with
// that server excluded (client.Run, through the wire); once every
// candidate refused, a clear error, QUIT and exit 1.
func TestSchdRefusedRetry(t *testing.T) {
	gets := []string{"<GETS Capable 1 100 100", ">DATA 2 124", "<OK",
		">a 0 inactive -1 4 16000 64000 0 0\n     a 1 inactive -1 4 16000 64000 0 0", "<OK", ">."}
	start := []string{"<REDY", ">JOBN 0 10 1 100 100 5"}
	sys := writeSystem(t, testSystem)

	ln, port := listen(t)
	done := fakeServer(t, ln, dialogue(handshake, start, gets,
		[]string{"<SCHD 0 a 0", ">ERR: The specified server unavailable"}, gets,
		[]string{"<SCHD 0 a 1", ">OK", "<REDY", ">NONE", "<QUIT", ">QUIT"}), checkClose)
	r := runMain("-a", "test-next-capable", "-p", port, "--user", "root", "--system", sys, "-v", "info")
	require.NoError(t, <-done)
	assert.Equal(t, dsclient.ExitOK, r.code, r.stderr)
	assert.Contains(t, r.stderr, `"refusals": 1`)

	ln, port = listen(t)
	done = fakeServer(t, ln, dialogue(handshake, start, gets,
		[]string{"<SCHD 0 a 0", ">ERR: The specified server unavailable"}, gets,
		[]string{"<SCHD 0 a 1", ">ERR: The specified server unavailable"}, gets,
		[]string{"<QUIT", ">QUIT"}), checkClose)
	r = runMain("-a", "test-next-capable", "-p", port, "--user", "root", "--system", sys)
	require.NoError(t, <-done)
	assert.Equal(t, dsclient.ExitFailed, r.code)
	assert.Equal(t, "dsclient: job 0: no server can take the job (refused by a 0, a 1)\n", r.stderr)
}

func TestConnectRetry(t *testing.T) {
	held, port := heldPort(t) // refused until held.Listen

	// A second: room for the attempt after the first, which the message
	// needs, however late a loaded machine runs the first.
	r := runMain("-p", port, "--connect-timeout", "1s")
	assert.Equal(t, dsclient.ExitConnect, r.code)
	assert.Regexp(t, `^dsclient: cannot connect to 127\.0\.0\.1:`+port+` after \d+ attempts in [\d.]+m?s: .*connection refused\n$`, r.stderr)
	assert.GreaterOrEqual(t, r.elapsed, 800*time.Millisecond)
	assert.Less(t, r.elapsed, 5*time.Second)

	// The server starts a moment after the client, as harnesses do.
	sys := writeSystem(t, testSystem)
	done := make(chan error, 1)
	go func() {
		time.Sleep(500 * time.Millisecond)
		ln, err := held.Listen()
		if err != nil {
			done <- err
			return
		}
		done <- <-fakeServer(t, ln, dialogue(handshake, []string{"<REDY", ">NONE", "<QUIT", ">QUIT"}), checkClose)
	}()
	r = runMain("-p", port, "--user", "root", "--system", sys, "--connect-timeout", "10s")
	require.NoError(t, <-done)
	assert.Equal(t, dsclient.ExitOK, r.code, r.stderr)
	assert.GreaterOrEqual(t, r.elapsed, 400*time.Millisecond)
}

// TestSystemFallback: a missing or malformed ds-system.xml is a warning
// naming the file and the problem; the types then come from GETS All,
// sent before the first REDY.
func TestSystemFallback(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]struct{ content, problem string }{
		"missing":   {"", "no such file or directory"},
		"malformed": {`<system><servers><server type="a" limit="2"`, "not valid XML"},
		"bad value": {`<system><servers><server type="a" limit="two" bootupTime="1" hourlyRate="1" cores="4" memory="16000" disk="64000"/></servers></system>`, `attribute limit="two" is not an integer`},
		"nan rate":  {`<system><servers><server type="a" limit="2" bootupTime="1" hourlyRate="nan" cores="4" memory="16000" disk="64000"/></servers></system>`, `type "a": attribute hourlyRate="nan" is not a finite number`},
	}
	for name, tc := range bad {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".xml")
			if tc.content != "" {
				require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			}
			ln, port := listen(t)
			done := fakeServer(t, ln, dialogue(handshake, []string{
				"<GETS All", ">DATA 2 124", "<OK",
				">a 0 inactive -1 4 16000 64000 0 0\n     a 1 inactive -1 4 16000 64000 0 0", "<OK", ">.",
				"<REDY", ">JOBN 0 10 1 100 100 5",
				"<GETS Capable 1 100 100", ">DATA 0 124", "<OK", ">.",
				"<SCHD 0 a 0", ">OK", "<REDY", ">NONE", "<QUIT", ">QUIT"}), checkClose)
			r := runMain("-a", "atl", "-p", port, "--user", "root", "--system", path)
			require.NoError(t, <-done)
			assert.Equal(t, dsclient.ExitOK, r.code)
			assert.True(t, strings.HasPrefix(r.stderr, "WARN\tcannot use "+path+": "), r.stderr)
			assert.Contains(t, r.stderr, tc.problem)
			assert.Contains(t, r.stderr, "deriving the server types from GETS All, which gives no boot times or rates")
		})
	}
}

// TestSystemFallback2026: against a 2026 server the types GETS All gives
// carry the rates, and the warning says so; the run is the same.
func TestSystemFallback2026(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.xml")
	ln, port := listen(t)
	done := fakeServer(t, ln, dialogue(handshake, []string{
		"<GETS All", ">DATA 2 135", "<OK",
		">a 0 0.40 inactive -1 4 16000 64000 0 0\n     a 1 0.40 inactive -1 4 16000 64000 0 0", "<OK", ">.",
		"<REDY", ">JOBN 0 10 1 100 100 5",
		"<GETS Capable 1 100 100", ">DATA 0 135", "<OK", ">.",
		"<SCHD 0 a 0", ">OK", "<REDY", ">NONE", "<QUIT", ">QUIT"}), checkClose)
	r := runMain("-a", "atl", "-p", port, "--user", "root", "--system", path)
	require.NoError(t, <-done)
	assert.Equal(t, dsclient.ExitOK, r.code)
	assert.Contains(t, r.stderr, "deriving the server types from GETS All, which gives no boot times (every server looks quick to boot); the rates are the server's own (ds-server 2026 sends them)")
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, dsclient.ExitOK, "Exit status:"},
		{[]string{"--list"}, dsclient.ExitOK, "wfq [reference baseline]"},
		{[]string{"-a", "nope"}, dsclient.ExitUsage, `dsclient: unknown strategy "nope"`},
		{[]string{"-x"}, dsclient.ExitUsage, "dsclient: unknown shorthand flag: 'x'"},
		{[]string{"-a", "atl", "--param", "k=v"}, dsclient.ExitUsage, `dsclient: strategy atl has no parameter "k"`},
		{[]string{"--param", "novalue"}, dsclient.ExitUsage, `dsclient: --param: parameter "novalue": want key=value`},
		{[]string{"-v", "loud"}, dsclient.ExitUsage, `dsclient: -v "loud"`},
		{[]string{"-p", "70000"}, dsclient.ExitUsage, "dsclient: port 70000 out of range"},
		{[]string{"extra"}, dsclient.ExitUsage, `dsclient: unexpected argument "extra"`},
		{[]string{"--spin", "-1s"}, dsclient.ExitUsage, "dsclient: --spin -1s: want 0 (off) or a positive duration"},
		// Refused before connecting (-p 1 has no server): a run must not be
		// made only to lose its metrics.
		{[]string{"-p", "1", "--metrics", "/nonexistent-dir/m.json"}, dsclient.ExitUsage, "dsclient: --metrics: open /nonexistent-dir/m.json: no such file or directory"},
		{[]string{"-p", "1", "--metrics", os.TempDir()}, dsclient.ExitUsage, "dsclient: --metrics " + os.TempDir() + ": is a folder, not a file"},
	} {
		r := runMain(tc.args...)
		assert.Equal(t, tc.code, r.code, "%v", tc.args)
		assert.Contains(t, r.stdout+r.stderr, tc.want, "%v", tc.args)
	}
}

// TestUsageStrategiesAligned: -h lists the strategies in two columns; a
// name longer than the column (bestpack-boot) pushed its summary out of
// line.
func TestUsageStrategiesAligned(t *testing.T) {
	r := runMain("-h")
	_, list, ok := strings.Cut(r.stdout+r.stderr, "Strategies (dsclient --list shows their parameters):\n")
	require.True(t, ok, "no strategy list in -h")
	list, _, _ = strings.Cut(list, "\n\n")
	col := -1
	for _, line := range strings.Split(list, "\n") {
		name := strings.Fields(line)[0]
		rest := strings.TrimLeft(strings.TrimPrefix(line, "  "+name), " ")
		at := utf8.RuneCountInString(line) - utf8.RuneCountInString(rest)
		if col == -1 {
			col = at
		}
		assert.Equal(t, col, at, "summary of %s starts at column %d, the first at %d", name, at, col)
	}
	assert.Greater(t, strings.Count(list, "\n"), 10, "the list has every strategy")
}

// TestDidYouMean: a misspelt strategy, parameter, parameter value or log
// level is refused before connecting, with the nearest right one.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-a", "frontir"}, `unknown strategy "frontir": did you mean frontier?`},
		{[]string{"-a", "cost-reduce:mulitplier=3"}, `strategy cost-reduce has no parameter "mulitplier" (it takes: multiplier); did you mean multiplier?`},
		{[]string{"-a", "composite", "--param", "mode=portfolo"}, `parameter mode="portfolo": want rules or portfolio; did you mean portfolio?`},
		{[]string{"-v", "debgu"}, `-v "debgu": want debug, info, warn or error; did you mean debug?`},
	} {
		r := runMain(append(tc.args, "-p", "1")...)
		assert.Equal(t, dsclient.ExitUsage, r.code, tc.args)
		assert.Contains(t, r.stderr, tc.want, tc.args)
	}
}
