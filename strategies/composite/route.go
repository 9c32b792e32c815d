package composite

import "github.com/dssim-go/dssim-go/protocol"

// routes tells Outcome whose action each reply answers. The wire text alone
// cannot: one decision may send the same text more than once, from two
// members (each asked on the state the other's actions left: two queue
// strategies may each DEQJ GQ 0) or from one (frontier dequeues each job a
// failure put in the global queue with its own DEQJ GQ 0). So routes
// mirrors how the client loop carries out a list of actions (client.carry):
// in order, each action's outcome answered at once with the owner's
// actions, carried out before the rest of the list; a refused action drops
// the rest of its own list only. Each frame is one list still being
// carried out, the innermost last, its head the next action the client
// will send from it.
type routes struct {
	frames [][]owned
}

// owned is one action sent and the member that asked for it.
type owned struct {
	text   string
	member int
}

// start begins a decision (Job or Event) whose actions are list.
func (r *routes) start(list []owned) {
	clear(r.frames) // let the last decision's lists go
	r.frames = append(r.frames[:0], list)
}

// answer records actions member i returned from Outcome: the client
// carries them out next, before anything left of the outer lists.
func (r *routes) answer(i int, acts []protocol.Action) {
	if len(acts) > 0 {
		r.push(ownedBy(i, acts))
	}
}

// push records a list Outcome returned: carried out next, as answer's.
func (r *routes) push(list []owned) {
	r.frames = append(r.frames, list)
}

// idle reports whether every action of the decision so far has had its
// outcome (or was dropped after a refusal).
func (r *routes) idle() bool {
	r.pop()
	return len(r.frames) == 0
}

// pop drops the lists carried out whole.
func (r *routes) pop() {
	for len(r.frames) > 0 && len(r.frames[len(r.frames)-1]) == 0 {
		r.frames = r.frames[:len(r.frames)-1]
	}
}

// next returns the member whose action a, just carried out, was. A refusal
// drops what is left of a's list, as the client does. ok is false for an
// action that is not the next one routes expects.
func (r *routes) next(a protocol.Action, refused bool) (member int, ok bool) {
	r.pop()
	if len(r.frames) == 0 {
		return 0, false
	}
	top := &r.frames[len(r.frames)-1]
	head := (*top)[0]
	if head.text != a.String() {
		return 0, false
	}
	*top = (*top)[1:]
	if refused {
		*top = nil
	}
	return head.member, true
}

func ownedBy(i int, acts []protocol.Action) []owned {
	list := make([]owned, len(acts))
	for k, a := range acts {
		list[k] = owned{a.String(), i}
	}
	return list
}
