package frontier

import (
	"fmt"
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// Job places the offered job (see place), after settling the servers
// freed by earlier completions (see settle). An action ds-server refused
// this second is not asked for again (see refusals).
func (f *frontier) Job(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	acts, err := f.placeJob(v, job)
	return f.refused.drop(v.Ledger().Now(), acts), err
}

func (f *frontier) placeJob(v strategies.View, job protocol.Job) ([]protocol.Action, error) {
	l := v.Ledger()
	f.parked.offered(job.ID)
	if l.Stale() { // ds-server completed jobs without telling (see Ledger): ask
		if err := l.Resync(v); err != nil {
			return nil, err
		}
	}
	f.look(l) // after a Resync: every powered server, every kept one
	f.dem.tick(l.Now())
	acts, touched := f.settle(l, l.Now() > f.lastDone)
	moves, touched := f.replan(l, v.Excluded(), touched, acts)
	acts = append(acts, moves...)
	offs, touched := f.cool(l, touched)
	acts = append(acts, offs...)
	if f.warm.offered(job) {
		f.learn.post.offered(job.EstRunTime)
	}
	c, ok := f.place(v, job, touched)
	f.placing.job = -1
	if !ok {
		if err := fitsNoType(v.System(), job); err != nil {
			return nil, err // only here: it explains a failure, off the hot path
		}
		if len(v.Excluded()) > 0 {
			return nil, strategies.ErrNoServer
		}
		return append(acts, f.park(l, job.ID)), nil
	}
	f.placing.job, f.placing.to = job.ID, c.m.Ref // the bet and the forecast learn from it once done (see confirmed)
	f.placing.needs, f.placing.cores = needs(c.m, f.warm.kept.has(c.m), f.warm.altOff), job.Cores
	return append(acts, protocol.Schedule{JobID: job.ID, Server: c.m.Ref}), nil
}

// Event: learn from completions (and refresh the posterior); a server a
// completion empties takes jobs rehomed onto it at once, or is powered off
// at once (free: §1), unless moving a waiting job to it would pay by the
// ledger as it stands; then it is settled once its completion batch is
// over (an idle gap is paid only for a move worth making; see emptied and
// freed); every job in the global queue is brought back (failures put them
// there). An action ds-server refused this second is not asked for again
// (see refusals).
func (f *frontier) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	acts, err := f.event(v, ev)
	return f.refused.drop(v.Ledger().Now(), acts), err
}

func (f *frontier) event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	l := v.Ledger()
	f.look(l)
	f.dem.tick(l.Now())
	_, jcpl := ev.(*protocol.JobCompleted)
	acts, touched := f.settle(l, !jcpl && l.Now() > f.lastDone)
	offs, touched := f.cool(l, touched)
	acts = append(acts, offs...)
	switch e := ev.(type) {
	case *protocol.CheckQueue:
		f.parked.none() // see parked
		if stuck := unstick(l); len(stuck) > 0 {
			// No dequeue here: each TERM's outcome dequeues the whole
			// queue, its killed jobs and those already there (Outcome);
			// a DEQJ more per job would find the queue empty (ERR).
			return append(acts, stuck...), nil
		}
	case *protocol.ServerFailed:
		f.rel.failed(l, e)
	case *protocol.ServerRecovered: // back, inactive (the ledger's LowestInactive follows)
		f.rel.recovered(l, e)
	}
	if done, ok := ev.(*protocol.JobCompleted); ok {
		f.lastDone = done.Time
		f.done[done.Server] = true
		f.learn.completed(l, done)
		if f.learn.post.due() {
			f.learn.post.refresh(l.Now(), f.ix.all())
		}
		if m, known := l.Machine(done.Server); known && m.Powered() && !slices.Contains(touched, m.Ref) {
			f.learn.started(m)
			if moves := f.unboot(l, m, acts); len(moves) > 0 {
				return append(append(acts, moves...), dequeueAll(l)...), nil
			}
			switch {
			// migrateOnto only asks here (a job this decision moves elsewhere
			// counts: m is then freed, and settled at a later decision).
			case m.Empty() && len(l.Queue()) == 0 && len(f.migrateOnto(l, m, false, nil)) == 0:
				more, moves := f.emptied(l, m, touched)
				if moves {
					return append(acts, more...), nil // last (see rehome); the queue is empty
				}
				acts = append(acts, more...)
			case len(m.Waiting) == 0:
				f.free(m.Ref, done.Time)
			}
		}
	}
	return append(acts, dequeueAll(l)...), nil
}

// emptied decides for m, which a completion has just emptied, with no job
// waiting anywhere that a move onto m would pay for: jobs running alone on
// dearer servers rehome onto it (moves: they are to be the decision's last
// actions, so that the rare refusal of a job completing in this batch
// drops only the moves after it; see rehome), or else it is powered off,
// free at the second of its completion, unless the warm bet keeps it on.
// Asked at the completion, and again at once when a move onto m is
// refused (see answerRefusedMove).
func (f *frontier) emptied(l *strategies.Ledger, m *strategies.Machine, skip []protocol.ServerRef) (acts []protocol.Action, moves bool) {
	if acts = f.rehome(l, m, skip); len(acts) > 0 {
		f.asked(m.Ref, l.Now())
		return acts, true
	}
	if f.warm.kept.has(m) || f.keep(m, l.Now()) { // kept already: by settle, just now
		return nil, false
	}
	return []protocol.Action{f.powerOff(m.Ref, l.Now())}, false
}

// answerRefusedMove answers a refused MIGJ onto a server asked for (see
// emptied): ds-server refuses to move a job completing now (§5.11), and
// the moves after it in the list were dropped. If the server is still
// empty, with nothing waiting that would move onto it, it is decided
// again at once, the refused job left out (rehome skips a job whose move
// was refused this second): other jobs rehome onto it, or it is powered
// off. Left to settle, it stayed on, billed, until the batch was over and
// a decision that is not a JCPL came (85 s on config100-med-high at the
// cost preset, with the job it then took running on at a dearer rate).
func (f *frontier) answerRefusedMove(l *strategies.Ledger, a protocol.Action) []protocol.Action {
	mig, ok := a.(protocol.Migrate)
	if !ok || !slices.ContainsFunc(f.freed, func(x freed) bool { return x.ref == mig.To && x.asked }) {
		return nil
	}
	s, ok := l.Machine(mig.To)
	if !ok || !s.Powered() || !s.Empty() || len(l.Queue()) > 0 || len(f.migrateOnto(l, s, false, nil)) > 0 {
		return nil
	}
	acts, _ := f.emptied(l, s, nil)
	return acts
}

// unboot moves jobs waiting for a boot to m, which a completion has just
// freed, at once rather than once the completion batch is over: they have
// not started (see waitsForBoot), and each second they wait for the move
// is a second of their boot wait. m is then settled like any freed server
// (see free). Measured over the weights 7–13 on the 18 configs and 108
// reseeded ones, with movableFrom letting any known-start job leave a
// booting server: about 0.0008 of TAT ratio at equal cost (the study, docs/frontier-study.md).
func (f *frontier) unboot(l *strategies.Ledger, m *strategies.Machine, earlier []protocol.Action) []protocol.Action {
	if len(m.Waiting) > 0 || !slices.ContainsFunc(f.ix.waitingServers(), func(w *strategies.Machine) bool { return waitsForBoot(l, w) }) {
		return nil // nothing waits for a boot: spare m's forecast (target), at every JCPL
	}
	moves := f.migrateOnto(l, m, true, earlier)
	if len(moves) > 0 {
		f.free(m.Ref, l.Now())
	}
	return moves
}

// fitsNoType is the error for a job no server type can hold, nil for any
// other. ds-server does not check a job file against the servers
// (ds-server.md §2.7); such a job would be pushed back (park) every
// second until ds-server gave up at 1.5 × the end time (§5.14), millions
// of round trips later. So the run ends at its first offer, as ff's does
// (its GETS Capable is refused), with ErrNoServer saying what the job
// needs beside the largest type.
func fitsNoType(sys *servertypes.System, job protocol.Job) error {
	for _, t := range sys.Sorted() {
		if t.Capable(job.Req()) {
			return nil
		}
	}
	big := sys.Largest()
	return fmt.Errorf("frontier: %w: job %d (cores %d, memory %d, disk %d) fits no server type (the largest, %s, has cores %d, memory %d, disk %d)",
		strategies.ErrNoServer, job.ID, job.Cores, job.Memory, job.Disk, big.Name, big.Cores, big.Memory, big.Disk)
}

// unstick is a safety net for CHKQ (nothing can be offered, not every job
// has completed): a job waiting on a server with nothing running would
// never start, since ds-server starts waiting jobs only at a completion on
// their server. Migrations never leave such a server behind (see
// migrateOnto), but if the ledger shows one, it is powered off: TERM kills
// its jobs into the global queue, waiting ones first come first served
// (ds-server.md §5.13), and its outcome dequeues them to be placed again
// (Outcome). KILJ of each job, the earlier answer, left the server on,
// idle and billed, and a server whose only jobs were killed and never
// powered off makes the reference's end-of-run statistics abort (§5.12).
func unstick(l *strategies.Ledger) []protocol.Action {
	var acts []protocol.Action
	ms := l.Machines()
	for i := range ms {
		m := &ms[i]
		if len(m.Running) == 0 && len(m.Waiting) > 0 && (m.State == protocol.Idle || m.State == protocol.Active) {
			acts = append(acts, protocol.Terminate{Server: m.Ref})
		}
	}
	return acts
}

// dequeueAll takes every job out of the global queue: each comes back as
// JOBP and is placed again. The head is taken each time (DEQJ renumbers).
func dequeueAll(l *strategies.Ledger) []protocol.Action {
	acts := make([]protocol.Action, len(l.Queue()))
	for i := range acts {
		acts[i] = protocol.Dequeue{QID: 0}
	}
	return acts
}

// Outcome: record where jobs started (for learning), and what the actions
// done settle (see confirmed); a rehome's source, left idle and empty by
// its MIGJ, is powered off; jobs a TERM killed (the CHKQ safety net's, see
// unstick, or the ledger was wrong about an empty server) are brought back
// from the global queue. A refused SCHD is asked again without that
// server; a refused MIGJ, TERM or DEQJ changes nothing on ds-server (the
// client drops the actions after it) and is not asked for again within
// the second (see refusals); frontier's state moves only on what was done,
// so the servers they concerned are settled or powered off at a later
// decision, and a job left in the global queue is dequeued at the next
// one. In a composite, the actions of a proposal not taken never come
// here, and are decided again alike.
func (f *frontier) Outcome(v strategies.View, o strategies.Outcome) ([]protocol.Action, error) {
	l := v.Ledger()
	if !o.OK() {
		f.refused.note(l.Now(), o.Action)
		return f.answerRefusedMove(l, o.Action), nil
	}
	f.confirmed(l, o.Action)
	switch a := o.Action.(type) {
	case protocol.Schedule:
		if m, ok := l.Machine(a.Server); ok {
			f.learn.started(m)
			f.ix.noted(m)
			f.noteBoot(l, m)
		}
	case protocol.Migrate:
		delete(f.learn.start, a.JobID)
		from, fromOK := l.Machine(a.From)
		if fromOK {
			// A job leaving lets ds-server start the jobs behind it.
			f.learn.started(from)
		}
		if m, ok := l.Machine(a.To); ok {
			f.learn.started(m)
			f.ix.noted(m)
			f.noteBoot(l, m)
		}
		if fromOK && from.State == protocol.Idle && from.Empty() {
			// Only rehome leaves a source idle (migrateOnto and replan move
			// waiting jobs from servers with one running): the move was
			// priced on the source's billing stopping now.
			return []protocol.Action{f.powerOff(a.From, l.Now())}, nil
		}
	case protocol.Push:
		f.parked.pushed()
	case protocol.Terminate:
		if o.Killed > 0 {
			return dequeueKilled(l), nil
		}
	}
	return nil, nil
}

// dequeueKilled brings back the jobs a TERM put in the global
// queue, unless a job is on offer: a DEQJ in the middle of a Job decision
// puts the dequeued job ahead of the offered one, which the PSHJ or ENQJ
// that may still dispose of it then concerns instead (a reference crash:
// ds-server.md §5.14). The next event dequeues them (see Event).
func dequeueKilled(l *strategies.Ledger) []protocol.Action {
	if _, offered := l.Offered(); offered {
		return nil
	}
	return dequeueAll(l)
}
