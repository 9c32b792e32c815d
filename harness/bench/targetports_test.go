package bench

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/ports"
)

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
	require.NoError(t, tg.CheckServerPorts("--ports"))
	for range 20 {
		p, err := tg.serverPort()
		require.NoError(t, err)
		assert.GreaterOrEqual(t, p, ports.ServerLo)
		assert.LessOrEqual(t, p, 49160)
	}
	tg.Ports = ports.Range{Lo: 30000, Hi: 30999}
	assert.EqualError(t, tg.CheckServerPorts("--ports"), "--ports 30000-30999: the server /bin/ds-server takes ports 49152-65535 only, as ds-server does; give a range within it")
	_, err := tg.serverPort()
	assert.Error(t, err)
	for _, srv := range []string{"", ServerDsmock} {
		tg.Server = srv
		assert.NoError(t, tg.CheckServerPorts("--ports"), "the built-in server listens anywhere")
	}
}
