package strategies

import (
	"fmt"

	"github.com/dssim-go/dssim-go/protocol"
)

// Resync rebuilds the ledger from the server: GETS All, LSTJ for every
// server with jobs, LSTQ GQ * when the queue is not empty by LSTQ GQ #.
// These messages go on the wire, so a strategy calls it only where it wants
// certainty (after a RESF, or to learn the queue order after a TERM); the
// reference baselines never do. What the server does not tell is kept:
// IdleSince of servers that are still empty, failure counts.
func (l *Ledger) Resync(q Queries) error {
	l.forgetChanges() // first: a query that fails leaves servers half rewritten
	recs, err := q.GetsAll()
	if err != nil {
		return fmt.Errorf("ledger resync: %w", err)
	}
	// Copy: a GETS slice is valid only until the next GETS, and LSTJ
	// follows; records are small.
	recs = append([]protocol.Server(nil), recs...)
	l.booting, l.emptied, l.poweredCores = l.booting[:0], l.emptied[:0], 0
	for _, rec := range recs {
		m, ok := l.Machine(rec.Ref())
		if !ok {
			return fmt.Errorf("ledger resync: GETS All lists %s, which ds-system.xml does not", rec.Ref())
		}
		if err := l.resyncMachine(q, m, rec); err != nil {
			return err
		}
		if rec.HasRate {
			l.NoteSentRate(rec.Type, rec.Rate)
		}
	}
	for _, t := range l.sys.Sorted() {
		l.lowestOff[t.Name] = l.inactiveFrom(t.Name, t.Limit, 0)
	}
	return l.resyncQueue(q)
}

// ResyncIfStale is Resync when Stale (and nothing otherwise): what a
// strategy that wants certainty calls at the top of each decision.
func (l *Ledger) ResyncIfStale(q Queries) error {
	if !l.stale {
		return nil
	}
	return l.Resync(q)
}

func (l *Ledger) resyncMachine(q Queries, m *Machine, rec protocol.Server) error {
	m.State = rec.State
	m.Free = protocol.Requirement{Cores: rec.Cores, Memory: rec.Memory, Disk: rec.Disk}
	m.BootEnd = -1
	if m.Powered() {
		m.BootEnd = rec.CurStartTime
	}
	m.Running, m.Waiting = m.Running[:0], m.Waiting[:0]
	if rec.Waiting+rec.Running > 0 {
		jobs, err := q.ListJobs(rec.Ref())
		if err != nil {
			return fmt.Errorf("ledger resync: %w", err)
		}
		for _, j := range jobs {
			p := Placement{Job: l.jobFromRecord(j.ID, j.Submit, j.EstRunTime, j.Cores, j.Memory, j.Disk), Start: j.Start}
			if j.State == protocol.JobStateRunning {
				m.Running = append(m.Running, p)
			} else {
				m.Waiting = append(m.Waiting, p)
			}
		}
	}
	switch {
	case m.State == protocol.Booting:
		l.booting = append(l.booting, m.idx)
	case m.State == protocol.Active && len(m.Running) == 0:
		l.emptied = append(l.emptied, m.idx)
	}
	if m.Powered() {
		l.poweredCores += m.Type.Cores
	}
	if !m.Empty() || !m.Powered() {
		m.IdleSince = -1
	} else if m.IdleSince < 0 {
		m.IdleSince = l.now // empty but the ledger did not know since when
	}
	return nil
}

func (l *Ledger) resyncQueue(q Queries) error {
	n, err := q.QueueLen()
	if err != nil {
		return fmt.Errorf("ledger resync: %w", err)
	}
	l.queue, l.queueExact, l.guessed, l.stale = l.queue[:0], true, l.guessed[:0], false
	if n == 0 {
		return nil
	}
	jobs, err := q.ListQueue()
	if err != nil {
		return fmt.Errorf("ledger resync: %w", err)
	}
	for _, j := range jobs {
		l.jobFromRecord(j.ID, j.Submit, j.EstRunTime, j.Cores, j.Memory, j.Disk)
		l.queue = append(l.queue, j)
	}
	return nil
}

// jobFromRecord returns the job as the ledger knows it, learning it from a
// record when it was never offered under the ledger's eyes.
func (l *Ledger) jobFromRecord(id, submit, est, cores, mem, disk int) protocol.Job {
	if j, ok := l.jobs[id]; ok {
		return j
	}
	j := protocol.Job{ID: id, Submit: submit, Cores: cores, Memory: mem, Disk: disk, EstRunTime: est}
	l.jobs[id] = j
	return j
}
