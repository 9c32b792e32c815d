package estimator

// Verdict is what a job offer means for the estimator (B.5).
type Verdict int

// Verdicts.
const (
	// Fresh: no dispatch of the job is live (a JOBN, or a JOBP of a job
	// the strategy never placed): no update.
	Fresh Verdict = iota
	// MemFailure: a JOBP of a job placed with no RESF/RESR/TERM of its server
	// and no KILJ/MIGJ/DEQJ of it since: the mock's implicit memory
	// failure (Part E item 5).
	MemFailure
	// Invalidated: a JOBP of a placed job that was lost for another
	// reason (the paper's false positive, §2.1; ds-sim's events make the
	// filter exact): no update.
	Invalidated
)

func (v Verdict) String() string {
	return [...]string{"fresh", "memory failure", "invalidated"}[v]
}

// Classifier keeps jobID → server for placed jobs and what happened to
// them since, so a JOBP can be told apart: a memory failure in the mock,
// or a job that came back because its server failed or was switched off,
// or the client killed, migrated or dequeued it (estimation.md B.5, Part F:
// "JOBP is not a failure signal on the real server"). Servers are compared
// by any comparable value, so the package needs no protocol types.
type Classifier[S comparable] struct {
	live map[int]*placement[S]
}

type placement[S comparable] struct {
	server      S
	invalidated bool
}

// Placed records that job id now runs (or waits) on server.
func (c *Classifier[S]) Placed(id int, server S) {
	if c.live == nil {
		c.live = map[int]*placement[S]{}
	}
	c.live[id] = &placement[S]{server: server}
}

// Completed forgets a job (JCPL): it reports whether it was placed.
func (c *Classifier[S]) Completed(id int) bool {
	_, ok := c.live[id]
	delete(c.live, id)
	return ok
}

// ServerLost marks every job on a server (RESF, RESR, TERM).
func (c *Classifier[S]) ServerLost(server S) {
	for _, p := range c.live {
		if p.server == server {
			p.invalidated = true
		}
	}
}

// JobLost marks one job (KILJ, MIGJ, DEQJ).
func (c *Classifier[S]) JobLost(id int) {
	if p, ok := c.live[id]; ok {
		p.invalidated = true
	}
}

// Moved records a migration: the job restarts on another server and its
// dispatch no longer says anything about memory.
func (c *Classifier[S]) Moved(id int, to S) {
	if p, ok := c.live[id]; ok {
		p.server, p.invalidated = to, true
	}
}

// Offer classifies a job offer and forgets the job's placement: after it
// the job is on offer, no longer placed. A placed job can only come back
// as a JOBP (a JOBN is a job's first offer).
func (c *Classifier[S]) Offer(id int) Verdict {
	p, ok := c.live[id]
	if !ok {
		return Fresh
	}
	delete(c.live, id)
	if p.invalidated {
		return Invalidated
	}
	return MemFailure
}
