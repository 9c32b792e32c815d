package dsmock

import (
	"bytes"
	"strconv"
)

// TCP states in the kernel's socket tables (/proc/net/tcp's "st" column).
const (
	tcpStateTimeWait = 0x06
	tcpStateListen   = 0x0A
)

// occupants is what holds a TCP port, as the kernel's tables show it.
type occupants struct {
	timeWait, listening, other int
}

// portOccupants counts the sockets whose local port is port in a
// /proc/net/tcp or tcp6 table, by state. Each row after the header is
// "sl: local_address rem_address st ...", an address being HEX:HEXPORT
// and st two hex digits; rows of another shape are skipped (the table's
// layout is the kernel's, not ours to refuse). A connection to the port
// from elsewhere on this machine (its remote port) is no occupant.
func portOccupants(table []byte, port int) occupants {
	var o occupants
	for _, line := range bytes.Split(table, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) < 4 {
			continue
		}
		i := bytes.LastIndexByte(f[1], ':')
		if i < 0 {
			continue
		}
		p, err := strconv.ParseUint(string(f[1][i+1:]), 16, 16)
		if err != nil || int(p) != port {
			continue
		}
		st, err := strconv.ParseUint(string(f[3]), 16, 8)
		switch {
		case err != nil:
			continue
		case st == tcpStateTimeWait:
			o.timeWait++
		case st == tcpStateListen:
			o.listening++
		default:
			o.other++
		}
	}
	return o
}

func (o *occupants) add(p occupants) {
	o.timeWait += p.timeWait
	o.listening += p.listening
	o.other += p.other
}
