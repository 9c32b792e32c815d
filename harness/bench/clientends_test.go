package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// How a run with an external client ends, in the cases a student met:
// each client is a bash script speaking newline framing (sample-config01,
// 10 jobs, fits super-silk).

// ds-server's count is read from any line of its stderr.
func TestUnscheduledCount(t *testing.T) {
	for stderr, want := range map[string]int{
		"":                          0,
		"10 jobs not scheduled!\n":  10,
		"\n7 jobs not scheduled!\n": 7,
		"No such server type by xxx exists!\n10 jobs not scheduled!\n": 10,
		"ERR: x\r\n3 jobs not scheduled!\r\n":                          3,
		"not 10 jobs not scheduled!\n":                                 0,
	} {
		assert.Equal(t, want, Unscheduled(stderr), "%q", stderr)
	}
}

// A run that times out keeps the server's log (flushed as its session is
// stopped), and its reason quotes the log's last lines: where it hung.
func TestTimeoutKeepsTheServerLog(t *testing.T) {
	keep := t.TempDir()
	b := &Bench{Sources: fixtureSources(t, "sample-config01"),
		Target: Target{Client: script(t, nlClient+"say REDY\nsleep 30\n"), ClientDir: t.TempDir(), Newline: true, Timeout: 5 * time.Second, KeepLogs: keep}}
	res := b.Run(context.Background())
	require.Len(t, res, 1)
	assert.Equal(t, StatusTimeout, res[0].Status)
	assert.Regexp(t, `^no result within 5s; the server's log ended: .* \| SENT JOBN 0 \d+ [\d ]+; logs: `, res[0].Err)
	log := mustRead(t, filepath.Join(keep, "sample-config01__client.server.log"))
	assert.Contains(t, log, "RCVD REDY")
	assert.Contains(t, log, "SENT JOBN 0 ")
}

// What ended the server's session comes first in the reason, with the
// hint for a framing mismatch: the built-in server's fatal message, a
// server binary's line that ended the session (or its last line); never
// a refused command the session went on after, which a client that
// failed later for a reason of its own made long before.
func TestServerSaysWhyFirst(t *testing.T) {
	servers := []string{""}
	if !testing.Short() {
		servers = append(servers, buildCmd(t, "cmd/dsmock"))
	}
	for _, tc := range []struct {
		name         string
		newline      bool
		client       string
		builtin, bin string // the reason's regexp with each server
	}{
		{"plain client, -n server", true, "exec 3<>/dev/tcp/127.0.0.1/$1\nprintf HELO >&3\nread -r -t 5 l <&3\nexit 1\n",
			`^server: No new line character at the end of HELO!; the client's message "HELO" does not end with \\n: does the client end each message with \\n\? \(dsbench -n expects it\); client bash: exit status 1$`,
			`^server: No new line character at the end of HELO!; the client's message "HELO" does not end with \\n: does the client end each message with \\n\? \(-n expects it\); client bash: exit status 1$`},
		{"-n client, plain server", false, nlClient,
			`^server: ERR: invalid message \(HELO\\n\)!; the client's first message was "HELO\\n", not "HELO": does the client end messages with a newline while dsbench runs without -n\?; client bash: exit status 1$`,
			`^server: ERR: invalid message \(HELO\\n\)!; the client's message "HELO\\n" was refused: does the client end messages with a newline while the server runs without -n\?; client bash: exit status 1$`},
		{"a refused command, then the client's own error", true, nlClient + "say REDY\nsay \"CNTJ super-silk 99 2\"\necho 'my own bug' >&2\nexit 1\n",
			`^client bash: exit status 1: my own bug$`,
			`^server: dsmock: the client disconnected without QUIT; client bash: exit status 1: my own bug$`},
	} {
		for _, srv := range servers {
			b := &Bench{Sources: fixtureSources(t, "sample-config01"),
				Target: Target{Server: srv, Client: script(t, tc.client), ClientDir: t.TempDir(), Newline: tc.newline, Timeout: 30 * time.Second}}
			res := b.Run(context.Background())
			require.Len(t, res, 1)
			want := tc.builtin
			if srv != "" {
				want = tc.bin
			}
			assert.Equal(t, StatusError, res[0].Status, "%s, server %q", tc.name, srv)
			assert.Regexp(t, want, res[0].Err, "%s, server %q", tc.name, srv)
		}
	}
}

// A server binary's line that ends a session wins over any before or
// after it; else its last line says why, not a warning or the count of
// unscheduled jobs.
func TestBinaryEnd(t *testing.T) {
	for stderr, want := range map[string]string{
		"":                     "",
		"dsmock: warning: x\n": "",
		"99: Out of bound! (0 - 3); Server ID\ndsmock: the client disconnected without QUIT\n": "dsmock: the client disconnected without QUIT",
		"ERR: invalid message (HELO\n)!\ndsmock: the client's first message was \"HELO\\n\"\n": "ERR: invalid message (HELO\n)!",
		"dsmock: warning: x\nNo new line character at the end of HELO!\ndsmock: hint\n":        "No new line character at the end of HELO!",
		"No such server type by xxx exists!\nsegfault\r\n10 jobs not scheduled!\n":             "segfault",
		"ERR: invalid message (OK)!\nsegfault\n":                                               "segfault",
		"ERR: invalid message (OK)!\ndsmock: warning: x\n":                                     "ERR: invalid message (OK)!",
	} {
		assert.Equal(t, want, binaryEnd(stderr), "%q", stderr)
	}
}

// A client refused on every offer of a job, which ds-server would serve
// forever, ends at once with the job and the refusal named.
func TestRefusedForeverEnds(t *testing.T) {
	loop := nlClient + `say REDY
while :; do
	set -- $l
	say "SCHD $3 joon 0"
	say REDY
done
`
	start := time.Now()
	b := &Bench{Sources: fixtureSources(t, "sample-config01"),
		Target: Target{Client: script(t, loop), ClientDir: t.TempDir(), Newline: true, Timeout: time.Minute}}
	res := b.Run(context.Background())
	require.Len(t, res, 1)
	assert.Less(t, time.Since(start), 30*time.Second)
	assert.Equal(t, StatusError, res[0].Status)
	assert.Contains(t, res[0].Err, `server: job 0 offered 1000 times, every action refused (the last: "SCHD 37 joon 0": ERR: No such waiting job exists)`)
}

// After an interrupt, the runs not started end at once as interrupted,
// their configs not even loaded (an invalid one is not reported invalid).
func TestInterruptedRunsDoNotLoad(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.xml")
	require.NoError(t, os.WriteFile(bad, []byte("<config><servers/></config>"), 0o644))
	vs, err := columns.ParseVariants([]string{"ff,bf"})
	require.NoError(t, err)
	b := &Bench{Sources: append(fixtureSources(t, "sample-config01"), sources.Source{Name: "bad", Path: bad}), Variants: vs}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := b.Run(ctx)
	require.Len(t, res, 4)
	for _, r := range res {
		assert.Equal(t, StatusError, r.Status, "%s %s", r.Config, r.Variant)
		assert.Equal(t, "interrupted", r.Err, "%s %s", r.Config, r.Variant)
	}
}

// Ctrl-C is "interrupted", not "context canceled".
func TestInterruptedReason(t *testing.T) {
	var r Result
	r.fill(runOutput{err: context.Canceled}, time.Minute)
	assert.Equal(t, StatusError, r.Status)
	assert.Equal(t, "interrupted", r.Err)
}
