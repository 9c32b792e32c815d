package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// park disposes of a job no server can take now. Once servers have
// failed in the run, that is when every capable server has failed, or
// the only ones left are those this decision's own moves touch (place
// skips them: the ledger has not seen the moves yet): while anything runs
// (or waits for a boot that will start it), ENQJ puts the job in the
// global queue, and the next event (a completion, a failure or recovery,
// CHKQ) dequeues it to be placed again (dequeueAll). With nothing running
// and nothing left to offer (every job released, none pushed back),
// ds-server reports no failure event any more (ds-server.md §3.2: CHKQ
// forever), so PSHJ, as
// the reference client does (baselines.md §3.5), is what moves the clock
// on: a job PSHJ puts back is offered again a second later, and failure
// events up to then are reported, until the recovery comes.
//
// PSHJ moves the clock one second at a time whatever the number of jobs
// pushed, yet each of them comes round again within a second or two: with
// k jobs waiting for a failed type's recovery, about k round trips a
// second of the outage (7 jobs: 176 million PSHJs over 25.9 million
// seconds, below). So once
// two jobs pushed back are in ds-server's queue of offers, another is put
// in the global queue (ENQJ) instead, and comes back with the others at
// the next event. Two, not one: a job pushed back alone is given up by
// ds-server once it is past 1.5 × the end time with nothing left to
// release (§5.14), and with a second one the clock moves on all the same.
// Found on a generated config where the only server of the largest type
// fails at 0 and recovers after 300 days (pl05 on one or two servers a
// type; seven jobs wait for it, 25.9 million seconds): 176 million
// PSHJs before, 25.5 million after (and 0.44 million ENQJs), 170–250 s of
// an in-process run down to 35 s. Every run of the generated corpora's
// failure classes (seeds 1 to 5, three presets: 210 runs) decides exactly
// as before: three or more jobs seldom wait with nothing running.
//
// ENQJ while anything runs spares PSHJ's other cost, a job pushed past
// 1.5 × the end time while a completion elsewhere was still to come. In a
// run without failures PSHJ stays the answer (place
// finds no server there only when every capable server is powered and
// outside the window it scores, see index), so such runs are decided
// exactly as before.
func (f *frontier) park(l *strategies.Ledger, job int) protocol.Action {
	if f.rel.failures == 0 {
		return protocol.Push{}
	}
	ms := l.Machines()
	for i := range ms {
		if len(ms[i].Running) > 0 || slices.ContainsFunc(ms[i].Waiting, func(p strategies.Placement) bool { return p.Start >= 0 }) {
			return protocol.Enqueue{} // a completion is coming
		}
	}
	if len(f.parked.back) >= 2 {
		return protocol.Enqueue{} // two pushed back keep the clock moving
	}
	f.parked.pushing = job
	return protocol.Push{}
}

// parked follows the jobs frontier's PSHJs put back in ds-server's queue
// of offers: a job is there from the PSHJ's OK until it is offered again.
// A PSHJ refused (ds-server gave the job up, §5.14) puts nothing back (the
// client ends the run there; the rule does not rely on it). In a
// composite a job frontier pushed back may be offered to another member
// when it comes round, and frontier never hears of it again: such a job
// would count for ever, and two of them would make park answer ENQJ with
// nothing running and nothing left to offer, where only PSHJ moves the
// clock. ds-server sends CHKQ only when its queue of offers is empty
// (ds-server.md §3.2), so CHKQ forgets them all (none).
type parked struct {
	back    map[int]bool // job ids
	pushing int          // the job of the PSHJ the last decision returned, -1 none
}

func newParked() parked { return parked{back: map[int]bool{}, pushing: -1} }

// offered notes that job is on offer: it is no longer in the queue
// (whoever's PSHJ this decision returns is noted by park).
func (p *parked) offered(job int) {
	delete(p.back, job)
	p.pushing = -1
}

// none notes that ds-server's queue of offers is empty (CHKQ).
func (p *parked) none() { clear(p.back) }

// pushed notes that the PSHJ of the last decision was done.
func (p *parked) pushed() {
	if p.pushing >= 0 {
		p.back[p.pushing] = true
		p.pushing = -1
	}
}
