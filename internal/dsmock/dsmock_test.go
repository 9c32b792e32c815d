package dsmock

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

func TestGetopt(t *testing.T) {
	long := map[string]bool{"serve": false, "timeout": true}
	cases := []struct {
		args []string
		want []opt
		err  string
	}{
		{[]string{"-c", "x.xml", "-v", "brief", "-p", "50000"}, []opt{{"c", "x.xml"}, {"v", "brief"}, {"p", "50000"}}, ""},
		{[]string{"-nvall"}, []opt{{"n", ""}, {"v", "all"}}, ""},
		{[]string{"-no", "-v", "all+"}, []opt{{"n", ""}, {"o", ""}, {"v", "all+"}}, ""},
		{[]string{"stray", "-n", "--", "-o"}, []opt{{"n", ""}}, ""},
		{[]string{"--serve", "--timeout=3s", "--timeout", "4s"}, []opt{{"serve", ""}, {"timeout", "3s"}, {"timeout", "4s"}}, ""},
		{[]string{"-x"}, nil, "Unknown option `-x'."},
		{[]string{"-v"}, nil, "Option -v requires an argument."},
		{[]string{"-h"}, nil, "Option -h requires an argument."},
		{[]string{"--bogus"}, nil, "Unknown option `--bogus'."},
		{[]string{"--serve=1"}, nil, "Option --serve takes no argument."},
		{[]string{"-:"}, nil, "Unknown option `-:'."},
	}
	for _, c := range cases {
		got, err := getopt(c.args, "c:p:nv:d:j:r:f:g:s:ol:b:ih:", long)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: err %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %v %v, want %v", c.args, got, err, c.want)
		}
	}
}

func fixtureDir(t *testing.T, name string) string {
	return filepath.Join(fixtures.Dir(t), "fixtures", name)
}

// TestCommandLineErrors: ds-server's messages and exit statuses.
func TestCommandLineErrors(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	cases := []struct {
		args           []string
		stdout, stderr string
	}{
		{[]string{"-c", cfg, "-p", "80"}, "Usage: ds-server -h all\n", "80: Out of bound! (49152 - 65535); TCP/IP port range\n"},
		{[]string{"-x"}, "Usage: ds-server -h all\n", "Unknown option `-x'.\n"},
		{[]string{"-c"}, "Usage: ds-server -h all\n", "Option -c requires an argument.\n"},
		{[]string{"-c", "/nonexistent.xml"}, "Usage: ds-server -h all\n", "No such file (/nonexistent.xml) exist!\n"},
		{[]string{"-c", cfg, "-b", "3"}, "", "dsmock: -b (break point) is not implemented\n"},
		{[]string{"-c", cfg, "-i"}, "", "dsmock: -i (interactive mode) is not implemented\n"},
		{[]string{"-c", cfg, "-g", "600", "-f", "pl05"}, "Usage: ds-server -h all\n", "dsmock: -g must follow -f MODEL (ds-server crashes when it comes first)\n"},
		{[]string{"-c", cfg, "-s", "50"}, "Usage: ds-server -h all\n", "dsmock: -s must follow -f MODEL (ds-server crashes when it comes first)\n"},
		{[]string{"-l", "0"}, "Usage: ds-server -h all\n", "0: Out of bound! (1 - 1000); Servers per type\n"},
		{[]string{"-f", "pl05", "-g", "3601"}, "Usage: ds-server -h all\n", "3601: Out of bound! (60 - 3600); Server failure time granularity\n"},
		{[]string{"-c", cfg, "-j", "0"}, "Usage: ds-server -h all\n", "0: Out of bound! (1 - 1000000); Max Job count\n"},
		{[]string{"-c", cfg, "--timeout", "soon"}, "", "dsmock: --timeout \"soon\": want a positive duration such as 10m or 30s\n"},
		{[]string{"-c", cfg, "--spin", "-1us"}, "", "dsmock: --spin \"-1us\": want a duration such as 100us, or 0 to turn busy-polling off\n"},
		// Numbers beyond 32 bits wrap as ds-server's int keeps them:
		// 4294967376 is 80, 4294967296 is 0 (they were capped, or kept whole).
		{[]string{"-c", cfg, "-p", "4294967376"}, "Usage: ds-server -h all\n", "80: Out of bound! (49152 - 65535); TCP/IP port range\n"},
		{[]string{"-c", cfg, "-j", "4294967296"}, "Usage: ds-server -h all\n", "0: Out of bound! (1 - 1000000); Max Job count\n"},
		{[]string{"-c", cfg, "--spin", "0", "-p", "1"}, "Usage: ds-server -h all\n", "1: Out of bound! (49152 - 65535); TCP/IP port range\n"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"ds-server"}, c.args...), &out, &errb, nil, false)
		if code != 1 || out.String() != c.stdout || errb.String() != c.stderr {
			t.Errorf("%q: exit %d\nstdout %q\nstderr %q\nwant 1, %q, %q", c.args, code, out.String(), errb.String(), c.stdout, c.stderr)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"ds-server", "-h", "states"}, &out, &errb, nil, false); code != 1 || !strings.Contains(out.String(), "4: unavailable") {
		t.Errorf("-h states: exit %d, %q", code, out.String())
	}
}

// startDsmock runs dsmock in the current directory on a free port.
func startDsmock(t *testing.T, args ...string) (addr string, stdout, stderr *syncBuffer, code <-chan int) {
	t.Helper()
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	addrc := make(chan string, 1)
	ch := make(chan int, 1)
	go func() {
		ch <- run(append([]string{"dsmock"}, append(args, "-p", "0")...), stdout, stderr,
			func(a net.Addr) { addrc <- a.String() }, false)
	}()
	select {
	case a := <-addrc:
		return a, stdout, stderr, ch
	case c := <-ch:
		t.Fatalf("dsmock exited %d: %s", c, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("dsmock did not start")
	}
	return "", nil, nil, nil
}

func runClient(t *testing.T, addr, algo string, framing protocol.Framing) error {
	t.Helper()
	c, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{ConnectTimeout: 5 * time.Second,
		ConnOptions: protocol.ConnOptions{Framing: framing}})
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := strategies.New(algo, nil)
	if err != nil {
		return err
	}
	_, err = client.Run(st, c, client.Options{User: "root", System: func(client.Backend) (*servertypes.System, error) {
		return servertypes.Load("ds-system.xml") // as dsclient does: the file dsmock just wrote
	}})
	return err
}

// TestRunFailureFixture: a whole run as ds-server would do it, in a
// working directory: header, log, report, ds-system.xml and
// ds-res-failures.txt; newline mode too.
func TestRunFailureFixture(t *testing.T) {
	for _, nl := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "newline"}[nl], func(t *testing.T) {
			dir := fixtureDir(t, "ds-sample-config05-failures")
			t.Chdir(t.TempDir())
			for _, f := range []string{"config.xml", "jobs.xml", "failures.txt"} {
				data, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"-c", "config.xml", "-v", "brief"}
			fr := protocol.Plain
			if nl {
				args = append(args, "-n")
				fr = protocol.Newline
			}
			addr, stdout, stderr, code := startDsmock(t, args...)
			if err := runClient(t, addr, "ffq", fr); err != nil {
				t.Fatal(err)
			}
			if c := <-code; c != 0 {
				t.Fatalf("exit %d: %s", c, stderr.String())
			}
			want, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "expected", "ds-sample-config05-failures.ffq.summary"))
			if err != nil {
				t.Fatal(err)
			}
			out := stdout.String()
			if !strings.HasSuffix(out, string(want)) {
				t.Fatalf("stdout does not end with the expected summary:\n%s", out[max(0, len(out)-1500):])
			}
			lines := strings.SplitN(out, "\n", 4)
			if lines[0] != "# ds-sim server "+mocksrv.DefaultYear.Version() ||
				!strings.HasPrefix(lines[1], "# Server-side simulator started with 'dsmock -c config.xml -v brief") ||
				!strings.HasPrefix(lines[2], "# Waiting for connection to port ") {
				t.Fatalf("header:\n%s\n%s\n%s", lines[0], lines[1], lines[2])
			}
			if !strings.Contains(out, "RCVD HELO\nSENT OK\nRCVD AUTH root\n# Welcome  root!\n") {
				t.Fatal("handshake lines missing")
			}
			sys, err := os.ReadFile("ds-system.xml")
			if err != nil || !strings.Contains(string(sys), `<server type="tiny" limit="20" bootupTime="60" hourlyRate="0.10" cores="1" memory="1000" disk="4000" />`) {
				t.Fatalf("ds-system.xml: %v\n%s", err, sys)
			}
			fails, err := os.ReadFile("ds-res-failures.txt")
			if err != nil {
				t.Fatal(err)
			}
			fl := strings.Split(string(fails), "\n")
			if !strings.HasPrefix(fl[0], "#base_trace: failures.txt, config_file: config.xml, total_servers: 100") ||
				fl[1] != "0 803 tiny 5" || fl[2] != "0 584 xlarge 1" || fl[3] != "0 0 tiny 0" {
				t.Fatalf("ds-res-failures.txt starts:\n%s", strings.Join(fl[:5], "\n"))
			}
			if _, err := os.Stat("ds-jobs.xml"); err == nil {
				t.Fatal("ds-jobs.xml written for a job-file config")
			}
		})
	}
}

// TestRunGeneratedJobs: a config that generates its jobs gets ds-jobs.xml
// (with actRunTime under --write-actual) after QUIT.
func TestRunGeneratedJobs(t *testing.T) {
	src := filepath.Join(fixtures.Dir(t), "configs", "sample-config01.xml")
	t.Chdir(t.TempDir())
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("c.xml", data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := mocksrv.LoadConfig("c.xml", mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	addr, _, stderr, code := startDsmock(t, "-c", "c.xml", "--write-actual")
	if err := runClient(t, addr, "bf", protocol.Plain); err != nil {
		t.Fatal(err)
	}
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s", c, stderr.String())
	}
	got, err := os.ReadFile("ds-jobs.xml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, cfg.JobsXML(mocksrv.DefaultYear, true)) || !bytes.Contains(got, []byte("actRunTime=")) {
		t.Fatalf("ds-jobs.xml differs from the loader's JobsXML(true)")
	}
}

// TestRunDisconnect: a client that leaves without QUIT: exit 1, no report,
// no end-of-run files (decision 4).
func TestRunDisconnect(t *testing.T) {
	dir := fixtureDir(t, "ds-sample-config05-failures")
	t.Chdir(t.TempDir())
	for _, f := range []string{"config.xml", "jobs.xml", "failures.txt"} {
		data, _ := os.ReadFile(filepath.Join(dir, f))
		os.WriteFile(f, data, 0o644)
	}
	addr, stdout, stderr, code := startDsmock(t, "-c", "config.xml")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	for _, m := range []string{"HELO", "AUTH x", "REDY"} {
		c.Write([]byte(m))
		if _, err := c.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	if got := <-code; got != 1 {
		t.Fatalf("exit %d, want 1", got)
	}
	if strings.Contains(stdout.String(), "[ Summary ]") {
		t.Fatal("a report after a disconnect")
	}
	if !strings.Contains(stderr.String(), "disconnected without QUIT") {
		t.Fatalf("stderr %q", stderr.String())
	}
	if _, err := os.Stat("ds-res-failures.txt"); err == nil {
		t.Fatal("ds-res-failures.txt written after a disconnect")
	}
}

// TestRunDisconnectAfterNone: a client that leaves without QUIT is told,
// when it had NONE, that QUIT brings the report; before NONE the message
// is the plain one.
func TestRunDisconnectAfterNone(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		name   string
		toNone bool
		stderr string
	}{
		{"after NONE", true, "dsmock: the client disconnected without QUIT; send QUIT after NONE to get the end-of-simulation report\n"},
		{"before NONE", false, "dsmock: the client disconnected without QUIT\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, stdout, stderr, code := startDsmock(t, "-c", cfg, "-n")
			c, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
			r := bufio.NewReader(c)
			tx := func(m string) string {
				_, err := c.Write([]byte(m + "\n"))
				require.NoError(t, err)
				line, err := r.ReadString('\n')
				require.NoError(t, err)
				return strings.TrimSuffix(line, "\n")
			}
			tx("HELO")
			tx("AUTH x")
			for m := tx("REDY"); tc.toNone && m != "NONE"; m = tx("REDY") {
				if f := strings.Fields(m); f[0] == "JOBN" {
					require.Equal(t, "OK", tx("SCHD "+f[1]+" super-silk 0"))
				}
			}
			c.Close()
			assert.Equal(t, 1, <-code)
			assert.Equal(t, tc.stderr, stderr.String())
			assert.NotContains(t, stdout.String(), "[ Summary ]")
		})
	}
}

// TestRunBadHandshake: the reference crashes; dsmock replies ERR, exits 1.
// stderr has ds-server's line once, then dsmock's own with the message
// quoted (a newline in it would otherwise make it look right) and the
// likely framing mismatch; a plain client against -n gets ds-server's
// "No new line" line and its hint.
func TestRunBadHandshake(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		name   string
		flags  []string
		msg    string
		reply  string
		stderr string
	}{
		{"other word", nil, "HELLO", "ERR", "ERR: invalid message (HELLO)!\n" +
			"dsmock: the client's first message was \"HELLO\", not \"HELO\"\n"},
		{"newline client", nil, "HELO\n", "ERR", "ERR: invalid message (HELO\n)!\n" +
			"dsmock: the client's first message was \"HELO\\n\", not \"HELO\": does the client end messages with a newline while dsmock runs without -n?\n"},
		{"windows client", []string{"-n"}, "HELO\r\n", "ERR\n", "ERR: invalid message (HELO\r)!\n" +
			"dsmock: the client's first message was \"HELO\\r\\n\", not \"HELO\\n\": does the client end messages with Windows line ends (\\r\\n)? -n expects \\n alone\n"},
		{"plain client against -n", []string{"-n"}, "HELO", "", "No new line character at the end of HELO!\n" +
			"dsmock: the client's message \"HELO\" does not end with \\n: does the client end each message with \\n? (-n expects it)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, _, stderr, code := startDsmock(t, append([]string{"-c", cfg}, tc.flags...)...)
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.Write([]byte(tc.msg))
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			buf := make([]byte, 16)
			n, _ := c.Read(buf)
			if string(buf[:n]) != tc.reply {
				t.Fatalf("reply %q, want %q", buf[:n], tc.reply)
			}
			if got := <-code; got != 1 || stderr.String() != tc.stderr {
				t.Fatalf("exit %d, stderr\n%q\nwant exit 1, stderr\n%q", got, stderr.String(), tc.stderr)
			}
		})
	}
}

// TestFatalLines: the lines of a session a *Fatal ended, alone (ds-server's
// line exactly, then dsmock's) and in --serve (each naming the session;
// ds-server's line, when already printed, not repeated).
func TestFatalLines(t *testing.T) {
	const who = "session 2 (client 127.0.0.1:5)"
	for _, tc := range []struct {
		name string
		f    mocksrv.Fatal
		who  string
		want []string
	}{
		{"logged, alone", mocksrv.Fatal{Msg: "ERR: invalid message (x)!", Logged: true, Hint: "h"}, "",
			[]string{"dsmock: h"}},
		{"not logged, alone", mocksrv.Fatal{Msg: "No new line character at the end of x!", Hint: "h"}, "",
			[]string{"No new line character at the end of x!", "dsmock: h"}},
		{"no hint, alone", mocksrv.Fatal{Msg: "ds-system.xml: denied"}, "",
			[]string{"ds-system.xml: denied"}},
		{"logged, serve", mocksrv.Fatal{Msg: "ERR: invalid message (x)!", Logged: true, Hint: "h"}, who,
			[]string{"dsmock: " + who + " ended: h"}},
		{"not logged, serve", mocksrv.Fatal{Msg: "No new line character at the end of x!", Hint: "h"}, who,
			[]string{"dsmock: " + who + " ended: No new line character at the end of x!", "dsmock: " + who + ": h"}},
		{"no hint, serve", mocksrv.Fatal{Msg: "ds-system.xml: denied"}, who,
			[]string{"dsmock: " + who + " ended: ds-system.xml: denied"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.f
			if got := fatalLines(&f, tc.who); !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
