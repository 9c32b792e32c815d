package strategies

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/protocol"
)

// This file keeps the Ledger current: Observe for every server event,
// Applied for every action the server accepted. Each rule cites the
// ds-server.md section it mirrors.

// Observe updates the ledger with a server event. The client loop calls it
// for every event before the strategy sees the event.
func (l *Ledger) Observe(ev protocol.Event) {
	switch e := ev.(type) {
	case *protocol.JobOffer:
		l.advance(e.Submit) // §3.2 step 8: a full state advance to the offer time
		if _, seen := l.jobs[e.ID]; !seen {
			l.jobs[e.ID] = e.Job // keep the original submit time of a JOBN
		}
		l.offer = e.ID
		if l.chkqDequeue && e.Submit == l.lastJCPL {
			l.stale = true // §3.2: the rest of the batch at this time completed silently
		}
		l.afterCHKQ, l.chkqDequeue = false, false
		l.offeredAgain(e.ID)
	case *protocol.JobCompleted:
		l.lastJCPL, l.afterCHKQ = e.Time, false
		l.completed(e)
	case *protocol.CheckQueue:
		l.afterCHKQ = true
	case *protocol.ServerFailed:
		l.advance(e.Time) // §3.4: advance before a failure event
		l.failed(e.Server)
	case *protocol.ServerRecovered:
		l.advance(e.Time)
		if m, ok := l.Machine(e.Server); ok {
			// A recovery resets the server (C.3). Two failures of one
			// server may overlap (failure-models.md §5.6, the id wrap of
			// a type with more servers than all smaller types together):
			// the first recovery leaves it inactive, a job may then be
			// placed there, and the second recovery fails that job into
			// the global queue with no RESF, as a failure does.
			l.evict(m)
			l.powerOff(m, protocol.Inactive) // C.3: recovery leaves the server inactive
		}
	}
}

// advance is §3.4 for what the client can know: boots that have completed
// by t start their known-start jobs, and an active server with nothing
// running becomes idle. Completions up to t were reported by JCPL already.
func (l *Ledger) advance(t int) {
	if t > l.now {
		l.now = t
	}
	l.finishBoots(t)
	for _, i := range l.emptied {
		if m := &l.machines[i]; m.State == protocol.Active && len(m.Running) == 0 {
			m.State = protocol.Idle
			l.touch(m)
		}
	}
	l.emptied = l.emptied[:0]
}

// finishBoots moves each booting server's known-start jobs to running once
// its boot has completed by t (§3.3 step 1, §3.4 step 2).
func (l *Ledger) finishBoots(t int) {
	kept := l.booting[:0]
	for _, i := range l.booting {
		m := &l.machines[i]
		switch {
		case m.State != protocol.Booting: // switched off while booting
		case m.BootEnd > t:
			kept = append(kept, i)
		default:
			m.State = protocol.Active
			l.touch(m)
			for len(m.Waiting) > 0 && m.Waiting[0].Start >= 0 && m.Waiting[0].Start <= t {
				m.Running = append(m.Running, m.Waiting[0])
				m.Waiting = m.Waiting[1:]
			}
			if len(m.Running) == 0 {
				l.emptied = append(l.emptied, i)
			}
		}
	}
	l.booting = kept
}

// completed is the JCPL path (§3.3): boots due by then complete, the job
// leaves its server and waiting jobs start at the completion time.
func (l *Ledger) completed(e *protocol.JobCompleted) {
	if e.Time > l.now {
		l.now = e.Time
	}
	l.finishBoots(e.Time)
	m, ok := l.Machine(e.Server)
	if !ok {
		return
	}
	l.touch(m)
	if i := jobIndex(m.Running, e.JobID); i >= 0 {
		m.Free = add(m.Free, m.Running[i].Req())
		m.Running = slices.Delete(m.Running, i, i+1)
	} else if i := jobIndex(m.Waiting, e.JobID); i >= 0 {
		// It ran, so jobs ahead of it ended without a JCPL: which ones,
		// the ledger cannot tell.
		l.stale = true
		m.Waiting = slices.Delete(m.Waiting, i, i+1)
	}
	l.startWaiting(m, e.Time)
	// ds-server keeps reporting "active" until the next state advance (§3.3).
	if len(m.Running) == 0 {
		l.emptied = append(l.emptied, m.idx)
	}
	if m.Empty() {
		m.IdleSince = e.Time
	}
}

// startWaiting is §3.5: start waiting jobs from the head while they fit; a
// job that does not fit blocks every job behind it.
func (l *Ledger) startWaiting(m *Machine, at int) {
	for len(m.Waiting) > 0 && m.Waiting[0].Req().Fits(m.Free.Cores, m.Free.Memory, m.Free.Disk) {
		p := m.Waiting[0]
		p.Start = at
		m.Waiting = m.Waiting[1:]
		m.Running = append(m.Running, p)
		m.Free = sub(m.Free, p.Req())
	}
}

// failed is C.3: every job on the server goes to the global queue (running
// first, then waiting) and the server becomes unavailable.
func (l *Ledger) failed(ref protocol.ServerRef) {
	m, ok := l.Machine(ref)
	if !ok {
		return
	}
	m.Failures++
	l.evict(m)
	l.powerOff(m, protocol.Unavailable)
}

// evict sends a server's jobs to the global queue as TERM and a failure do:
// running jobs in end-time order (predicted: the true order is unknown, so
// the queue order becomes inexact when there are two or more), then waiting
// jobs first come first served.
func (l *Ledger) evict(m *Machine) int {
	running := slices.Clone(m.Running)
	slices.SortStableFunc(running, func(a, b Placement) int {
		return predictedEnd(a, l.now) - predictedEnd(b, l.now)
	})
	n := 0
	for _, p := range append(running, m.Waiting...) {
		l.enqueue(p.Job.ID)
		n++
	}
	if len(running) > 1 {
		l.queueExact = false // after the enqueues: into an empty queue they reset it
	}
	m.Running, m.Waiting = m.Running[:0], m.Waiting[:0]
	return n
}

// powerOff leaves a server inactive (TERM, recovery) or unavailable
// (failure): no boot, full capacity or none (§4.1, §4.3).
func (l *Ledger) powerOff(m *Machine, st protocol.ServerState) {
	l.touch(m)
	if m.Powered() {
		l.poweredCores -= m.Type.Cores
	}
	wasOff := m.State == protocol.Inactive
	m.State, m.BootEnd, m.IdleSince = st, -1, -1
	switch {
	case st == protocol.Inactive:
		l.lowestOff[m.Ref.Type] = min(l.lowestOff[m.Ref.Type], m.Ref.ID)
	case wasOff:
		l.leftInactive(m) // an inactive server failed
	}
	m.Running, m.Waiting = m.Running[:0], m.Waiting[:0]
	m.Free = capacity(m.Type)
	if st == protocol.Unavailable {
		m.Free = protocol.Requirement{}
	}
}

// leftInactive keeps LowestInactive when m, of its type's inactive
// servers, has just booted or failed: if it was the lowest, the next one
// up is (servers below the lowest are not inactive; the walk passes the
// powered ones above it, as a strategy looking for one would).
func (l *Ledger) leftInactive(m *Machine) {
	if l.lowestOff[m.Ref.Type] == m.Ref.ID {
		l.lowestOff[m.Ref.Type] = l.inactiveFrom(m.Ref.Type, m.Type.Limit, m.Ref.ID+1)
	}
}

// inactiveFrom is the lowest id from id up of an inactive server of type
// typ, which has limit servers; limit when there is none.
func (l *Ledger) inactiveFrom(typ string, limit, id int) int {
	i := l.first[typ]
	for ; id < limit && l.machines[i+id].State != protocol.Inactive; id++ {
	}
	return id
}

// dequeue is §5.6. From an inexact queue the entry taken out is a guess,
// checked by offeredAgain when the job comes back.
func (l *Ledger) dequeue(qid int) {
	if l.afterCHKQ {
		l.chkqDequeue = true
	}
	if qid < 0 || qid >= len(l.queue) {
		l.dequeued = -1 // the server had a job the ledger did not know of
		return
	}
	if !l.QueueExact() {
		l.guessed = append(l.guessed, l.queue[qid])
	}
	l.dequeued = l.queue[qid].ID
	l.queue = slices.Delete(l.queue, qid, qid+1)
	l.renumber()
}

// offeredAgain settles a guessed DEQJ: the JOBP names the job that really
// left the queue; if the ledger took out another, the two swap places.
func (l *Ledger) offeredAgain(id int) {
	if len(l.guessed) == 0 {
		return
	}
	if i := slices.IndexFunc(l.guessed, func(q protocol.QueuedJob) bool { return q.ID == id }); i >= 0 {
		l.guessed = slices.Delete(l.guessed, i, i+1)
		return
	}
	if i := slices.IndexFunc(l.queue, func(q protocol.QueuedJob) bool { return q.ID == id }); i >= 0 {
		l.queue[i] = l.guessed[0]
		l.guessed = l.guessed[1:]
		l.renumber()
	}
}

func (l *Ledger) renumber() {
	for i := range l.queue {
		l.queue[i].QID = i
	}
}

func (l *Ledger) enqueue(id int) {
	if len(l.queue) == 0 {
		l.queueExact, l.guessed = true, l.guessed[:0] // an empty queue is known exactly
	}
	j := l.jobs[id]
	l.queue = append(l.queue, protocol.QueuedJob{ID: id, QID: len(l.queue), Submit: j.Submit, Queued: l.now,
		EstRunTime: j.EstRunTime, Cores: j.Cores, Memory: j.Memory, Disk: j.Disk})
}

// Applied updates the ledger with an action the server accepted; reply is
// the server's answer ("OK", or "<n> jobs killed" for TERM). The client
// loop calls it after every successful action, before the outcome hook.
func (l *Ledger) Applied(a protocol.Action, reply string) error {
	switch a := a.(type) {
	case protocol.Schedule:
		return l.schedule(a)
	case protocol.Enqueue:
		if l.offer >= 0 {
			l.enqueue(l.offer) // §5.5
			l.offer = -1
		}
	case protocol.Dequeue:
		l.dequeue(a.QID)
	case protocol.Push:
		l.offer = -1 // §5.14
	case protocol.Migrate:
		return l.migrate(a)
	case protocol.Kill:
		return l.kill(a)
	case protocol.Terminate:
		return l.terminate(a, reply)
	}
	return nil
}

func (l *Ledger) schedule(a protocol.Schedule) error {
	m, ok := l.Machine(a.Server)
	j, known := l.jobs[a.JobID]
	switch {
	case !ok:
		return fmt.Errorf("ledger: SCHD %d to %s: no such server", a.JobID, a.Server)
	case !known:
		// In a test, the ledger has to be shown the offer (Observe of the
		// JobOffer) before the SCHD that places it.
		return fmt.Errorf("ledger: SCHD %d to %s: job %d was never offered (JOBN or JOBP) to the ledger", a.JobID, a.Server, a.JobID)
	}
	l.place(m, j)
	if l.offer == a.JobID {
		l.offer = -1
	}
	return nil
}

// place is §4.2: where and when a job starts on a server.
func (l *Ledger) place(m *Machine, j protocol.Job) {
	r := j.Req()
	fits := r.Fits(m.Free.Cores, m.Free.Memory, m.Free.Disk)
	l.touch(m)
	m.IdleSince = -1
	switch {
	case m.State == protocol.Idle, m.State == protocol.Active && len(m.Waiting) == 0 && fits:
		m.State = protocol.Active
		m.Running = append(m.Running, Placement{Job: j, Start: l.now})
		m.Free = sub(m.Free, r)
	case m.State == protocol.Inactive:
		m.State, m.BootEnd = protocol.Booting, l.now+m.Type.BootupTime
		l.leftInactive(m)
		l.booting = append(l.booting, m.idx)
		l.poweredCores += m.Type.Cores
		m.Waiting = append(m.Waiting, Placement{Job: j, Start: m.BootEnd})
		m.Free = sub(m.Free, r)
	case m.State == protocol.Booting && fits && (len(m.Waiting) == 0 || m.Waiting[len(m.Waiting)-1].Start >= 0):
		m.Waiting = append(m.Waiting, Placement{Job: j, Start: m.BootEnd})
		m.Free = sub(m.Free, r)
	default:
		m.Waiting = append(m.Waiting, Placement{Job: j, Start: -1})
	}
}

// migrate is §5.11: the job restarts on the target (placed as by SCHD), then
// leaves the source, whose state and waiting jobs follow.
func (l *Ledger) migrate(a protocol.Migrate) error {
	src, ok1 := l.Machine(a.From)
	tgt, ok2 := l.Machine(a.To)
	if !ok1 || !ok2 {
		return fmt.Errorf("ledger: %s: unknown server", a)
	}
	p, ok := l.take(src, a.JobID)
	if !ok {
		return fmt.Errorf("ledger: %s: job %d is not on %s", a, a.JobID, a.From)
	}
	l.place(tgt, p.Job)
	if p.Start >= 0 {
		src.Free = add(src.Free, p.Req())
	}
	switch {
	case src.State == protocol.Booting && src.Empty():
		l.powerOff(src, protocol.Inactive)
	case src.State == protocol.Active && src.Empty():
		src.State, src.IdleSince = protocol.Idle, l.now
	case src.State == protocol.Active:
		l.startWaiting(src, l.now)
		if len(src.Running) == 0 {
			l.emptied = append(l.emptied, src.idx) // idle at the next advance, with its waiting jobs
		}
	}
	return nil
}

// kill is §5.12: the job goes to the global queue; a running job's
// resources return, but waiting jobs are not started (BUG-COMPAT), and a
// known-start job on a booting server keeps its resources (the reference's
// CRASH case; dsmock goes on the same way).
func (l *Ledger) kill(a protocol.Kill) error {
	m, ok := l.Machine(a.Server)
	if !ok {
		return fmt.Errorf("ledger: %s: unknown server", a)
	}
	running := jobIndex(m.Running, a.JobID) >= 0
	p, ok := l.take(m, a.JobID)
	if !ok {
		return fmt.Errorf("ledger: %s: job %d is not on %s", a, a.JobID, a.Server)
	}
	if running {
		m.Free = add(m.Free, p.Req())
		if len(m.Running) == 0 {
			l.emptied = append(l.emptied, m.idx)
		}
	}
	if m.Empty() && m.Powered() {
		m.IdleSince = l.now
	}
	l.enqueue(p.Job.ID)
	return nil
}

// terminate is §5.13: every job to the global queue, the server off.
func (l *Ledger) terminate(a protocol.Terminate, reply string) error {
	m, ok := l.Machine(a.Server)
	if !ok {
		return fmt.Errorf("ledger: %s: unknown server", a)
	}
	n := l.evict(m)
	l.powerOff(m, protocol.Inactive)
	if killed, err := KilledCount(reply); err == nil && killed != n {
		return fmt.Errorf("ledger: %s: the server killed %d job(s), the ledger knew of %d", a, killed, n)
	}
	return nil
}

// take removes a job from a server's running or waiting list.
func (l *Ledger) take(m *Machine, id int) (Placement, bool) {
	l.touch(m) // also when id is not there: a change more is only a look more
	if i := jobIndex(m.Running, id); i >= 0 {
		p := m.Running[i]
		m.Running = slices.Delete(m.Running, i, i+1)
		return p, true
	}
	if i := jobIndex(m.Waiting, id); i >= 0 {
		p := m.Waiting[i]
		m.Waiting = slices.Delete(m.Waiting, i, i+1)
		return p, true
	}
	return Placement{}, false
}

// KilledCount reads TERM's reply "<n> jobs killed".
func KilledCount(reply string) (int, error) {
	num, ok := strings.CutSuffix(reply, " jobs killed")
	if !ok {
		return 0, fmt.Errorf("TERM reply %q is not \"<n> jobs killed\"", reply)
	}
	return strconv.Atoi(num)
}

func add(a, b protocol.Requirement) protocol.Requirement {
	return protocol.Requirement{Cores: a.Cores + b.Cores, Memory: a.Memory + b.Memory, Disk: a.Disk + b.Disk}
}

func sub(a, b protocol.Requirement) protocol.Requirement {
	return protocol.Requirement{Cores: a.Cores - b.Cores, Memory: a.Memory - b.Memory, Disk: a.Disk - b.Disk}
}
