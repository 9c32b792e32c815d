package ports

import (
	"bytes"
	"strconv"
)

// tcpListen is the state column's value for LISTEN in /proc/net/tcp.
const tcpListen = "0A"

// procListens reports whether a /proc/net/tcp or tcp6 table has a socket
// in LISTEN state on the port. Each row after the header is
// "sl: local_address rem_address st ...", the address being HEX:HEXPORT;
// rows that do not have that shape are skipped (the table's layout is the
// kernel's, not ours to refuse).
func procListens(table []byte, port int) bool {
	for _, line := range bytes.Split(table, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) < 4 || string(f[3]) != tcpListen {
			continue
		}
		i := bytes.LastIndexByte(f[1], ':')
		if i < 0 {
			continue
		}
		p, err := strconv.ParseUint(string(f[1][i+1:]), 16, 16)
		if err == nil && int(p) == port {
			return true
		}
	}
	return false
}
