package bench_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
)

func clientRun(t *testing.T, cmd, keep string) bench.Result {
	t.Helper()
	b := &bench.Bench{Sources: fixtureSources(t, "sample-config01"),
		Target: bench.Target{Client: cmd, ClientDir: t.TempDir(), Newline: true, Timeout: 30 * time.Second, KeepLogs: keep}}
	res := b.Run(context.Background())
	require.Len(t, res, 1)
	return res[0]
}

// A client that exits before connecting: its exit status and stderr, not
// "accept … use of closed network connection", and without waiting out
// the server's grace period.
func TestClientExitingBeforeConnecting(t *testing.T) {
	start := time.Now()
	r := clientRun(t, script(t, "echo 'cannot find ds-system.xml' >&2\n"), "")
	assert.Less(t, time.Since(start), bench.ServerGrace/2)
	assert.Equal(t, bench.StatusError, r.Status)
	assert.Regexp(t, `^the client exited \(status 0\) without connecting to port \d+; client stderr: cannot find ds-system.xml$`, r.Err)
	assert.NotContains(t, r.Err, "closed network connection")

	r = clientRun(t, script(t, "echo 'usage: client -p PORT' >&2\nexit 3\n"), "")
	assert.Equal(t, bench.StatusError, r.Status)
	assert.Regexp(t, `^client bash: exit status 3: usage: client -p PORT$`, r.Err, "the stderr tail once")
}

// A client that crashes while a process it started holds the connection:
// its own error, once the grace is over, not the run's timeout.
func TestClientCrashingWithTheConnectionHeld(t *testing.T) {
	start := time.Now()
	r := clientRun(t, script(t, `exec 3<>/dev/tcp/127.0.0.1/$1
say() { echo "$1" >&3 && read -r l <&3 || exit 1; }
say HELO; say "AUTH x"; say REDY
sleep 20 >/dev/null 2>&1 &
echo 'Traceback: my bug' >&2
exit 1
`), "")
	assert.Less(t, time.Since(start), bench.ServerGrace)
	assert.Equal(t, bench.StatusError, r.Status)
	assert.Regexp(t, `^client bash: exit status 1: Traceback: my bug$`, r.Err)
}

// An unscheduled result shows the client's stderr too; --keep-logs keeps
// the server's log and the client's stderr, and the reason names them.
func TestUnscheduledShowsStderrAndKeepLogs(t *testing.T) {
	keep := t.TempDir()
	r := clientRun(t, script(t, quitter), keep)
	assert.Equal(t, bench.StatusUnscheduled, r.Status)
	assert.Contains(t, r.Err, "client stderr: quitter: giving up after the first job")
	logs := filepath.Join(keep, "sample-config01__client")
	assert.Contains(t, r.Err, "logs: "+logs+".server.log, "+logs+".server.stderr, "+logs+".client.stderr")
	assert.Contains(t, mustRead(t, logs+".server.log"), "# actual simulation end time")
	assert.Contains(t, mustRead(t, logs+".server.stderr"), "jobs not scheduled")
	assert.Equal(t, "quitter: giving up after the first job\n", mustRead(t, logs+".client.stderr"))

	var out strings.Builder
	require.NoError(t, report.Output{Results: []bench.Result{r}}.Write(&out, report.FormatTable))
	assert.Regexp(t, `sample-config01\s+client\s+unscheduled\s+\d+ jobs not scheduled; client stderr: quitter: giving up`, out.String())
}

// The built-in server's kept stderr is what dsmock prints for a session
// that ends on a refused message: ds-server's line once (a refused
// handshake message prints it before the end) and dsmock's hint.
func TestKeptStderrOfARefusedMessage(t *testing.T) {
	servers := []string{""}
	if !testing.Short() {
		servers = append(servers, buildCmd(t, "cmd/dsmock"))
	}
	for _, tc := range []struct {
		name    string
		newline bool
		client  string
		stderr  string
	}{
		{"-n client, plain server", false, nlClient, "ERR: invalid message (HELO\n)!\n" +
			`dsmock: the client's first message was "HELO\n", not "HELO": does the client end messages with a newline while dsmock runs without -n?` + "\n"},
		{"plain client, -n server", true, "exec 3<>/dev/tcp/127.0.0.1/$1\nprintf HELO >&3\nread -r -t 5 l <&3\nexit 1\n", "No new line character at the end of HELO!\n" +
			`dsmock: the client's message "HELO" does not end with \n: does the client end each message with \n? (-n expects it)` + "\n"},
	} {
		for _, srv := range servers {
			keep := t.TempDir()
			b := &bench.Bench{Sources: fixtureSources(t, "sample-config01"),
				Target: bench.Target{Server: srv, Client: script(t, tc.client), ClientDir: t.TempDir(), Newline: tc.newline, Timeout: 30 * time.Second, KeepLogs: keep}}
			res := b.Run(context.Background())
			require.Len(t, res, 1)
			want := tc.stderr
			if srv == "" {
				// The built-in simulator's hints name the command the
				// user ran, dsbench, and its -n.
				want = strings.NewReplacer("dsmock: ", "dsbench: ", "while dsmock runs", "while dsbench runs", "(-n expects", "(dsbench -n expects").Replace(want)
			}
			assert.Equal(t, want, mustRead(t, filepath.Join(keep, "sample-config01__client.server.stderr")), "%s, server %q", tc.name, srv)
		}
	}
}

// An unscheduled run whose client failed after QUIT quotes the client's
// stderr once, in the note.
func TestUnscheduledNoteQuotesStderrOnce(t *testing.T) {
	crash := early + "echo 'Traceback (most recent call last):' >&2\necho '    [][1]' >&2\necho 'IndexError: list index out of range' >&2\nexit 1\n"
	r := clientRun(t, script(t, crash), "")
	assert.Equal(t, bench.StatusUnscheduled, r.Status)
	assert.Equal(t, "client exited 1 after QUIT; client stderr: IndexError: list index out of range", r.Err)
}

// A client that writes far more than dsbench holds, to stdout (every
// message, as many students' clients print them) and to stderr: the run's
// reason quotes the end of its stderr, and --keep-logs keeps that stderr
// whole (TestFloodedStderrIsHeldByItsEnds: dsbench itself holds only its
// ends).
func TestClientFloodingItsOutputs(t *testing.T) {
	flood := `for i in $(seq 1 20000); do echo "debug line $i of the client's chatter"; echo "stderr line $i" >&2; done
` + quitter
	keep := t.TempDir()
	r := clientRun(t, script(t, flood), keep)
	assert.Equal(t, bench.StatusUnscheduled, r.Status)
	assert.Contains(t, r.Err, "client stderr: stderr line 19999 | stderr line 20000 | quitter: giving up after the first job")
	stderr := mustRead(t, filepath.Join(keep, "sample-config01__client.client.stderr"))
	assert.Equal(t, 20001, strings.Count(stderr, "\n"), "every line kept")
	assert.True(t, strings.HasPrefix(stderr, "stderr line 1\nstderr line 2\n"))
	assert.NoFileExists(t, filepath.Join(keep, "sample-config01__client.client.stdout"))
}

// A server binary that exits without listening is started three times
// (another process may have taken its port): the logs kept, and quoted,
// are its last attempt's, whole (the captures were once emptied after
// the last attempt too, and a server that could not start left an empty
// log and no stderr).
func TestKeptLogsOfAServerThatNeverListens(t *testing.T) {
	dir := t.TempDir()
	srv := filepath.Join(dir, "server.sh")
	count := filepath.Join(dir, "attempts")
	body := fmt.Sprintf("#!/bin/sh\nn=$(($(cat %[1]s 2>/dev/null || echo 0) + 1))\necho $n > %[1]s\necho \"# attempt $n\"\necho \"config.xml: unreadable (attempt $n)\" >&2\nexit 1\n", count)
	require.NoError(t, os.WriteFile(srv, []byte(body), 0o755))
	keep := t.TempDir()
	b := &bench.Bench{Sources: fixtureSources(t, "sample-config01"),
		Target: bench.Target{Server: srv, Client: script(t, quitter), ClientDir: t.TempDir(), Newline: true, Timeout: 30 * time.Second, KeepLogs: keep}}
	res := b.Run(context.Background())
	require.Len(t, res, 1)
	assert.False(t, res[0].OK())
	assert.Equal(t, "3\n", mustRead(t, count))
	logs := filepath.Join(keep, "sample-config01__client")
	assert.Equal(t, "# attempt 3\n", mustRead(t, logs+".server.log"))
	assert.Equal(t, "config.xml: unreadable (attempt 3)\n", mustRead(t, logs+".server.stderr"))
	assert.Contains(t, res[0].Err, "config.xml: unreadable (attempt 3)")
}
