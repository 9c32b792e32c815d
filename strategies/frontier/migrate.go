package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// maxSizeRatio is §4.3's guard: a waiting job moves only to a server at
// most this many times its size in cores, or the move wastes capacity
// that larger jobs will want.
const maxSizeRatio = 2

// freed is a server a completion freed at time at, to be settled (waiting
// jobs moved onto it, a running job rehomed there, or powered off) once
// the time has moved past at.
//
// Why wait: ds-server reports a completion batch (jobs ending at the same
// second) one JCPL per REDY, and starts a server's waiting jobs after that
// server's last completion of the batch (ds-server.md §3.3; the
// transcripts show it), where the ledger starts them at each JCPL (see
// Ledger). Until the batch is over, a job the ledger lists as running may
// still wait, or be completing now, and MIGJ of a job completing now is
// refused, which drops the actions after it: rehome, whose sources are
// running jobs, waits here (a JCPL of a later second may begin another
// batch, which is why it waits for a decision that is not a JCPL), but
// for the server a completion empties, where its moves are made at once
// as the decision's last actions (see rehome). Jobs the
// ledger lists as waiting wait on ds-server too, so moving them at the JCPL
// would be safe; an earlier version did so and saw jobs stranded, put down
// then to ds-server completing a whole batch before its first JCPL, which
// §3.3 contradicts. Moving them at the JCPL again measured the same, and
// every run completed (the study, docs/frontier-study.md), so they keep this rule; jobs waiting for a
// boot move at once (see unboot), where the seconds count.
//
// An entry leaves once the server is off or settled by what the server
// confirmed (see confirmed), or when settle finds it holds jobs or the
// global queue does (it is freed again at its next completion): asked
// marks one whose TERM, or moves onto it, were returned and not yet done.
// One whose actions were not done (a portfolio took another member's
// proposal, or a refusal dropped the actions after it) is settled again at
// the next decision: it had been left powered and empty for good.
type freed struct {
	ref   protocol.ServerRef
	at    int
	asked bool
}

// free notes a server a completion freed.
func (f *frontier) free(ref protocol.ServerRef, at int) {
	if !slices.ContainsFunc(f.freed, func(x freed) bool { return x.ref == ref }) {
		f.freed = append(f.freed, freed{ref, at, false})
	}
}

// powerOff is the TERM of a server frontier is done with (emptied by a
// completion, or a rehome's source), noted as freed and asked for, so that
// a later decision settles it again if the TERM is not done.
func (f *frontier) powerOff(ref protocol.ServerRef, at int) protocol.Action {
	f.asked(ref, at)
	return protocol.Terminate{Server: ref}
}

// asked notes a server a completion freed at time at as freed and asked
// for (its TERM, or moves onto it, returned): a later decision settles it
// again if they are not done (see confirmed).
func (f *frontier) asked(ref protocol.ServerRef, at int) {
	if i := slices.IndexFunc(f.freed, func(x freed) bool { return x.ref == ref }); i >= 0 {
		f.freed[i].asked = true
	} else {
		f.freed = append(f.freed, freed{ref, at, true})
	}
}

// settle handles the freed servers whose completion batch is over: jobs
// waiting elsewhere move to them when it pays, or else (when rehoming: not
// in the middle of a completion batch, see rehome) a job running alone on
// a dearer server, and those left empty are powered off, unless the warm
// bet keeps them on (see keep): a server freed by a completion that left
// a job running and emptied by a later one is the bet's to judge, as one
// emptied at once is (settle, run first, used to power it off before the
// bet was asked, or at the next decision after it kept it). It returns
// the actions and the servers they concern (the job on offer must not be
// placed on those: the ledger does not show the moves yet).
func (f *frontier) settle(l *strategies.Ledger, rehoming bool) ([]protocol.Action, []protocol.ServerRef) {
	var acts []protocol.Action
	var touched []protocol.ServerRef
	rest := f.freed[:0]
	for _, fr := range f.freed {
		fr.asked = false // what was asked for it before was not done: settled again
		if fr.at >= l.Now() {
			rest = append(rest, fr)
			continue
		}
		s, ok := l.Machine(fr.ref)
		if !ok || !s.Powered() || slices.Contains(touched, s.Ref) {
			continue // off, or a move this decision already concerns it (a rehome source is powered off by Outcome)
		}
		moves := f.migrateOnto(l, s, false, acts)
		if len(moves) == 0 {
			if moves = f.rehome(l, s, touched); len(moves) > 0 && !rehoming {
				rest = append(rest, fr) // a rehome waits for the completion batch to be over
				continue
			}
			for _, a := range moves { // their sources are powered off once the moves are done (see Outcome)
				touched = append(touched, a.(protocol.Migrate).From)
			}
		}
		switch {
		case len(moves) > 0:
			acts = append(acts, moves...)
		case s.Empty() && len(l.Queue()) == 0 && (f.warm.kept.has(s) || f.keep(s, l.Now())):
			continue // the bet's now: cool powers it off at the end of its hold
		case s.Empty() && len(l.Queue()) == 0:
			acts = append(acts, protocol.Terminate{Server: s.Ref})
		default:
			continue
		}
		touched = append(touched, s.Ref)
		fr.asked = true // until Outcome confirms its TERM or a move onto it
		rest = append(rest, fr)
	}
	f.freed = rest
	return acts, touched
}

// migrateOnto moves jobs waiting on other servers to s when s starts them
// now and the delay saved (weighted as in place) outweighs the billed time
// they add to s, less what they stop billing where they wait. Jobs are
// taken in server order, each queue first come first served, while s has
// room. With booting set, only jobs waiting for a boot are candidates
// (see waitsForBoot and unboot). A job an earlier action of the decision
// moves is not moved again (see moving).
func (f *frontier) migrateOnto(l *strategies.Ledger, s *strategies.Machine, booting bool, earlier []protocol.Action) []protocol.Action {
	free, billed, ok := f.target(l, s)
	if !ok {
		return nil
	}
	now := l.Now()
	var acts []protocol.Action
	for _, m := range f.ix.waitingServers() {
		if booting && !waitsForBoot(l, m) {
			continue
		}
		if m == s || !movableFrom(m) || !slices.ContainsFunc(m.Waiting, func(p strategies.Placement) bool { return fitsOn(s, free, p.Req()) }) {
			continue // nothing there could move to s: spare the forecast
		}
		o := f.fc.run(l, m, nil, &f.learn)
		left := len(m.Waiting) // jobs still on m after the moves so far
		for k, p := range m.Waiting {
			req, start := p.Req(), f.fc.starts[k]
			if start >= 0 && start <= now || !fitsOn(s, free, req) || moving(earlier, p.Job.ID) {
				continue
			}
			if start < 0 {
				start = now + 24*3600 // never starts there by the forecast: a day
			}
			// The mean runtime past s's billing, not the expected excess
			// place prices (ratios.added): measured the same (the study, docs/frontier-study.md).
			end := now + f.learn.expect(p.Job.EstRunTime)
			extra := float64(max(0, end-billed)) * s.Type.HourlyRate / 3600
			if m.State == protocol.Booting && left == 1 { // the last job left on it: the boot is called off, its billing never starts
				extra -= float64(f.learn.expect(p.Job.EstRunTime)) * m.Type.HourlyRate / 3600
			}
			stay := float64(max(0, min(start, o.avail)-now)) + queueDistrust*float64(max(0, start-o.avail))
			if f.delayPrice(req.Cores)*stay <= extra {
				continue
			}
			acts = append(acts, protocol.Migrate{JobID: p.Job.ID, From: m.Ref, To: s.Ref})
			left--
			free = minus(free, req)
			billed = max(billed, end)
		}
	}
	return acts
}

// moving tells whether acts move job id. The ledger shows a move only once
// it is done, so within one decision a job another action moves still
// looks where it was: moved again, the second MIGJ was refused ("No such
// job"), which dropped every action after it: two freed servers both took
// it, or replan moved again a job settle had moved (82 refusals in 44 of
// the 162 runs of the three presets on the 18 configs and the held-out 36).
func moving(acts []protocol.Action, id int) bool {
	return slices.ContainsFunc(acts, func(a protocol.Action) bool {
		m, ok := a.(protocol.Migrate)
		return ok && m.JobID == id
	})
}

// target tells whether s, freed by a completion, can take jobs moved to
// it now (powered and up, nothing waiting there: a moved job starts at
// once), with what it has free and when its billing ends without them.
// An idle gap it has already run counts as billed either way: powering it
// off bills that too (TERM, §5.13).
func (f *frontier) target(l *strategies.Ledger, s *strategies.Machine) (free protocol.Requirement, billed int, ok bool) {
	if !f.priced() || !(s.State == protocol.Idle || s.State == protocol.Active) || len(s.Waiting) > 0 {
		return free, 0, false
	}
	return s.Free, max(l.Now(), f.fc.run(l, s, nil, &f.learn).billed), true
}

// movableFrom tells whether jobs may move away from m. ds-server starts
// waiting jobs only when a job on their server completes or its boot ends
// (§3.3–3.5), so a job may leave a server with a job running, whose
// completion starts the jobs behind it, or a booting server whose jobs
// all start at its boot end (known start: §5.11 returns a leaving job's
// resources, and the others still start then; a server left with none is
// powered off, unbilled); not a booting server with a job of unknown
// start, which waits for completions of known-start jobs that may leave.
func movableFrom(m *strategies.Machine) bool {
	switch {
	case len(m.Waiting) == 0 || m.State == protocol.Unavailable:
		return false
	case m.State == protocol.Booting:
		return len(m.Running) == 0 && !slices.ContainsFunc(m.Waiting, func(p strategies.Placement) bool { return p.Start < 0 })
	}
	return len(m.Running) > 0
}

// waitsForBoot tells whether m's waiting jobs wait for its boot, which
// ends after now: none of them can have started, whatever completions
// ds-server has still to report at this second, so they may move at a
// JCPL without waiting for its batch to be over (see freed).
func waitsForBoot(l *strategies.Ledger, m *strategies.Machine) bool {
	return m.State == protocol.Booting && m.BootEnd > l.Now()
}

// fitsOn tells whether a job of req may move to s, which has free left:
// it fits, and s is at most maxSizeRatio times its size.
func fitsOn(s *strategies.Machine, free, req protocol.Requirement) bool {
	return req.Fits(free.Cores, free.Memory, free.Disk) && s.Type.Cores <= maxSizeRatio*req.Cores
}

// rehome moves jobs running alone on a dearer server to s, which a
// completion freed, when the billing that stops on the source outweighs
// what the move costs: MIGJ restarts a running job from the beginning
// (§5.11), so the job pays again, as delay, the seconds it has run, and s
// bills it from now (the expected excess of its runtime, given that it has
// run that long, over what s bills anyway). It undoes a placement on a
// larger server made while the right size was busy: with 4 servers a
// type, about one job in ten of the 20-server configs boots a larger one.
// The source, left empty, is powered off once the move is done (Outcome).
//
// When: at the completion that empties s, or else once the completion
// batch is over (settle, at a decision later than the last JCPL and not
// itself a JCPL). A job the ledger lists as running may be completing in
// the batch, and MIGJ of a job completing now is refused (§5.11), which
// drops the actions after it: at the completion the moves are the
// decision's last actions, so a refusal drops only the moves after it (7
// MIGJs of 630 runs: the three presets and weights 7, 10 and 13 on the 18
// configs, the 36 held-out and 72 reseeded ones), and s is decided again
// at once, the refused job left out (see answerRefusedMove). Waiting for
// the batch had cost the most where a move paid: s stayed on, billing the
// gap, until the next decision (often the next arrival), the job ran on at
// the dearer rate, and the seconds it had run, lost on the restart, grew
// until the move often no longer paid. Moving
// at the completion took the cost ratio down by 0.0008–0.0019 at equal
// turnaround on each of the three sets (the study, docs/frontier-study.md). A server freed with jobs
// left running is still settled after the batch (moving onto it at its
// completion too measured no better). Not while the global queue holds
// jobs (they are placed first); not from a server a move of this decision
// concerns (skip), so a job moves once.
//
// Only a source that has completed a job is a candidate. ds-server does
// not count a server whose jobs all left by MIGJ (§6.2): it is not billed
// at all, so moving a server's only job away would also erase what the
// server was billed before, a saving of the report's, not the user's.
// Measured without the guard, that windfall was most of the gain (the
// sources' billed time added back put the cost ratio above no rehoming:
// 1.1996 against 1.1842 at weight 10); with it, rehoming moves balanced
// along a better curve (the study, docs/frontier-study.md).
func (f *frontier) rehome(l *strategies.Ledger, s *strategies.Machine, skip []protocol.ServerRef) []protocol.Action {
	free, billed, ok := f.target(l, s)
	if !ok || !f.learn.post.ready || len(l.Queue()) > 0 {
		return nil
	}
	now := l.Now()
	var acts []protocol.Action
	for _, m := range f.ix.window() {
		if m == s || m.State != protocol.Active || len(m.Running) != 1 || len(m.Waiting) > 0 || m.Type.HourlyRate <= s.Type.HourlyRate || !f.done[m.Ref] || slices.Contains(skip, m.Ref) {
			continue
		}
		p := m.Running[0]
		if !p.Req().Fits(free.Cores, free.Memory, free.Disk) || f.refused.moveRefused(now, p.Job.ID) {
			continue
		}
		ran := now - p.Start
		lo := max(float64(ran+1), lower(p.Job.EstRunTime))
		saved := float64(f.learn.post.mean(lo)-ran) * m.Type.HourlyRate / 3600
		extra := f.learn.post.excess(lo, float64(billed-now)) * s.Type.HourlyRate / 3600
		if saved-extra <= f.delayPrice(p.Job.Cores)*float64(ran) {
			continue
		}
		acts = append(acts, protocol.Migrate{JobID: p.Job.ID, From: m.Ref, To: s.Ref})
		free = minus(free, p.Req())
		billed = max(billed, now+f.learn.post.mean(lo))
	}
	return acts
}
