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
