// Package strategies holds the scheduling strategies and the contract they
// implement. A Strategy is a small decision over a View of the cluster: it
// never touches a socket, so the same code runs against a real ds-server
// (through dsclient), against dsmock, and in-process against the simulator.
//
// The View's queries map one-to-one to protocol commands (GETS, LSTJ, CNTJ,
// EJWT, LSTQ): a strategy's queries are exactly the messages the client
// sends, in order, which is how the reference baselines reproduce the
// reference client's transcripts byte for byte.
package strategies

import (
	"errors"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
)

// Queries are the protocol exchanges a strategy may make. Each method is
// exactly one command and its reply; an ERR reply is a *protocol.ServerError.
//
// A slice returned by a GETS query is valid only until the next GETS query
// on the same View: the in-process simulator reuses one buffer for them
// (mocksrv.Options.FreshRecords turns that off). A strategy that keeps
// records across GETS queries must copy them.
type Queries interface {
	GetsAll() ([]protocol.Server, error)                               // GETS All
	GetsType(typ string) ([]protocol.Server, error)                    // GETS Type t
	GetsOne(s protocol.ServerRef) (protocol.Server, error)             // GETS One t id
	GetsCapable(r protocol.Requirement) ([]protocol.Server, error)     // GETS Capable c m d
	GetsAvail(r protocol.Requirement) ([]protocol.Server, error)       // GETS Avail c m d
	GetsBounded(r protocol.Requirement) ([]protocol.Server, error)     // GETS Bounded c m d
	ListJobs(s protocol.ServerRef) ([]protocol.JobRecord, error)       // LSTJ t id
	CountJobs(s protocol.ServerRef, st protocol.JobState) (int, error) // CNTJ t id state
	EstWait(s protocol.ServerRef) (int, error)                         // EJWT t id
	QueueLen() (int, error)                                            // LSTQ GQ #
	ListQueue() ([]protocol.QueuedJob, error)                          // LSTQ GQ *
}

// View is what a strategy may see of the cluster while deciding: the
// protocol queries plus what the client knows without asking.
type View interface {
	Queries
	// System is the static description of the server types (ds-system.xml,
	// or GETS All when no file was available).
	System() *servertypes.System
	// Now is the simulation time of the event being handled (the JOBN/JOBP
	// time, the JCPL end time, the RESF/RESR time; for CHKQ the time of the
	// last event that carried one).
	Now() int
	// Excluded lists the servers that refused (ERR) a SCHD for the current
	// job; empty on the first attempt. See Strategy.
	Excluded() []protocol.ServerRef
	// Ledger is the cluster ledger the client keeps for a strategy that
	// embeds WithLedger; nil for every other strategy.
	Ledger() *Ledger
}

// Strategy decides what to do with each server event.
//
// Job is called for every JOBN and JOBP. It returns the actions to take, in
// order; exactly one of them, normally the last, must dispose of the offered
// job (protocol.Schedule for that job, protocol.Enqueue or protocol.Push).
// Other actions (Terminate, Migrate, Kill, Dequeue) may come before it. If a
// Schedule is refused with ERR, the actions after it are dropped, the server
// is added to View.Excluded and Job is called again for the same job; a
// strategy with nothing left returns ErrNoServer (the client then reports
// the error, sends QUIT and exits non-zero).
//
// The client loop (package client) enforces the rest of the contract, and
// each breach ends the run with an error that names it, after QUIT:
//   - a second action disposing of the offered job in one decision;
//   - a Schedule to a server already in View.Excluded for this job (asking
//     again would loop);
//   - actions of which none disposes of the job and none is refused;
//   - with an OutcomeObserver, Job asked again more than MaxOutcomeDepth
//     times without a new server excluded;
//   - a panic in any method (reported with the line it began at).
//
// Event is called for every other event except NONE: JCPL, RESF, RESR and
// CHKQ. It may return actions (a queue strategy answers CHKQ with Dequeue, a
// provisioning strategy terminates idle servers after JCPL) or none; the
// client then sends REDY.
//
// A Strategy value serves one simulation; the registry makes a fresh one per
// run, so it may keep state across jobs.
type Strategy interface {
	Job(v View, job protocol.Job) ([]protocol.Action, error)
	Event(v View, ev protocol.Event) ([]protocol.Action, error)
}

// ErrNoServer is returned by a strategy that finds no server for a job.
var ErrNoServer = errors.New("no server can take the job")

// IgnoreEvents can be embedded by strategies that react to no event other
// than job offers.
type IgnoreEvents struct{}

// Event returns no action.
func (IgnoreEvents) Event(View, protocol.Event) ([]protocol.Action, error) { return nil, nil }

// Sched is shorthand for the single action "schedule job on s".
func Sched(job protocol.Job, s protocol.ServerRef) []protocol.Action {
	return []protocol.Action{protocol.Schedule{JobID: job.ID, Server: s}}
}
