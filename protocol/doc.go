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
// docs/protocol.md describes the protocol; comments cite the sections of the
// specification of ds-server the project was written from ("ds-server.md
// §N"). The JOBN field order is the 2025 and 2026 servers':
// JOBN jobID submitTime cores memory disk estRunTime. GETS records of both
// years are read (ParseServer).
package protocol
