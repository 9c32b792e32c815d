package strategies

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
)

// Ledger is the client's own picture of the cluster, kept current from the
// events the server sends and the actions that succeeded, with no protocol
// message of its own: a strategy that reads it sends exactly what it
// decides. A strategy opts in by embedding WithLedger; View.Ledger then
// returns the ledger the client keeps for it (nil otherwise).
//
// It mirrors ds-server's per-server state for the jobs the client placed
// (ds-server.md §3–§4): power state, the running jobs with their true start
// times, the FCFS waiting list (no backfilling, §3.5), the resources ds-server
// counts as available, boot completion, and the global queue. Because
// ds-server reports every completion (JCPL) before any later event, the
// running/waiting split is exact at every decision, with these limits:
//
//   - Actual runtimes are unknown until JCPL: a running job's end is
//     predicted as start + estRunTime (Predict), never known in advance.
//   - A failure is known only when RESF arrives; a recovery when RESR does.
//   - Within one completion batch (several jobs ending at the same second),
//     ds-server starts a server's waiting jobs after the batch's last
//     completion on that server; the ledger starts them at each JCPL. The
//     start time is the same, so the state agrees again once the batch has
//     been reported.
//   - When several running jobs are killed at once (TERM, RESF), ds-server
//     queues them in order of their actual end times, which the client cannot
//     know: the ledger orders them by predicted end and marks its queue
//     inexact (QueueExact) until Resync or until the queue is empty.
//   - ds-server completes the rest of a completion batch silently when a
//     JOBP follows a DEQJ after CHKQ (ds-server.md §3.2). The ledger cannot
//     tell which jobs that ended, so it says so: Stale is true from then (and
//     whenever a JCPL names a job it thought was waiting) until Resync.
//   - DEQJ from an inexact queue may take out another job than the ledger
//     guessed; the JOBP that follows names the right one and the ledger
//     corrects itself then.
//
// Resync rebuilds the ledger from GETS All, LSTJ and LSTQ when a strategy
// wants certainty; those messages are then on the wire.
type Ledger struct {
	sys        *servertypes.System
	now        int
	machines   []Machine      // GETS order: sorted type order, then id
	first      map[string]int // type name -> index of its server 0 in machines
	jobs       map[int]protocol.Job
	queue      []protocol.QueuedJob
	queueExact bool
	offer      int // id of the job on offer, -1 when none
	dequeued   int // id of the job the last accepted DEQJ took out, -1 before any

	// What Stale and the queue's repair need: see Observe and Applied.
	stale       bool
	lastJCPL    int
	afterCHKQ   bool                 // a CHKQ came since the last offer or JCPL
	chkqDequeue bool                 // and a DEQJ followed it
	guessed     []protocol.QueuedJob // taken out of an inexact queue by DEQJ, not yet offered again

	heap    endHeap     // Predict's scratch
	scratch []Predicted // EarliestStart's scratch

	// Kept so that no event walks every server (a ledger of 10,000
	// servers is updated at every event): the booting servers, the active
	// ones whose running list emptied since the last state advance, and
	// the powered cores.
	booting, emptied []int32
	poweredCores     int

	// The servers changed, in order, for a strategy that follows a few
	// servers without walking them all (see Changes): positions in
	// machines, the first one's mark changesFrom.
	changes     []int32
	changesFrom int

	// Per type, the lowest id of its inactive servers (its limit when none
	// is): lowered when a server is powered off or recovers, walked up when
	// that server boots or fails, recounted at Resync (see LowestInactive).
	lowestOff map[string]int

	// The hourly rates a 2026 server's GETS records gave (SentRate).
	sentRates map[string]float64
}

// Machine is one server as the ledger sees it.
type Machine struct {
	Ref  protocol.ServerRef
	Type servertypes.Type // cores, memory, disk, hourly rate, boot time
	// State is the power state as ds-server would report it in GETS.
	State protocol.ServerState
	// BootEnd is ds-server's curStartTime: when the current powered period
	// began (or, while booting, will begin); -1 when inactive or unavailable.
	BootEnd int
	// IdleSince is when the server last became empty (no running or waiting
	// job) while powered; -1 when it holds jobs or is off.
	IdleSince int
	// Running and Waiting are the jobs the client placed here, in
	// ds-server's order: running by start time (their end order is unknown),
	// waiting first come first served.
	Running []Placement
	Waiting []Placement
	// Free is what ds-server counts as available (§4.3): capacity minus
	// running jobs and known-start jobs on a booting server.
	Free protocol.Requirement
	// Failures counts RESF events seen for this server.
	Failures int

	idx int32 // position in Ledger.machines
}

// Placement is one job on a server. Start is the true start time of a
// running job, the known start (boot completion) of a waiting job on a
// booting server, and -1 for a waiting job whose start is not yet known.
type Placement struct {
	Job   protocol.Job // as first offered (Submit is the original submit time)
	Start int
}

// Req is the job's requirement.
func (p Placement) Req() protocol.Requirement { return p.Job.Req() }

// Powered reports whether the server is booting, idle or active: the states
// in which it is, or is about to be, billed.
func (m *Machine) Powered() bool {
	return m.State == protocol.Booting || m.State == protocol.Idle || m.State == protocol.Active
}

// Usable reports whether a job could be scheduled on it now (not failed).
func (m *Machine) Usable() bool { return m.State != protocol.Unavailable }

// Capable reports whether the server's type can ever run r.
func (m *Machine) Capable(r protocol.Requirement) bool { return m.Type.Capable(r) }

// Empty reports whether no job of the client's is running or waiting here.
func (m *Machine) Empty() bool { return len(m.Running) == 0 && len(m.Waiting) == 0 }

// Jobs is the number of running and waiting jobs.
func (m *Machine) Jobs() int { return len(m.Running) + len(m.Waiting) }

// RatePerCore is the hourly rate divided by the core count.
func (m *Machine) RatePerCore() float64 { return m.Type.CostPerCore() }

// StartsNow reports whether a job of requirement r scheduled now would start
// at once, by ds-server's placement rule (§4.2): the server is idle, or
// active with no waiting job and enough free resources.
func (m *Machine) StartsNow(r protocol.Requirement) bool {
	switch m.State {
	case protocol.Idle:
		return true
	case protocol.Active:
		return len(m.Waiting) == 0 && r.Fits(m.Free.Cores, m.Free.Memory, m.Free.Disk)
	}
	return false
}

// NewLedger makes a ledger for a system with every server inactive, as at
// the start of a simulation.
func NewLedger(sys *servertypes.System) *Ledger {
	l := &Ledger{sys: sys, first: map[string]int{}, jobs: map[int]protocol.Job{}, queueExact: true, offer: -1, dequeued: -1, lastJCPL: -1,
		lowestOff: map[string]int{}}
	for _, t := range sys.Sorted() {
		l.first[t.Name], l.lowestOff[t.Name] = len(l.machines), 0
		for id := 0; id < t.Limit; id++ {
			l.machines = append(l.machines, Machine{
				Ref: protocol.ServerRef{Type: t.Name, ID: id}, Type: t, State: protocol.Inactive,
				BootEnd: -1, IdleSince: -1, Free: capacity(t), idx: int32(len(l.machines)),
			})
		}
	}
	return l
}

func capacity(t servertypes.Type) protocol.Requirement {
	return protocol.Requirement{Cores: t.Cores, Memory: t.Memory, Disk: t.Disk}
}

// SentRate is the hourly rate the server's GETS records give for the type,
// as sent (two decimals): ds-server 2026 sends it in every record, 2025
// never (ok is false then, and before the first record of the type). It
// equals the type's rate in System, which is what a strategy prices with;
// the client warns if the two ever differ (a ds-system.xml that is not the
// server's).
func (l *Ledger) SentRate(typ string) (rate float64, ok bool) {
	rate, ok = l.sentRates[typ]
	return rate, ok
}

// NoteSentRate records the rate a GETS record gave for a type (SentRate).
// The client calls it for the records of every GETS; Resync notes its
// GETS All itself.
func (l *Ledger) NoteSentRate(typ string, rate float64) {
	if l.sentRates == nil {
		l.sentRates = map[string]float64{}
	}
	l.sentRates[typ] = rate
}

// System is the server types the ledger was built for.
func (l *Ledger) System() *servertypes.System { return l.sys }

// Now is the simulation time of the last event observed.
func (l *Ledger) Now() int { return l.now }

// Machines returns every server in GETS order (sorted type order, then id).
// The machines belong to the ledger: read them, do not change them.
func (l *Ledger) Machines() []Machine { return l.machines }

// Machine returns one server.
func (l *Ledger) Machine(ref protocol.ServerRef) (*Machine, bool) {
	i, ok := l.first[ref.Type]
	if !ok || ref.ID < 0 || ref.ID >= l.machines[i].Type.Limit {
		return nil, false
	}
	return &l.machines[i+ref.ID], true
}

// OfType returns the servers of type typ by id, a window of Machines (nil
// for an unknown type): for walks over one type's servers, which would
// otherwise look each one up by name.
func (l *Ledger) OfType(typ string) []Machine {
	i, ok := l.first[typ]
	if !ok {
		return nil
	}
	end := i + l.machines[i].Type.Limit
	return l.machines[i:end:end] // an append cannot reach the next type's servers
}

// LowestInactive returns the inactive server of type typ with the lowest
// id (ds-server boots any inactive server alike; the lowest is the one a
// reproducible choice takes), or false when none of the type is inactive
// or the type is unknown. It is kept up to date by every power-off, boot,
// failure and recovery, and by Resync, whoever's action it was (in a
// composite, every member's), so asking costs nothing.
func (l *Ledger) LowestInactive(typ string) (*Machine, bool) {
	id, ok := l.lowestOff[typ]
	if !ok {
		return nil, false
	}
	return l.Machine(protocol.ServerRef{Type: typ, ID: id})
}

// Job returns a job the ledger has seen offered, as first offered.
func (l *Ledger) Job(id int) (protocol.Job, bool) {
	j, ok := l.jobs[id]
	return j, ok
}

// Offered is the job on offer (JOBN/JOBP) not yet scheduled, enqueued or
// pushed back.
func (l *Ledger) Offered() (protocol.Job, bool) {
	if l.offer < 0 {
		return protocol.Job{}, false
	}
	return l.jobs[l.offer], true
}

// Dequeued is the job the last accepted DEQJ took out of the global queue
// (-1 before any, or when the ledger's queue was too short to hold the
// position: the server had a job the ledger did not know of). While the
// queue is inexact (see QueueExact) it is the ledger's guess, left as it is
// when the JOBP that follows repairs the queue; the server offers that
// JOBP next (ds-server.md §5.6), which is how a caller can tell.
func (l *Ledger) Dequeued() int { return l.dequeued }

// Queue is the global queue as the client knows it, QID = position. See
// QueueExact.
func (l *Ledger) Queue() []protocol.QueuedJob { return l.queue }

// Stale reports whether the ledger knows it may be out of step with the
// server (see the limits above). Resync clears it; a strategy that wants
// certainty calls Resync when Stale, paying its messages only then.
func (l *Ledger) Stale() bool { return l.stale }

// QueueExact reports whether the queue's order is certain: false after
// several running jobs were killed at once (TERM, RESF) until Resync or the
// queue empties; its content is certain too except between a DEQJ from an
// inexact queue and the JOBP that follows.
func (l *Ledger) QueueExact() bool {
	return len(l.queue) == 0 || l.queueExact && len(l.guessed) == 0
}

// EmptyBilledUntil is when an empty server's billing ends (ds-server.md
// §6.1: billed time runs from boot completion to the end of the last job;
// an idle gap becomes billed once another job follows it): when its last
// job ended, or its boot completes if it is booting; -1 for a server that
// is off. For a server with jobs, use the ends Predict gives.
func (l *Ledger) EmptyBilledUntil(m *Machine) int {
	switch m.State {
	case protocol.Idle, protocol.Active:
		if m.IdleSince >= 0 {
			return m.IdleSince
		}
		return l.now
	case protocol.Booting:
		return m.BootEnd
	}
	return -1
}

// PoweredCores is the number of cores of servers that are booting, idle or
// active.
func (l *Ledger) PoweredCores() int { return l.poweredCores }

// String is a compact dump, one line per server that is not inactive and
// empty, for test failures and debugging.
func (l *Ledger) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "t=%d queue=%d\n", l.now, len(l.queue))
	for i := range l.machines {
		m := &l.machines[i]
		if m.State == protocol.Inactive && m.Empty() {
			continue
		}
		fmt.Fprintf(&b, "%s %s boot=%d idle=%d free=%s run=%s wait=%s\n", m.Ref, m.State, m.BootEnd,
			m.IdleSince, m.Free, placements(m.Running), placements(m.Waiting))
	}
	return b.String()
}

func placements(ps []Placement) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strconv.Itoa(p.Job.ID) + "@" + strconv.Itoa(p.Start)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// jobIndex finds a job in a placement list.
func jobIndex(ps []Placement, id int) int {
	return slices.IndexFunc(ps, func(p Placement) bool { return p.Job.ID == id })
}
