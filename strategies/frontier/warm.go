package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// warmth decides whether a server a completion empties stays powered for
// a while instead of being powered off at once. Staying on is a bet: its
// idle time is billed if a job comes (the gap is part of that job's
// billed time) and also if none does (TERM bills up to the moment it is
// sent, §5.13). What a job that comes gains is the boot it does not wait
// for, worth weight × its cores × the boot time at the cheapest rate per
// core (place's delayPrice counts the mean cores of the work completed
// instead of the job's: the bet kept its own measure, see boot). So a
// server of type t is kept on at most hold(t) = that worth for a job of
// the mean size offered so far (at most t's cores),
// divided by t's rate per second, and only while the boots of t in the
// last hold(t) seconds outnumber the servers of t kept on (the recent
// boot rate is the forecast that a job needing one comes in time), and
// only while the bets settled so far have gained enough to cover the
// worst case of those still open: net is what they gained less what they
// cost (the idle time billed), and a new bet
// is placed only when net covers every open one's full hold. A job that
// takes a kept server gains what place scores it there below the best
// server not kept on (the counterfactual: often a running server with
// room, not a boot). So the bet
// is given up where it loses, whatever the weight (measured: it loses at
// the balanced weight, where jobs fill running servers instead, and pays
// at the turnaround weight), after losing at most one hold.
type warmth struct {
	boots   map[string][]int // per type, the times it was booted by frontier
	kept    keptSet          // servers kept on, empty
	cores   float64          // sum of the cores of the jobs offered
	jobs    float64          // jobs offered
	counted map[int]struct{} // job ids counted in cores and jobs
	net     float64          // dollars: the settled bets' gains less their costs

	gain   float64 // dollars: what the jobs that took kept servers gained, summed (demand)
	uses   int     // how many did
	altOff bool    // the last job placed had a boot as its best alternative

	cools    int                // cools run so far
	lastCool int                // the last one's time
	ledger   *strategies.Ledger // the ledger mark is of
	mark     int                // where its Changes were read up to (see changedKept)
}

// newWarmth makes the maps with the strategy: keep reads and trims boots
// at any completion, also in a composite where frontier's proposals have
// never booted a server (a lazy map made at the first boot panicked there).
func newWarmth() warmth {
	return warmth{boots: map[string][]int{}, kept: newKeptSet(), counted: map[int]struct{}{}}
}

// hold is how long an empty server of m's type may stay on, in seconds:
// none for a type whose rate is 0 or below (unknown: GETS All, or 0.00 in
// ds-system.xml; see priced), whose idle time the bet cannot price.
func (f *frontier) hold(m *strategies.Machine) int {
	if f.warm.jobs == 0 || !f.priced() || m.Type.HourlyRate <= 0 {
		return 0
	}
	mean := min(f.warm.cores/f.warm.jobs, float64(m.Type.Cores))
	return int(f.boot(m, mean) / (m.Type.HourlyRate / 3600))
}

// boot is what waiting for m's boot costs a job of the given cores, in
// place's units (dollars), priced at those cores: hold and demandFor pass
// the mean cores of the jobs offered, or of those that needed m's type,
// capped at m's, where place's delayPrice counts the mean cores of the
// work completed. Pricing the bet with delayPrice would change the
// turnaround preset's decisions, unmeasured.
func (f *frontier) boot(m *strategies.Machine, cores float64) float64 {
	return f.weight * f.perCoreSecond * cores * float64(m.Type.BootupTime)
}

// booted notes that frontier booted a server of type t at time now.
func (w *warmth) booted(t string, now int) {
	w.boots[t] = append(w.boots[t], now)
}

// offered counts a job offered, for the mean size, once: ds-server offers
// a job again after a refused SCHD, a PSHJ (once a second through an
// outage, see park) or a DEQJ, and a job counted at each offer would
// weigh the mean by how often it came back, not by its size.
// It tells whether this was the job's first offer.
func (w *warmth) offered(job protocol.Job) bool {
	if _, ok := w.counted[job.ID]; ok {
		return false
	}
	w.counted[job.ID] = struct{}{} // a map, not a slice by id: ds-server loads any id a job file gives (ds-server.md §2.7)
	w.cores += float64(job.Cores)
	w.jobs++
	return true
}

// keep tells whether the server a completion just emptied stays on, and
// notes it if so: under warm=demand when the demand forecast wants it
// (see demand), else when the bet may be placed.
func (f *frontier) keep(m *strategies.Machine, now int) bool {
	h := f.hold(m)
	if !f.warmOn || h <= 0 {
		return false
	}
	if f.dem.active && f.wanted(m, f.warm.kept.open(m.Ref.Type), now) {
		f.noteKept(m, now)
		return true
	}
	times := f.warm.boots[m.Ref.Type]
	i, _ := slices.BinarySearch(times, now-h+1)
	f.warm.boots[m.Ref.Type] = times[i:] // older boots no longer count
	if len(times)-i <= f.warm.kept.open(m.Ref.Type) || f.exposed(now) {
		return false
	}
	f.noteKept(m, now)
	return true
}

// noteKept notes m kept on since now.
func (f *frontier) noteKept(m *strategies.Machine, now int) {
	f.warm.kept.add(m, now, f.warm.cools)
}

// taken settles the bet on m, kept on, once a job of frontier's, by SCHD
// or MIGJ, is done there (see confirmed): its idle time until now is paid
// (a SCHD's gain is credited with the SCHD). Settled then, not at the next
// cool: a job that has finished by then leaves m empty again, and the bet
// looked open still, its idle time never charged, counted against new
// bets, and powered off at the end of a hold it had already ended.
func (w *warmth) taken(m *strategies.Machine, now int) {
	if k := w.kept.on[m]; k != nil {
		w.net -= k.idleUntil(now)
		w.kept.remove(k)
	}
}

// poweredOff settles the bet on m, kept on, once a TERM of it is done (see
// confirmed): the idle time it was kept is lost when cool powered it off;
// a kept server another rule of frontier's powered off (unstick's, of a
// server stuck with jobs: settle leaves kept ones to the bet) is only
// forgotten, as cool forgets one it finds off.
func (w *warmth) poweredOff(m *strategies.Machine, now int) {
	k := w.kept.on[m]
	if k == nil {
		return
	}
	if k.off {
		w.net -= k.idleUntil(now)
	}
	w.kept.remove(k)
}

// idleUntil is what k's server was billed idle, kept on from k.since to
// t (nothing for a t before it), in dollars.
func (k *kept) idleUntil(t int) float64 {
	return float64(max(0, t-k.since)) * (k.m.Type.HourlyRate / 3600)
}

// noteBoot notes a boot when the job just sent to m is what booted it.
func (f *frontier) noteBoot(l *strategies.Ledger, m *strategies.Machine) {
	if m.State == protocol.Booting && m.Jobs() == 1 && m.BootEnd == l.Now()+m.Type.BootupTime {
		f.warm.booted(m.Ref.Type, l.Now())
	}
}

// needs is the type an arriving job needed powered on, for demand: the
// type of the server place chose when it was off or kept on for such a
// job, "" when the job went to a server already running.
func needs(m *strategies.Machine, keptOn, altOff bool) string {
	if m.State == protocol.Inactive || keptOn && altOff {
		return m.Ref.Type
	}
	return ""
}
