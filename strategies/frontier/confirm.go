package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// placing is the SCHD Job returned last, with what it tells the warm bet
// and the demand forecast once it is done.
type placing struct {
	job    int // -1: none
	to     protocol.ServerRef
	needs  string // the type the job needed powered on (see needs)
	cores  int
	took   bool    // it takes a kept server
	gained float64 // what that gained the job, by place's score (see warmth)
}

// confirmed moves frontier's own state on an action the server has done:
// nothing of it moves on an action merely returned, which may not be sent
// (in a composite's portfolio, another member's proposal may be taken; a
// refused action drops those after it). A TERM done takes the server off
// the freed list and settles its bet if it was kept on; a MIGJ done onto a
// freed server settles it; replan's move done counts as its run of the
// second; the job's SCHD done credits the bet what the kept server it
// takes gained it, and tells the demand forecast where the job went; a
// SCHD or MIGJ done onto a kept server settles its bet (see taken).
func (f *frontier) confirmed(l *strategies.Ledger, a protocol.Action) {
	switch a := a.(type) {
	case protocol.Terminate:
		f.freed = slices.DeleteFunc(f.freed, func(x freed) bool { return x.ref == a.Server })
		if m, ok := l.Machine(a.Server); ok && f.warm.kept.has(m) {
			f.warm.poweredOff(m, l.Now())
		}
	case protocol.Migrate:
		f.freed = slices.DeleteFunc(f.freed, func(x freed) bool { return x.ref == a.To && x.asked })
		if slices.Contains(f.replanned, protocol.Action(a)) {
			f.replannedAt = l.Now()
			f.replanned = nil // done: a later MIGJ of the same text is not replan's
		}
		f.tookKept(l, a.To)
	case protocol.Schedule:
		if p := f.placing; p.job == a.JobID && p.to == a.Server {
			f.placing.job = -1
			if p.took {
				f.warm.net += p.gained
				f.warm.gain += p.gained
				f.warm.uses++
			}
			f.dem.placed(l.Now(), p.needs, p.cores)
		}
		f.tookKept(l, a.Server)
	}
}

// tookKept settles the bet on the server ref when it was kept on (see
// warmth.taken).
func (f *frontier) tookKept(l *strategies.Ledger, ref protocol.ServerRef) {
	if m, ok := l.Machine(ref); ok && f.warm.kept.has(m) {
		f.warm.taken(m, l.Now())
	}
}
