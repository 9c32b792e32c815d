package harness

import (
	"context"
	"net"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePorts(t *testing.T) {
	r, err := ParsePorts("--ports", "50100-50199")
	require.NoError(t, err)
	assert.Equal(t, PortRange{50100, 50199}, r)
	for in, want := range map[string]string{
		"50100":       `--ports "50100": want LO-HI`,
		"a-b":         `--ports "a-b": want LO-HI`,
		"50200-50100": `--ports "50200-50100": want 1 ≤ LO ≤ HI ≤ 65535`,
		"0-10":        `want 1 ≤ LO`,
		"1-70000":     `want 1 ≤ LO ≤ HI ≤ 65535`,
	} {
		_, err := ParsePorts("--ports", in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want)
	}
}

// DSSIM_PORTS picks the tests' and dsbench's ports; a bad value is an error
// naming the variable.
func TestEnvPortsAndListen(t *testing.T) {
	lo := freeBlock(t)
	t.Setenv(PortsEnv, strconv.Itoa(lo)+"-"+strconv.Itoa(lo+1))
	seen := map[int]bool{}
	var open []net.Listener
	for range 2 {
		l, err := TestListen()
		require.NoError(t, err)
		open = append(open, l)
		seen[l.Addr().(*net.TCPAddr).Port] = true
	}
	assert.Equal(t, map[int]bool{lo: true, lo + 1: true}, seen)
	_, err := TestListen()
	assert.ErrorContains(t, err, "no free TCP port in "+strconv.Itoa(lo)+"-"+strconv.Itoa(lo+1))
	for _, l := range open {
		l.Close()
	}

	// dsbench takes its runs' ports there too (and --ports wins over it).
	cmd := script(t, "exit 0\n")
	code, out, _ := runMain("-a", "", "--client", cmd, fixtureConfig(t, "sample-config01"))
	assert.Equal(t, ExitFailure, code)
	assert.Regexp(t, regexp.MustCompile(`without connecting to port (`+strconv.Itoa(lo)+`|`+strconv.Itoa(lo+1)+`)\b`), out)
	code, out, _ = runMain("-a", "", "--ports", strconv.Itoa(lo+1)+"-"+strconv.Itoa(lo+1), "--client", cmd, fixtureConfig(t, "sample-config01"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, out, "without connecting to port "+strconv.Itoa(lo+1)+"\n")

	t.Setenv(PortsEnv, "nonsense")
	_, err = TestListen()
	assert.ErrorContains(t, err, `DSSIM_PORTS "nonsense": want LO-HI`)
	code, _, stderr := runMain("-a", "ff", fixtureConfig(t, "sample-config01"))
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "DSSIM_PORTS")
}

// freeBlock finds two free consecutive ports.
func freeBlock(t *testing.T) int {
	t.Helper()
	for p := 61000; p < 64000; p += 2 {
		a, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		b, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p+1))
		a.Close()
		if err == nil {
			b.Close()
			return p
		}
	}
	t.Fatal("no two free ports")
	return 0
}

// A run on a fixed port waits for the port while something else holds it
// (an outgoing loopback connection or another program's port-0 listener,
// see fixedPortWait), and names the port once the wait is over.
func TestListenFixedWaitsForThePort(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := held.Addr().(*net.TCPAddr).Port
	time.AfterFunc(200*time.Millisecond, func() { held.Close() })
	l, err := listenFixed(context.Background(), port, time.Minute)
	require.NoError(t, err, "the port was freed within the wait")
	assert.Equal(t, port, l.Addr().(*net.TCPAddr).Port)

	// Still held when the wait ends: an error naming the port.
	_, err = listenFixed(context.Background(), port, 100*time.Millisecond)
	assert.ErrorContains(t, err, "port "+strconv.Itoa(port)+" stayed in use for 100ms (a client command with {port} runs on any free port)")
	assert.True(t, addrInUse(err), "the cause is kept: %v", err)

	// A cancelled run stops waiting.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = listenFixed(ctx, port, time.Minute)
	assert.ErrorIs(t, err, context.Canceled)
	l.Close()
}

// A server binary gets ports in ds-server's 49152-65535 only: a range
// reaching into it is narrowed, one outside it refused up front.
func TestServerBinaryPorts(t *testing.T) {
	tg := Target{Server: "/bin/ds-server", Ports: PortRange{Lo: 40000, Hi: 49160}}
	require.NoError(t, tg.checkServerPorts("--ports"))
	for range 20 {
		p, err := tg.serverPort()
		require.NoError(t, err)
		assert.GreaterOrEqual(t, p, minPort)
		assert.LessOrEqual(t, p, 49160)
	}
	tg.Ports = PortRange{Lo: 30000, Hi: 30999}
	assert.EqualError(t, tg.checkServerPorts("--ports"), "--ports 30000-30999: the server /bin/ds-server takes ports 49152-65535 only, as ds-server does; give a range within it")
	_, err := tg.serverPort()
	assert.Error(t, err)
	for _, srv := range []string{"", ServerDsmock} {
		tg.Server = srv
		assert.NoError(t, tg.checkServerPorts("--ports"), "the built-in server listens anywhere")
	}
}
