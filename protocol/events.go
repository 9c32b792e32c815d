package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// Job is a job as JOBN/JOBP offer it.
type Job struct {
	ID         int
	Submit     int // JOBN: the submit time; JOBP: the time of the re-offer
	Cores      int
	Memory     int
	Disk       int
	EstRunTime int
}

// Req returns the job's resource requirement.
func (j Job) Req() Requirement { return Requirement{j.Cores, j.Memory, j.Disk} }

// Event is what the server sends in reply to REDY: one of *JobOffer,
// *JobCompleted, *ServerFailed, *ServerRecovered, *CheckQueue, *NoMoreJobs.
// String returns the exact wire text.
type Event interface {
	String() string
	event()
}

// JobOffer is JOBN (a job at its submit time) or JOBP (Resubmitted: a job
// offered again later, after DEQJ or PSHJ).
type JobOffer struct {
	Job
	Resubmitted bool
}

// JobCompleted is JCPL endTime jobID serverType serverID.
type JobCompleted struct {
	Time   int
	JobID  int
	Server ServerRef
}

// ServerFailed is RESF serverType serverID time.
type ServerFailed struct {
	Server ServerRef
	Time   int
}

// ServerRecovered is RESR serverType serverID time.
type ServerRecovered struct {
	Server ServerRef
	Time   int
}

// CheckQueue is CHKQ: nothing can be offered but not every job has completed.
type CheckQueue struct{}

// NoMoreJobs is NONE: every job has completed; the client should QUIT.
type NoMoreJobs struct{}

func (*JobOffer) event()        {}
func (*JobCompleted) event()    {}
func (*ServerFailed) event()    {}
func (*ServerRecovered) event() {}
func (*CheckQueue) event()      {}
func (*NoMoreJobs) event()      {}

func (e *JobOffer) String() string {
	word := "JOBN "
	if e.Resubmitted {
		word = "JOBP "
	}
	return word + joinInts(e.ID, e.Submit, e.Cores, e.Memory, e.Disk, e.EstRunTime)
}

func (e *JobCompleted) String() string {
	return "JCPL " + joinInts(e.Time, e.JobID) + " " + e.Server.String()
}

func (e *ServerFailed) String() string {
	return "RESF " + e.Server.String() + " " + strconv.Itoa(e.Time)
}

func (e *ServerRecovered) String() string {
	return "RESR " + e.Server.String() + " " + strconv.Itoa(e.Time)
}

func (*CheckQueue) String() string { return "CHKQ" }
func (*NoMoreJobs) String() string { return "NONE" }

// ParseEvent parses a reply to REDY. Anything that is not exactly one of the
// seven events, with the right number of integer fields, is an error that
// quotes the message.
func ParseEvent(msg string) (Event, error) {
	f := strings.Fields(msg)
	if len(f) == 0 {
		return nil, fmt.Errorf("empty message where an event was expected")
	}
	bad := func(why string) error { return fmt.Errorf("malformed %s message %q: %s", f[0], msg, why) }
	switch f[0] {
	case "JOBN", "JOBP":
		if len(f) != 7 {
			return nil, bad("want 6 fields")
		}
		n, err := atois(f[1:])
		if err != nil {
			return nil, bad(err.Error())
		}
		return &JobOffer{Job{n[0], n[1], n[2], n[3], n[4], n[5]}, f[0] == "JOBP"}, nil
	case "JCPL":
		if len(f) != 5 {
			return nil, bad("want 4 fields")
		}
		n, err := atois(f[1:3], f[4:5])
		if err != nil {
			return nil, bad(err.Error())
		}
		return &JobCompleted{n[0], n[1], ServerRef{f[3], n[2]}}, nil
	case "RESF", "RESR":
		if len(f) != 4 {
			return nil, bad("want 3 fields")
		}
		n, err := atois(f[2:])
		if err != nil {
			return nil, bad(err.Error())
		}
		ref := ServerRef{f[1], n[0]}
		if f[0] == "RESF" {
			return &ServerFailed{ref, n[1]}, nil
		}
		return &ServerRecovered{ref, n[1]}, nil
	case "CHKQ", "NONE":
		if len(f) != 1 || msg != f[0] {
			return nil, bad("want no fields")
		}
		if f[0] == "CHKQ" {
			return &CheckQueue{}, nil
		}
		return &NoMoreJobs{}, nil
	}
	return nil, fmt.Errorf("unknown server message %q where an event was expected", msg)
}
