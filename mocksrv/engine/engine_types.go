package engine

// The engine's vocabulary. It does not import package protocol (whose
// client does network I/O): its values have the protocol's shapes, and the
// fronts convert (Ref, Req and QueuedJob convert directly).

// mstate is a machine's state (§3.1), with ds-server's numeric codes.
type mstate int

const (
	inactive mstate = iota
	booting
	idle
	active
	unavailable
)

var stateNames = [...]string{"inactive", "booting", "idle", "active", "unavailable"}

// String is the state's name in GETS records and the log.
func (s mstate) String() string { return stateNames[s] }

func (s mstate) powered() bool { return s == booting || s == idle || s == active }

// Job state codes (CNTJ, LSTJ; §0.3).
const (
	jobWaiting   = 1
	jobRunning   = 2
	jobSuspended = 3
	jobCompleted = 4
	jobPreempted = 5
	jobFailed    = 6
	jobKilled    = 7
)

// globalQueue is the name of ds-server's only queue.
const globalQueue = "GQ"

// Ref names one server: its type name and its id (protocol.ServerRef).
type Ref struct {
	Type string
	ID   int
}

// Req is a resource requirement, the arguments of GETS Capable, Avail and
// Bounded (protocol.Requirement).
type Req struct {
	Cores, Memory, Disk int
}

// JobRecord is one LSTJ record (§5.8; protocol.JobRecord).
type JobRecord struct {
	ID, State, Submit, Start, EstRunTime, Cores, Memory, Disk int
}

// QueuedJob is one LSTQ record (§5.7; protocol.QueuedJob).
type QueuedJob struct {
	ID         int
	QID        int
	Submit     int
	Queued     int
	EstRunTime int
	Cores      int
	Memory     int
	Disk       int
}

// appendTo writes the record as LSTQ sends it.
func (q QueuedJob) appendTo(b []byte) []byte {
	return appendInts(b, q.ID, q.QID, q.Submit, q.Queued, q.EstRunTime, q.Cores, q.Memory, q.Disk)
}

func (q QueuedJob) String() string { return string(q.appendTo(nil)) }

// EventKind is the kind of a REDY outcome (§3.2).
type EventKind uint8

// The REDY outcomes.
const (
	EventJob  EventKind = iota // JOBN, or JOBP when Resubmitted
	EventJCPL                  // a job completed
	EventRESF                  // a server failed
	EventRESR                  // a server recovered
	EventCHKQ                  // nothing to offer, jobs left (§3.2 step 7)
	EventNONE                  // every job completed

	// eventSilent is an internal outcome: a memory failure, which sends
	// nothing; redy chooses the next event again (never returned).
	eventSilent
)
