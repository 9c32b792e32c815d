package composite

import (
	"math"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// Event is given to every member, one at a time: a member is asked once
// the actions of the members before it (and their outcomes' answers) have
// been carried out, so it decides on the state they left. Asking them all
// first and sending their actions after would send actions decided on a
// state that no longer holds: frontier MIGJs a job onto a server a
// completion emptied, and thr, asked about the same JCPL, powers that
// server off with the job on it. So Event returns the first actions a
// member asks for, and Outcome, once those are carried out, asks the next
// members (askEvent): each acting member's actions are an outcome's
// answer, one level deeper than the previous one's (see OutcomeDepth).
//
// Each member's actions are sent as it asks: it decided on the state the
// earlier members left, so an action with the same text as an earlier
// member's is a decision of its own (DEQJ GQ 0 names a position, which
// holds another job once an earlier DEQJ GQ 0 is carried out). Only DEQJs
// that would find no job are dropped (see beyondQueue).
func (c *composite) Event(v strategies.View, ev protocol.Event) ([]protocol.Action, error) {
	c.offered = -1
	c.event, c.asked, c.acted = ev, 0, false
	c.routes.start(nil)
	if c.portfolio {
		c.view.reset(v)
	}
	return c.askEvent(v)
}

// askEvent asks the members not yet asked about the event, in order, until
// one asks for an action that is sent; it returns those actions, whose
// outcomes lead back here. The first member to act decides on the state
// the event found, as it would alone: its list is sent whole (a composite
// of one member is that member). Members asked together, with nothing
// carried out between them, share the portfolio's query memory.
func (c *composite) askEvent(v strategies.View) ([]protocol.Action, error) {
	view := v
	if c.portfolio {
		view = c.view
	}
	for c.event != nil && c.asked < len(c.members) {
		i := c.asked
		c.asked++
		acts, err := c.members[i].Event(view, c.event)
		if err != nil {
			return nil, c.memberErr(i, err)
		}
		if c.acted {
			acts = beyondQueue(v.Ledger(), acts)
		}
		if len(acts) > 0 {
			c.acted = true
			c.routes.push(ownedBy(i, acts))
			return acts, nil
		}
	}
	c.event = nil
	return nil, nil
}

// beyondQueue drops the DEQJs of a list that would find no job at their
// position once the earlier members' actions are carried out: ffq, bfq
// and wfq answer CHKQ with DEQJ GQ 0 without looking, which alone is
// right (CHKQ comes only with jobs queued) but is refused (ERR, the end of
// the run for a strategy without the outcome hook) once another member
// has emptied the queue. The ledger knows how many jobs GQ holds; its
// order may be a guess (Ledger.QueueExact), its length is not. Only the
// DEQJs before the list's first TERM or KILJ are judged: those put jobs
// into GQ, how many the ledger cannot tell before the reply.
func beyondQueue(l *strategies.Ledger, acts []protocol.Action) []protocol.Action {
	left := len(l.Queue())
	out := acts[:0:0]
	for k, a := range acts {
		switch a := a.(type) {
		case protocol.Terminate, protocol.Kill:
			return append(out, acts[k:]...)
		case protocol.Dequeue:
			if a.QID < 0 || a.QID >= left {
				continue
			}
			left--
		}
		out = append(out, a)
	}
	return out
}

// OutcomeDepth is how deeply the composite's outcome answers may nest
// (strategies.DeepOutcomes): members act on an event in turn, the next
// one's actions answering the outcome of the previous one's last action.
// A member with bound b acts at most b-1 levels below where it starts (the
// client checks the level of an outcome's answer, even an empty one, before
// carrying it out), so the next starts at most b levels further down, and
// the members' bounds together give each its own: a composite of one member
// has that member's bound. Without it, ten ffq members acting on one CHKQ
// ended the run ("nested more than 8 deep"). The sum saturates rather than
// wraps (a member declaring a huge bound).
func (c *composite) OutcomeDepth() int {
	d := 0
	for _, m := range c.members {
		b := strategies.OutcomeDepthOf(m)
		if d > math.MaxInt32-b {
			return math.MaxInt32
		}
		d += b
	}
	return d
}
