package mocksrv

import (
	"fmt"

	"github.com/dssim-go/dssim-go/mocksrv/engine"
)

// RefusedOffersGuard is a MaxRefusedOffers far above what any working
// client comes near: every reference dialogue replays identically with it
// (the transcript tests run with it), while a client stuck in the loop
// reaches it within a second.
const RefusedOffersGuard = 1000

// offerStall watches for a livelock ds-server never ends: a client whose
// every action on the job on offer is refused (say SCHD with the job's
// submit time for its id) sends REDY, gets the same job again, and so on
// forever, the clock standing still. Only a run with
// Text.MaxRefusedOffers set watches; dsmock does not, so that it answers
// every client exactly as ds-server does.
type offerStall struct {
	job     int    // the job of the offers counted
	offers  int    // consecutive offers of job with nothing accepted in between
	refused string // the last refused message and its reply, since the first offer
}

// watchOffers records one main-loop reply to msg. It returns a *Fatal
// instead of the offer that would exceed MaxRefusedOffers.
func (t *Text) watchOffers(msg string, r *engine.Reply) error {
	if t.MaxRefusedOffers <= 0 {
		return nil
	}
	s := &t.stall
	switch r.Kind {
	case engine.ReplyRefused:
		s.refuse(msg, r.Refusal.Text(msg))
	case engine.ReplyOK, engine.ReplyKilled: // an action was carried out: the state moved
		*s = offerStall{}
	case engine.ReplyEvent:
		if r.Event.Kind() != engine.EventJob {
			*s = offerStall{}
			return nil
		}
		id := t.e.JobOf(r.Event).ID
		if s.offers == 0 || id != s.job {
			*s = offerStall{job: id}
		}
		if s.offers++; s.offers > t.MaxRefusedOffers {
			return t.fatal(s.reason(t.MaxRefusedOffers))
		}
	}
	return nil
}

// refuse notes a refused message (reply is the refusal's text).
func (s *offerStall) refuse(msg, reply string) {
	s.refused = fmt.Sprintf("%q: %s", msg, reply)
}

func (s *offerStall) reason(max int) string {
	if s.refused == "" {
		return fmt.Sprintf("job %d offered %d times with no action in between: the simulation would never advance", s.job, max)
	}
	return fmt.Sprintf("job %d offered %d times, every action refused (the last: %s): the simulation would never advance", s.job, max, s.refused)
}
