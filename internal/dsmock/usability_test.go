package dsmock

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startOn runs dsmock with args as given (no port added) and waits until
// it listens.
func startOn(t *testing.T, args ...string) (addr net.Addr, stdout, stderr *syncBuffer, code <-chan int) {
	t.Helper()
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	addrc := make(chan net.Addr, 1)
	ch := make(chan int, 1)
	go func() {
		ch <- run(append([]string{"dsmock"}, args...), stdout, stderr, func(a net.Addr) { addrc <- a }, false)
	}()
	select {
	case a := <-addrc:
		return a, stdout, stderr, ch
	case c := <-ch:
		t.Fatalf("dsmock %q exited %d: %s", args, c, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("dsmock did not start")
	}
	return nil, nil, nil, nil
}

// shortSession runs HELO, AUTH, REDY, QUIT and then waits for dsmock to
// close the connection before closing its own end: dsmock closes first,
// so its end of the connection stays in TIME-WAIT on the port.
func shortSession(t *testing.T, addr string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	buf := make([]byte, 256)
	for _, m := range []string{"HELO", "AUTH x", "REDY", "QUIT"} {
		_, err := c.Write([]byte(m))
		require.NoError(t, err)
		n, err := c.Read(buf)
		require.NoError(t, err, "reply to %s", m)
		if m == "QUIT" {
			require.Equal(t, "QUIT", string(buf[:n]))
		}
	}
	_, err = c.Read(buf)
	require.ErrorIs(t, err, io.EOF, "dsmock closes after QUIT")
}

// timeWaitOn reports whether a TCP connection whose local port is port is
// in TIME-WAIT (Linux's /proc/net/tcp and tcp6; state 06).
func timeWaitOn(t *testing.T, port int) bool {
	want := fmt.Sprintf(":%04X ", port)
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) > 3 && strings.HasSuffix(fields[1]+" ", want) && fields[3] == "06" {
				fh.Close()
				return true
			}
		}
		fh.Close()
	}
	return false
}

// TestRebindRightAfterARun: a run on a port, then dsmock -p on the same
// port at once, while the first run's connection is in TIME-WAIT on it:
// it binds (as ds-server, whose socket has SO_REUSEADDR, does) and serves.
// Both listen on the loopback interface by default.
func TestRebindRightAfterARun(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	port := freeTestPort(t)
	for run := 1; run <= 2; run++ {
		addr, stdout, stderr, code := startOn(t, "-c", cfg, "-p", port)
		tcp := addr.(*net.TCPAddr)
		assert.True(t, tcp.IP.Equal(net.IPv4(127, 0, 0, 1)), "run %d listens on %v, want loopback", run, addr)
		shortSession(t, addr.String())
		require.Equal(t, 0, <-code, "run %d: %s", run, stderr.String())
		assert.Contains(t, stdout.String(), "[ Summary ]")
		if run == 1 && runtime.GOOS == "linux" {
			// The connection enters TIME-WAIT when dsmock's end gets the
			// test's FIN, which the kernel may handle a moment after
			// close returns: wait for it rather than look once.
			require.Eventually(t, func() bool { return timeWaitOn(t, tcp.Port) }, 5*time.Second, 10*time.Millisecond,
				"the first run left its connection in TIME-WAIT on port %s", port)
		}
	}
}

// TestListenOption: --listen chooses the interface; a port in it, or an
// empty address, is refused before loading anything.
func TestListenOption(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	addr, _, _, code := startOn(t, "-c", cfg, "-p", "0", "--listen", "0.0.0.0")
	assert.True(t, addr.(*net.TCPAddr).IP.IsUnspecified(), "%v", addr)
	shortSession(t, "127.0.0.1:"+fmt.Sprint(addr.(*net.TCPAddr).Port))
	assert.Equal(t, 0, <-code)

	for _, bad := range []string{"127.0.0.1:50000", ""} {
		var out, errb syncBuffer
		got := run([]string{"dsmock", "-c", cfg, "--listen", bad}, &out, &errb, nil, false)
		assert.Equal(t, 1, got)
		assert.Contains(t, errb.String(), "dsmock: --listen")
	}
}

// TestHelpOption: --help prints the usage and exits 0 (ds-server's -h
// topic form keeps ds-server's status 1).
func TestHelpOption(t *testing.T) {
	var out, errb syncBuffer
	assert.Equal(t, 0, run([]string{"dsmock", "--help"}, &out, &errb, nil, false))
	assert.True(t, strings.HasPrefix(out.String(), "Usage: dsmock -c config.xml [options]\n"), out.String())
	assert.Contains(t, out.String(), "--listen addr")
	assert.Empty(t, errb.String())
}

// TestConfigErrorNamesTheAttribute: ds-server's own lines for a bad config
// (stderr, then the Usage line on stdout), then one line of dsmock's that
// names the file, the element and the attribute; a number with trailing
// garbage is read as ds-server reads it, with a warning that says so.
func TestConfigErrorNamesTheAttribute(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtureDir(t, "sample-config01"), "config.xml"))
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	for _, f := range []string{"jobs.xml"} {
		data, err := os.ReadFile(filepath.Join(fixtureDir(t, "sample-config01"), f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(f, data, 0o644))
	}
	first := strings.Index(string(src), `cores="`)
	require.Positive(t, first)
	end := first + len(`cores="`) + strings.IndexByte(string(src[first+len(`cores="`):]), '"')
	edit := func(name, cores string) string {
		data := string(src[:first]) + `cores="` + cores + string(src[end:])
		require.NoError(t, os.WriteFile(name, []byte(data), 0o644))
		return name
	}

	var out, errb syncBuffer
	bad := edit("bad.xml", "0")
	assert.Equal(t, 1, run([]string{"dsmock", "-c", bad}, &out, &errb, nil, false))
	assert.Equal(t, "Usage: dsmock -h all\n", out.String())
	lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
	require.Len(t, lines, 3, errb.String())
	assert.Equal(t, "0: Out of bound! (1 - 1024); Core count limit", lines[0], "ds-server's line first")
	assert.Equal(t, "Configuration file (bad.xml) invalid!", lines[1])
	assert.Regexp(t, `^dsmock: bad\.xml: <server> 1 \(\w+\): attribute cores: 0: Out of bound! \(1 - 1024\); Core count limit$`, lines[2])

	lax := edit("lax.xml", "2x")
	addr, _, stderr, code := startOn(t, "-c", lax, "-p", "0")
	assert.Regexp(t, `^dsmock: warning: lax\.xml: <server> 1 \(\w+\): attribute cores: "2x" is read as 2, as ds-server does \(it ignores "x"\)\n$`, stderr.String())
	shortSession(t, addr.String())
	assert.Equal(t, 0, <-code)

	// An unknown -v word: ds-server ignores it; dsmock too, with a warning.
	addr, stdout, stderr, code := startOn(t, "-c", "lax.xml", "-p", "0", "-v", "loud")
	assert.Contains(t, stderr.String(), "dsmock: warning: -v loud: not a verbosity ds-server knows (all, brief, jobs or stats, + for more detail): ignored, as ds-server ignores it\n")
	shortSession(t, addr.String())
	assert.Equal(t, 0, <-code)
	assert.NotContains(t, stdout.String(), "RCVD", "no log, as without -v")
}

// TestNaNRateWarning: a config whose rate is NaN runs, as on ds-server,
// and dsmock says on stderr, once, that every cost on the type is NaN and
// that clients refuse the rate; stdout stays ds-server's.
func TestNaNRateWarning(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtureDir(t, "sample-config01"), "config.xml"))
	require.NoError(t, err)
	jobs, err := os.ReadFile(filepath.Join(fixtureDir(t, "sample-config01"), "jobs.xml"))
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("jobs.xml", jobs, 0o644))
	rate := regexp.MustCompile(`hourlyRate="[^"]*"`)
	first := rate.FindIndex(src)
	require.NotNil(t, first)
	data := string(src[:first[0]]) + `hourlyRate="nan"` + string(src[first[1]:])
	require.NoError(t, os.WriteFile("nan.xml", []byte(data), 0o644))

	addr, stdout, stderr, code := startOn(t, "-c", "nan.xml", "-p", "0")
	assert.Regexp(t, `^dsmock: warning: nan\.xml: <server> 1 \(\w+\): attribute hourlyRate: "nan" is NaN: ds-server runs the config, but every cost on the type is NaN or infinite, and dsclient and dsbench refuse such a rate\n$`, stderr.String())
	shortSession(t, addr.String())
	assert.Equal(t, 0, <-code)
	assert.NotContains(t, stdout.String(), "warning")
}

// TestIgnoredOptionWarnings: -r, -j and -d that the run leaves without
// effect get a warning on stderr each (ds-server, which ignores them the
// same way, says nothing; stdout stays its); -v swallowing an option
// (-v -n) gets a hint in the -v warning.
func TestIgnoredOptionWarnings(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml") // a <config randomSeed> and a job file
	const level = "dsmock: warning: -v -n: not a verbosity ds-server knows (all, brief, jobs or stats, + for more detail): ignored, as ds-server ignores it; did you mean -v all -n?\n"
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"nothing to warn about", []string{"-c", cfg, "-v", "all"}, ""},
		{"seed", []string{"-c", cfg, "-r", "7"}, "dsmock: warning: -r 7 has no effect: the config's randomSeed 1024 overrides it\n"},
		{"job file, conditions", []string{"-c", cfg, "-j", "5", "-d", "100"}, "dsmock: warning: -j 5 has no effect: the jobs come from the config's job file jobs.xml\n" +
			"dsmock: warning: -d 100 has no effect: the config's endtime 604800 overrides it\n"},
		{"--swf", []string{"--swf", swfTrace, "-j", "5"}, "dsmock: warning: -j 5 has no effect: --swf runs the trace's jobs\n"},
		{"-v -n", []string{"-c", cfg, "-v", "-n"}, level},
		{"-v -o, unknown word", []string{"-c", cfg, "-v", "-o"}, strings.ReplaceAll(level, "-n", "-o")},
		{"-v loud", []string{"-c", cfg, "-v", "loud"}, "dsmock: warning: -v loud: not a verbosity ds-server knows (all, brief, jobs or stats, + for more detail): ignored, as ds-server ignores it\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb syncBuffer
			cl := commandLine{argv0: "dsmock", stdout: &out, stderr: &errb}
			st, _, ok := cl.parse(tc.args)
			require.True(t, ok, errb.String())
			_, _, ok = cl.load(st)
			require.True(t, ok, errb.String())
			got := errb.String()
			if st.swf != "" { // after the conversion's own notes
				got = got[strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1:]
			}
			assert.Equal(t, tc.stderr, got)
			assert.Empty(t, out.String())
		})
	}
}
