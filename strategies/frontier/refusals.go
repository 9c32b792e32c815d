package frontier

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
)

// refusals are the actions other than a SCHD that ds-server refused at
// the current second. frontier's state moves only on actions done (see
// confirmed), so what settle, replan and cool asked for and was refused is
// asked for again at the next decision; but after a refusal inside a Job
// decision the client asks Job again at the same second with nothing
// changed, and the same refused MIGJ or TERM came back at every retry
// until the client gave up on the run (a review found it). A refused SCHD
// needs none of this: the client excludes its server (View.Excluded).
type refusals struct {
	at    int
	acts  []string // wire texts
	moves []int    // the jobs of the refused MIGJs
}

// note remembers a refused action at time now.
func (r *refusals) note(now int, a protocol.Action) {
	if _, sched := a.(protocol.Schedule); sched {
		return
	}
	if r.at != now {
		r.at, r.acts, r.moves = now, r.acts[:0], r.moves[:0]
	}
	r.acts = append(r.acts, a.String())
	if m, ok := a.(protocol.Migrate); ok {
		r.moves = append(r.moves, m.JobID)
	}
}

// moveRefused tells whether a MIGJ of job id was refused at time now:
// the job is completing now (or gone), so no move of it, to any server,
// is asked for again within the second (rehome, which moves running jobs
// at a completion, in the middle of its batch).
func (r *refusals) moveRefused(now, id int) bool {
	return r.at == now && slices.Contains(r.moves, id)
}

// drop leaves out of acts those refused at time now: ds-server would
// refuse them again, and its refusal drops the actions after them.
func (r *refusals) drop(now int, acts []protocol.Action) []protocol.Action {
	if r.at != now || len(r.acts) == 0 {
		return acts
	}
	return slices.DeleteFunc(acts, func(a protocol.Action) bool { return slices.Contains(r.acts, a.String()) })
}
