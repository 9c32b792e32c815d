package composite

import "slices"

// dequeuers (rules mode) remembers which member took each job out of the
// global queue until the job is offered again, and which member decides the
// offer on hand (see composite.Job). ds-server puts a dequeued job at the
// head of its submission queue (ds-server.md §5.6), so the next job offered
// is the one the latest DEQJ took. The ledger names that job
// (Ledger.Dequeued), but only as a guess while its queue is inexact (after
// a TERM or RESF that queued several jobs at once): so the offered job is
// matched by id first, and otherwise the latest DEQJ is its.
type dequeuers struct {
	pending []dequeue // accepted DEQJs whose job has not been offered yet, oldest first
	job     int       // the job on offer since its first Job, -1 between offers
	owner   int       // the member deciding it, -1: the rules
}

type dequeue struct{ job, member int }

func newDequeuers() dequeuers { return dequeuers{job: -1, owner: -1} }

// took records member's accepted DEQJ, of job as the ledger names it (-1
// when it cannot).
func (d *dequeuers) took(job, member int) {
	d.pending = append(d.pending, dequeue{job, member})
}

// offer is the member that decides job, -1 for the rules' choice. It stays
// the same while the offer lasts: Job is asked again after a refusal.
func (d *dequeuers) offer(job int) int {
	if job == d.job {
		return d.owner
	}
	d.job, d.owner = job, -1
	if len(d.pending) == 0 {
		return -1
	}
	k := slices.IndexFunc(d.pending, func(p dequeue) bool { return p.job == job })
	if k < 0 { // the ledger guessed another job: ds-server offers the latest DEQJ's
		k = len(d.pending) - 1
	}
	d.owner = d.pending[k].member
	d.pending = slices.Delete(d.pending, k, k+1)
	return d.owner
}

// disposed ends the offer on hand (an accepted SCHD, ENQJ or PSHJ of it):
// the same job offered again later is a new offer.
func (d *dequeuers) disposed() { d.job, d.owner = -1, -1 }
