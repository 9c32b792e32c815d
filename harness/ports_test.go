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

	"github.com/dssim-go/dssim-go/harness/ports"
)

// DSSIM_PORTS picks the tests' and dsbench's ports; a bad value is an error
// naming the variable.
func TestEnvPortsAndListen(t *testing.T) {
	lo := freeBlock(t)
	t.Setenv(ports.Env, strconv.Itoa(lo)+"-"+strconv.Itoa(lo+1))
	seen := map[int]bool{}
	var open []net.Listener
	for range 2 {
		l, err := ports.TestListen()
		require.NoError(t, err)
		open = append(open, l)
		seen[l.Addr().(*net.TCPAddr).Port] = true
	}
	assert.Equal(t, map[int]bool{lo: true, lo + 1: true}, seen)
	_, err := ports.TestListen()
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

	t.Setenv(ports.Env, "nonsense")
	_, err = ports.TestListen()
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
	assert.True(t, ports.AddrInUse(err), "the cause is kept: %v", err)

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
	tg := Target{Server: "/bin/ds-server", Ports: ports.Range{Lo: 40000, Hi: 49160}}
	require.NoError(t, tg.checkServerPorts("--ports"))
	for range 20 {
		p, err := tg.serverPort()
		require.NoError(t, err)
		assert.GreaterOrEqual(t, p, ports.ServerLo)
		assert.LessOrEqual(t, p, 49160)
	}
	tg.Ports = ports.Range{Lo: 30000, Hi: 30999}
	assert.EqualError(t, tg.checkServerPorts("--ports"), "--ports 30000-30999: the server /bin/ds-server takes ports 49152-65535 only, as ds-server does; give a range within it")
	_, err := tg.serverPort()
	assert.Error(t, err)
	for _, srv := range []string{"", ServerDsmock} {
		tg.Server = srv
		assert.NoError(t, tg.checkServerPorts("--ports"), "the built-in server listens anywhere")
	}
}
