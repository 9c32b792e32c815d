package strategies

import (
	"errors"

	"github.com/dssim-go/dssim-go/protocol"
)

// This file holds what more than one family of strategies shares and that
// is not part of the contract itself.

// ErrNoSystem is returned by a strategy that needs the server types and
// finds none in View.System.
var ErrNoSystem = errors.New("no server types known (ds-system.xml or GETS All)")

// QueueEvents can be embedded by strategies that use the global queue: it
// answers CHKQ with DEQJ GQ 0, so a queued job returns as JOBP (the
// reference's ffq, bfq and wfq do this; baselines.md §2.2, §3.8), and
// changes nothing on JCPL, RESF and RESR.
type QueueEvents struct{}

// Event dequeues the head of the global queue on CHKQ.
func (QueueEvents) Event(_ View, ev protocol.Event) ([]protocol.Action, error) {
	if _, ok := ev.(*protocol.CheckQueue); ok {
		return []protocol.Action{protocol.Dequeue{QID: 0}}, nil
	}
	return nil, nil
}

// MaxDelayWeight bounds the weight of a score of billed cost plus weight ×
// delay, as frontier and the composite's portfolio score (each refuses a
// weight above it, giving DelayWeightReason). From about a million, delay
// already decides every choice it can (weights 1e6, 1e9 and 1e12 decide
// every run of the 18 shared configs alike, for frontier and for the
// portfolio [ff; bf; frontier]); from about 1e15 a score's billed cost, in
// dollars, falls below the float's resolution of its weighted delay and is
// lost to rounding (frontier: 1e15 against 1e12 changes 1 run of the 18,
// 1e20 against 1e15 13; the portfolio: 1e20 against 1e15 6), and towards
// 1e300 scores overflow to +Inf and tie. 1e9 keeps a factor of a thousand
// from both.
const MaxDelayWeight = 1e9

// DelayWeightReason says why a weight above MaxDelayWeight is refused.
const DelayWeightReason = "beyond it a score's cost is lost to rounding beside its delay, and delay already decides every choice it can"
