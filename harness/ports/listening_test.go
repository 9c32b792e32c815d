package ports

import (
	"context"
	"net"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const procSample = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1066 1 000000005b4d561e 100 0 0 10 0
   1: 0100007F:C350 0100007F:AB39 06 00000000:00000000 03:00000C7A 00000000     0        0 0 3 00000000bfb4a8be
   2: 0100007F:C351 0100007F:D43E 01 00000000:00000000 03:000011DF 00000000     0        0 0 3 00000000113f7084
`

const procSample6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:C352 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7 1 0 100 0 0 10 0
`

// TestProcListens: only a LISTEN row on the port counts; a connection in
// TIME-WAIT (06) or ESTABLISHED (01) on it does not, which is what lets
// the harness start a server on a port that a finished run left in
// TIME-WAIT.
func TestProcListens(t *testing.T) {
	for _, c := range []struct {
		table string
		port  int
		want  bool
	}{
		{procSample, 0x07E8, true},
		{procSample, 0xC350, false}, // TIME-WAIT
		{procSample, 0xC351, false}, // ESTABLISHED
		{procSample, 0x07E9, false},
		{procSample6, 0xC352, true},
		{"", 0x07E8, false},
		{"garbage\n 0: nocolon x 0A\n", 0, false},
	} {
		assert.Equal(t, c.want, procListens([]byte(c.table), c.port), "port %d in %.40q", c.port, c.table)
	}
}

// TestListeningOnRealSockets: the kernel's tables show a listener on the
// loopback address and on every IPv6 address, and not after it closed.
func TestListeningOnRealSockets(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel's socket tables are read on Linux only")
	}
	for _, addr := range []string{"127.0.0.1:0", "[::]:0"} {
		l, err := net.Listen("tcp", addr)
		if err != nil && strings.HasPrefix(addr, "[") {
			continue // no IPv6 here
		}
		require.NoError(t, err)
		port := l.Addr().(*net.TCPAddr).Port
		on, ok := listeningOn(port)
		assert.True(t, ok)
		assert.True(t, on, "listener on %v not seen", l.Addr())
		l.Close()
		on, _ = listeningOn(port)
		assert.False(t, on, "closed listener on %v still seen", l.Addr())
	}
}

// FuzzProcListens: any table, any port: no panic, and a yes needs a LISTEN
// state column somewhere in the table.
func FuzzProcListens(f *testing.F) {
	f.Add([]byte(procSample), 0x07E8)
	f.Add([]byte(procSample6), 0xC352)
	f.Fuzz(func(t *testing.T, table []byte, port int) {
		if procListens(table, port) && !strings.Contains(string(table), tcpListen) {
			t.Fatalf("LISTEN found in a table without %q", tcpListen)
		}
	})
}

// TestWaitListeningDoesNotBind: on Linux, waiting for a server reads the
// kernel's tables and never binds the port (a bind probe could take the
// port from the server at the instant it binds), and it sees the server
// once it listens. Before, every poll bound the port.
func TestWaitListeningDoesNotBind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel's socket tables are read on Linux only")
	}
	probes := 0
	old := bindProbe
	bindProbe = func(port int) (bool, error) { probes++; return old(port) }
	defer func() { bindProbe = old }()

	port, err := freePort()
	require.NoError(t, err)
	ready := make(chan net.Listener, 1)
	go func() {
		time.Sleep(100 * time.Millisecond)
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			l = nil
		}
		ready <- l
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, WaitListening(ctx, port, nil))
	l := <-ready
	require.NotNil(t, l, "the server could not bind port %d", port)
	l.Close()
	assert.Zero(t, probes, "WaitListening bound the port %d times", probes)
}
