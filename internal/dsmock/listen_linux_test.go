//go:build linux

package dsmock

import (
	"io"
	"net"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// dsServerListener is a listening socket as ds-server sets it up, made
// with raw system calls (a Go listener sets SO_REUSEADDR, which hides the
// case): SO_REUSEPORT alone, what ds-server's SO_REUSEADDR | SO_REUSEPORT
// option number comes to on Linux.
func dsServerListener(t *testing.T, port int) int {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	require.NoError(t, err)
	require.NoError(t, unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR|unix.SO_REUSEPORT, 1))
	require.NoError(t, unix.Bind(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}))
	require.NoError(t, unix.Listen(fd, 1))
	return fd
}

// dsServerRun is one ds-server run on its listener fd: a client connects,
// the server sends QUIT and closes its end first, so that the connection's
// TIME-WAIT is on the server's side, on the listening port, with the
// listener's options. The listener is closed after it, as ds-server exits.
func dsServerRun(t *testing.T, fd, port int) {
	t.Helper()
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	require.NoError(t, err)
	defer c.Close()
	nfd, _, err := unix.Accept(fd)
	require.NoError(t, err)
	_, err = unix.Write(nfd, []byte("QUIT"))
	require.NoError(t, err)
	require.NoError(t, unix.Close(nfd))
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err = io.ReadAll(c)
	require.NoError(t, err)
	c.Close()
	require.Eventually(t, func() bool { return timeWaitOn(t, port) }, 5*time.Second, 10*time.Millisecond,
		"the server's end of the connection is in TIME-WAIT on port %d", port)
}

// TestRebindAfterDsServer: right after a ds-server run on a port, dsmock
// -p on the same port binds and serves (it failed with "address already in
// use" for about a minute), as a second ds-server does.
func TestRebindAfterDsServer(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	port := freeTestPort(t)
	p, err := strconv.Atoi(port)
	require.NoError(t, err)
	fd := dsServerListener(t, p)
	dsServerRun(t, fd, p)
	require.NoError(t, unix.Close(fd))
	addr, stdout, stderr, code := startOn(t, "-c", cfg, "-p", port)
	shortSession(t, addr.String())
	require.Equal(t, 0, <-code, stderr.String())
	assert.Contains(t, stdout.String(), "[ Summary ]")
}

// TestNoSharingALiveListener: a ds-server still listening on the port (its
// listener has SO_REUSEPORT, which a dsmock setting it too could share,
// splitting the clients between them) keeps dsmock out, with or without
// connections of its earlier runs in TIME-WAIT there, and the message says
// that a program listens on the port.
func TestNoSharingALiveListener(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	t.Chdir(t.TempDir())
	for _, withTimeWait := range []bool{false, true} {
		port := freeTestPort(t)
		p, err := strconv.Atoi(port)
		require.NoError(t, err)
		fd := dsServerListener(t, p)
		if withTimeWait {
			dsServerRun(t, fd, p)
		}
		var out, errb syncBuffer
		code := make(chan int, 1)
		go func() {
			code <- run([]string{"dsmock", "-c", cfg, "-p", port}, &out, &errb, nil, false)
		}()
		select {
		case c := <-code:
			assert.Equal(t, 1, c)
			assert.Contains(t, errb.String(), "address already in use (a program listens on it: a ds-server or a dsmock still running?)")
		case <-time.After(10 * time.Second):
			t.Fatalf("dsmock shares port %s with a live listener (TIME-WAIT too: %v)", port, withTimeWait)
		}
		require.NoError(t, unix.Close(fd))
	}
}

func TestPortOccupants(t *testing.T) {
	table := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:C350 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0
   1: 0100007F:C350 0100007F:A000 06 00000000:00000000 03:00000F9E 00000000     0        0 0 3 0000000000000000
   2: 0100007F:C350 0100007F:A001 06 00000000:00000000 03:00000F9E 00000000     0        0 0 3 0000000000000000
   3: 0100007F:C350 0100007F:A002 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000
   4: 0100007F:A003 0100007F:C350 06 00000000:00000000 03:00000F9E 00000000     0        0 0 3 0000000000000000
   5: garbage
`
	assert.Equal(t, occupants{timeWait: 2, listening: 1, other: 1}, portOccupants([]byte(table), 50000))
	assert.Equal(t, occupants{timeWait: 1}, portOccupants([]byte(table), 0xA003))
	assert.Equal(t, occupants{}, portOccupants([]byte(table), 1))
}

// FuzzPortOccupants: any table is read without a panic, and each row
// counts once at most.
func FuzzPortOccupants(f *testing.F) {
	f.Add([]byte("   0: 0100007F:C350 00000000:0000 0A 0\n   1: 0100007F:C350 0100007F:A000 06 0\n"), 50000)
	f.Add([]byte("sl local rem st\n 0: 00000000000000000000000000000000:1F90 00:0 01\n"), 8080)
	f.Fuzz(func(t *testing.T, table []byte, port int) {
		o := portOccupants(table, port)
		rows := len(splitLines(table))
		if o.timeWait < 0 || o.listening < 0 || o.other < 0 || o.timeWait+o.listening+o.other > rows {
			t.Fatalf("%+v from %d rows", o, rows)
		}
	})
}

func splitLines(b []byte) []string {
	var out []string
	start := 0
	for i, c := range b {
		if c == '\n' {
			out = append(out, string(b[start:i]))
			start = i + 1
		}
	}
	return append(out, string(b[start:]))
}
