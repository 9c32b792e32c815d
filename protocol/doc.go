// Package protocol is the ds-sim wire protocol as typed Go values: the events
// ds-server sends in reply to REDY (JOBN, JOBP, JCPL, RESF, RESR, CHKQ, NONE),
// the records of its DATA exchanges (GETS, LSTJ, LSTQ), the actions a client
// takes (SCHD, ENQJ, DEQJ, MIGJ, KILJ, TERM, PSHJ), and a Client that speaks
// the protocol over a connection in either framing mode.
//
// Every type formats itself exactly as it travels on the wire (String) and
// every wire form parses back into its type, so the simulator (mocksrv) and
// the client share one definition of each message.
//
// The behaviour follows ../shared/docs/ds-server.md (cited as "ds-server.md
// §N"); the JOBN field order is the 4-Apr-2025 server's:
// JOBN jobID submitTime cores memory disk estRunTime.
package protocol
