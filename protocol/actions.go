package protocol

import "strconv"

// GlobalQueue is the name of ds-server's only queue.
const GlobalQueue = "GQ"

// Action is a command that changes the simulation: one of Schedule, Enqueue,
// Dequeue, Push, Migrate, Kill, Terminate. String returns the exact wire text.
// Strategies return actions; the client (or the in-process simulator) carries
// them out in order.
type Action interface {
	String() string
	action()
}

// Schedule is SCHD jobID serverType serverID: place the offered job.
type Schedule struct {
	JobID  int
	Server ServerRef
}

// ScheduleMem is SCHM jobID serverType serverID allocMem: place the offered
// job reserving allocMem MB of memory instead of its request. It is not a
// ds-server command (ds-server answers "ERR: invalid command (…)"): it is
// the mock-only allocation command of the dsmock extension
// (estimation.md Part E item 4), which a client detects by sending it once.
type ScheduleMem struct {
	JobID    int
	Server   ServerRef
	AllocMem int
}

// Enqueue is ENQJ GQ: move the offered job to the global queue.
type Enqueue struct{}

// Dequeue is DEQJ GQ qID: move global-queue entry QID back to the head of
// the offer queue; the next REDY offers it again (JOBP).
type Dequeue struct{ QID int }

// Push is PSHJ: push the offered job back, to be offered again later.
type Push struct{}

// Migrate is MIGJ jobID srcType srcID tgtType tgtID: move a waiting or
// running job to another server, where it restarts.
type Migrate struct {
	JobID    int
	From, To ServerRef
}

// Kill is KILJ serverType serverID jobID: kill a job; it goes to the global queue.
type Kill struct {
	Server ServerRef
	JobID  int
}

// Terminate is TERM serverType serverID: switch a server off; its jobs are
// killed to the global queue.
type Terminate struct{ Server ServerRef }

func (Schedule) action()    {}
func (ScheduleMem) action() {}
func (Enqueue) action()     {}
func (Dequeue) action()     {}
func (Push) action()        {}
func (Migrate) action()     {}
func (Kill) action()        {}
func (Terminate) action()   {}

func (a Schedule) String() string { return "SCHD " + strconv.Itoa(a.JobID) + " " + a.Server.String() }
func (a ScheduleMem) String() string {
	return "SCHM " + strconv.Itoa(a.JobID) + " " + a.Server.String() + " " + strconv.Itoa(a.AllocMem)
}
func (Enqueue) String() string   { return "ENQJ " + GlobalQueue }
func (a Dequeue) String() string { return "DEQJ " + GlobalQueue + " " + strconv.Itoa(a.QID) }
func (Push) String() string      { return "PSHJ" }
func (a Migrate) String() string {
	return "MIGJ " + strconv.Itoa(a.JobID) + " " + a.From.String() + " " + a.To.String()
}
func (a Kill) String() string      { return "KILJ " + a.Server.String() + " " + strconv.Itoa(a.JobID) }
func (a Terminate) String() string { return "TERM " + a.Server.String() }

// DisposesJob reports whether a takes the offered job off the offer queue
// (SCHD, SCHM, ENQJ, PSHJ): after one of them the client sends REDY.
func DisposesJob(a Action) bool {
	switch a.(type) {
	case Schedule, ScheduleMem, Enqueue, Push:
		return true
	}
	return false
}

// DisposesOffer reports whether a disposes of the job on offer, id
// offered (negative: none): a SCHD or SCHM of that very job, an ENQJ or a
// PSHJ. A SCHD of another job (one a DEQJ brought back) does not.
func DisposesOffer(a Action, offered int) bool {
	if offered < 0 {
		return false
	}
	switch a := a.(type) {
	case Schedule:
		return a.JobID == offered
	case ScheduleMem:
		return a.JobID == offered
	}
	return DisposesJob(a)
}
