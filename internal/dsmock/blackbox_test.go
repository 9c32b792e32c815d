package dsmock

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/harness/ports"
	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// syncBuffer is a bytes.Buffer safe for a writer process and a reader test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestBlackBoxServe drives the built dsmock binary in --serve mode with
// misbehaving clients — garbage, oversize messages, disconnects in the
// middle of a run and of a DATA exchange, a silent client — and checks
// that each is answered like ds-server answers it or ended cleanly, and
// that the process stays up: a well-behaved client afterwards still gets
// the reference summary.
// abandoned is the message of a --serve session that ended without QUIT.
var abandoned = regexp.MustCompile(`dsmock: session \d+ \(client 127\.0\.0\.1:\d+\) ended: the client disconnected without QUIT`)

// buildDsmock builds the dsmock command into a temporary folder, for the
// tests that run it as a process (signals, --serve over real sockets);
// -short skips them.
func buildDsmock(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds dsmock")
	}
	bin := filepath.Join(t.TempDir(), "dsmock")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/dssim-go/dssim-go/cmd/dsmock").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

func TestBlackBoxServe(t *testing.T) {
	bin := buildDsmock(t)

	dir := fixtureDir(t, "sample-config01")
	want, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "expected", "sample-config01.ff.summary"))
	require.NoError(t, err)
	work := t.TempDir()
	for _, f := range []string{"config.xml", "jobs.xml"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(work, f), data, 0o644))
	}

	port := freeTestPort(t)
	var stdout, stderr syncBuffer
	cmd := exec.Command(bin, "--year", "2025", "-c", "config.xml", "-v", "brief", "-p", port, "--serve", "--timeout", "2s") // the 2025 server: 9-field records
	cmd.Dir = work
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	addr := "127.0.0.1:" + port
	waitDial(t, addr)

	alive := func(when string) {
		t.Helper()
		select {
		case err := <-exited:
			t.Fatalf("dsmock exited %s: %v\nstderr: %s", when, err, stderr.String())
		default:
		}
	}
	// exchange sends each message and returns the replies (one read each).
	exchange := func(c net.Conn, msgs ...string) []string {
		t.Helper()
		var replies []string
		buf := make([]byte, 4096)
		for _, m := range msgs {
			_, err := c.Write([]byte(m))
			require.NoError(t, err)
			require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
			n, err := c.Read(buf)
			if err != nil {
				replies = append(replies, "<"+err.Error()+">")
				break
			}
			replies = append(replies, string(buf[:n]))
		}
		return replies
	}
	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		return c
	}

	t.Run("garbage first message", func(t *testing.T) {
		c := dial()
		defer c.Close()
		r := exchange(c, "\x00\xffGARBAGE")
		assert.Equal(t, "ERR", r[0], "ds-server answers ERR to a bad first message (§1.5) and the session ends")
		_, err := c.Read(make([]byte, 8))
		assert.ErrorIs(t, err, io.EOF, "the session is closed after the ERR")
		alive("after garbage")
	})

	t.Run("garbage and oversize commands mid-run", func(t *testing.T) {
		c := dial()
		defer c.Close()
		r := exchange(c, "HELO", "AUTH x", "SCHD", "XYZZY 1 2 3")
		assert.Equal(t, []string{"OK", "OK", "ERR", "ERR"}, r, "before REDY/GETS anything else gets ERR (§1.5 step 3)")
		// 5000 bytes in plain mode: one read of at most 1023 bytes is one
		// message (§1.2), so ds-server answers each of the 5 chunks.
		_, err := c.Write([]byte(strings.Repeat("A", 5000)))
		require.NoError(t, err)
		five := make([]byte, 15)
		require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
		_, err = io.ReadFull(c, five)
		require.NoError(t, err)
		assert.Equal(t, strings.Repeat("ERR", 5), string(five))
		r = exchange(c, "REDY", "BOGUS", "GETS Nothing")
		assert.Regexp(t, `^JOBN 0 `, r[0])
		assert.Equal(t, "ERR: invalid command (BOGUS)", r[1])
		assert.Equal(t, "ERR: invalid resource information query (GETS Nothing)!", r[2])
		alive("after garbage commands")
	})

	t.Run("disconnect mid-run and mid-DATA", func(t *testing.T) {
		c := dial()
		exchange(c, "HELO", "AUTH x", "REDY")
		c.Close()
		c = dial()
		r := exchange(c, "HELO", "AUTH x", "REDY", "GETS All")
		assert.Regexp(t, `^DATA \d+ 124$`, r[3])
		c.Close() // in the middle of the DATA exchange
		c = dial()
		c.Write([]byte("HE")) // half a message, then gone
		c.Close()
		alive("after disconnects")
		require.Eventually(t, func() bool {
			return len(abandoned.FindAllString(stderr.String(), -1)) >= 3
		}, 5*time.Second, 10*time.Millisecond, "each abandoned session is reported on stderr, with its label: %s", stderr.String())
	})

	t.Run("silent client is dropped after --timeout", func(t *testing.T) {
		c := dial()
		defer c.Close()
		exchange(c, "HELO")
		require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
		_, err := c.Read(make([]byte, 8))
		assert.ErrorIs(t, err, io.EOF, "dsmock closes a connection silent for --timeout")
		alive("after a silent client")
	})

	t.Run("a good client still gets the reference summary", func(t *testing.T) {
		c, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{})
		require.NoError(t, err)
		defer c.Close()
		st, err := strategies.New("ff", nil)
		require.NoError(t, err)
		_, err = client.Run(st, c, client.Options{User: "root", System: func(client.Backend) (*servertypes.System, error) {
			return servertypes.Load(filepath.Join(work, "ds-system.xml"))
		}})
		require.NoError(t, err)
		require.Eventually(t, func() bool { return strings.Contains(stdout.String(), string(want)) }, 5*time.Second, 10*time.Millisecond,
			"the reference summary of sample-config01 with ff")
		assert.Equal(t, 1, strings.Count(stdout.String(), "[ Summary ]"), "only the completed session reports")
		// Each session's log comes after its label: the summary's is the
		// last label before it.
		out := stdout.String()
		before := out[:strings.Index(out, "[ Summary ]")]
		assert.Regexp(t, `(?m)^# session \d+ \(client 127\.0\.0\.1:\d+\)$`, before[strings.LastIndex(before, "\n# session"):])
		assert.GreaterOrEqual(t, strings.Count(out, "\n# session "), 7, "one label per session: %s", out)

		// The run viewer reads this output as its runs: the good client's
		// whole, the sessions abandoned mid-run left out and named.
		cfg, err := mocksrv.LoadConfig(filepath.Join(work, "config.xml"), mocksrv.LoadOptions{})
		require.NoError(t, err)
		logs, err := viewer.ParseLogs("serve.out", strings.NewReader(out), cfg)
		require.NoError(t, err)
		require.Len(t, logs.Runs, 1)
		assert.Regexp(t, `^session \d+$`, logs.Runs[0].Part)
		assert.Contains(t, string(want), "total cost: $"+logs.Runs[0].LogCost+"\n")
		require.NotEmpty(t, logs.Left, "the sessions that disconnected mid-run")
		for _, c := range logs.Left {
			assert.Regexp(t, `^serve.out:\d+: session \d+: the log (ends before|shows no job)`, c.Error())
		}
	})

	// Interrupting --serve ends it with status 0.
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	select {
	case err := <-exited:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("dsmock --serve did not stop on SIGINT")
	}
	exited <- nil // for the cleanup
	assert.NotRegexp(t, regexp.MustCompile(`panic|goroutine \d+`), stderr.String())
}

// TestBlackBoxServeNewlineOversize: in -n mode a line longer than 64 KiB
// (a client that never sends '\n') ends that session; the process stays up
// and serves the next client.
func TestBlackBoxServeNewlineOversize(t *testing.T) {
	bin := buildDsmock(t)
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	port := freeTestPort(t)
	var stderr syncBuffer
	cmd := exec.Command(bin, "-c", cfg, "-n", "-p", port, "--serve")
	cmd.Dir = t.TempDir()
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	addr := "127.0.0.1:" + port
	waitDial(t, addr)

	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	go c.Write(bytes.Repeat([]byte("A"), 200<<10)) // no newline, ever
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err = io.ReadAll(c)
	// Closed with unread input, the socket may be reset rather than shut.
	if err != nil {
		require.ErrorIs(t, err, syscall.ECONNRESET, "the session is closed, not left hanging")
	}

	c2, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c2.Close()
	r := bufio.NewReader(c2)
	for _, m := range []string{"HELO\n", "AUTH x\n", "REDY\n"} {
		_, err := c2.Write([]byte(m))
		require.NoError(t, err)
		require.NoError(t, c2.SetReadDeadline(time.Now().Add(5*time.Second)))
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		assert.NotContains(t, line, "ERR")
	}
	assert.Contains(t, stderr.String(), "longer than 64 KiB")
}

func freeTestPort(t *testing.T) string {
	t.Helper()
	// The project's one port picker: in DSSIM_PORTS when set, else above
	// the Linux ephemeral range (32768-60999), which no outgoing
	// connection can hold.
	r, err := ports.FromEnv()
	require.NoError(t, err)
	if r == (ports.Range{}) {
		r = ports.Range{Lo: 61000, Hi: 65499}
	}
	p, err := r.FreePort()
	require.NoError(t, err)
	return strconv.Itoa(p)
}

func waitDial(t *testing.T, addr string) {
	t.Helper()
	// --serve accepts many connections, so probing by connecting is fine.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("dsmock did not listen on %s", addr)
}
