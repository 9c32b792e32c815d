package engine

import "strconv"

// rcode names one of ds-server's refusals; Refusal.Text gives its exact
// wire text (ds-server.md §5, §5.17). The engine reports refusals as codes
// so that the in-process Session formats the client's message only when a
// command is refused.
type rcode uint8

const (
	rNone          rcode = iota
	rNoWaitingJob        // SCHD §5.4
	rNoServerType        // SCHD
	rServerOOB           // SCHD
	rUnavailable         // SCHD
	rIncapable           // SCHD
	rEnqSyntax           // ENQJ §5.5
	rNoQueue             // ENQJ
	rNoJobToEnq          // ENQJ
	rDeqSyntax           // DEQJ §5.6
	rDeqNoJob            // DEQJ: a = qID (s when not numeric), b = |GQ|
	rLSTQ                // §5.7
	rLSTJ                // §5.8
	rCNTJ                // §5.9
	rEJWT                // §5.10
	rMIGJ                // §5.11: ERR: <msg>!
	rMigSelf             // MIGJ to itself
	rMigNoJob            // a = job id, s = "type id"
	rMigCompleting       // a = job id, b = clock
	rKILJ                // §5.12
	rTERM                // §5.13
	rGETS                // §5.3
	rInvalid             // §5.1: no command matches
	rPSHJStuck           // §5.14: a = job id, b = clock
	rPSHJNotHead         // PSHJ while lastJobSent is not in SQ (reference asserts)
	rAlloc               // SCHM: allocMem missing or outside 100 … the job's memory (memory extension)
)

// Refusal is a refused command: its Text is ds-server's exact reply (most
// begin with "ERR"). The zero value is no refusal.
type Refusal struct {
	code rcode
	a, b int
	s    string
}

func (r Refusal) ok() bool { return r.code == rNone }

// Text returns the reply for a refused command msg (the client's message
// without the newline of -n mode).
func (r Refusal) Text(msg string) string {
	switch r.code {
	case rNoWaitingJob:
		return "ERR: No such waiting job exists"
	case rNoServerType:
		return "ERR: No such server type exists"
	case rServerOOB:
		return "ERR: No such server exists (server id: out of bound)"
	case rUnavailable:
		return "ERR: The specified server unavailable"
	case rIncapable:
		return "ERR: Server incapable of running such a job"
	case rEnqSyntax:
		return "ERR: invalid syntax (ENQJ queue_name)!"
	case rNoQueue:
		return "ERR: no such queue exists (" + msg + ")!"
	case rNoJobToEnq:
		return "ERR: no job to enqueue!"
	case rDeqSyntax:
		return "ERR: invalid syntax (DEQJ queue_name q_ID)!"
	case rDeqNoJob:
		q := r.s
		if q == "" {
			q = strconv.Itoa(r.a)
		}
		return "ERR: no job in the queue ID of " + q + " (current Q length: " + strconv.Itoa(r.b) + ")!"
	case rLSTQ:
		return "ERR: invalid queued job listing query (" + msg + ")!"
	case rLSTJ:
		return "ERR: invalid job listing query (" + msg + ")!"
	case rCNTJ:
		return "ERR: invalid job count query (" + msg + ")!"
	case rEJWT:
		return "ERR: invalid estimated waiting time query (" + msg + ")!"
	case rMIGJ:
		return "ERR: " + msg + "!"
	case rMigSelf:
		return "ERR: Cannot migrate to itself (" + msg + ")!"
	case rMigNoJob:
		return "ERR: No such job (" + strconv.Itoa(r.a) + ") on " + r.s + " (" + msg + ")!"
	case rMigCompleting:
		return "ERR: Job " + strconv.Itoa(r.a) + " cannot be migrated as it is completing at " +
			strconv.Itoa(r.b) + " (NOW) (" + msg + ")!"
	case rKILJ:
		return "ERR: invalid job termination command (" + msg + ")!"
	case rTERM:
		return "ERR: invalid server termination command (" + msg + ")!"
	case rGETS:
		return "ERR: invalid resource information query (" + msg + ")!"
	case rInvalid:
		return "ERR: invalid command (" + msg + ")"
	case rPSHJStuck:
		// Not an ERR: ds-server's text, with a newline inside the message (§5.14).
		return "Error: simulation can't continue at Job " + strconv.Itoa(r.a) + " at " + strconv.Itoa(r.b) + "\n"
	case rAlloc:
		// The project's text (estimation.md Part E item 4), not ds-server's.
		return "ERR: invalid allocation (" + msg + ")!"
	case rPSHJNotHead:
		return "ERR: PSHJ: the job last sent is no longer waiting to be scheduled (" + msg + ")!"
	}
	return ""
}
