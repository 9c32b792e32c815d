package strategies

import (
	"github.com/dssim-go/dssim-go/protocol"
)

// The optional hooks. A Strategy implements Job and Event; these are for
// strategies that keep state across jobs. The client loop (package client)
// calls each at the point its comment gives, against every backend alike.

// Starter is implemented by a strategy that wants to look at the cluster
// before the first job: Start is called once, after the handshake and once
// the server types are known (View.System is set), before the first REDY.
// ds-server starts its simulation at the first REDY or GETS (ds-server.md
// §1.5): a GETS in Start is answered, any other query is refused with ERR.
type Starter interface {
	Start(v View) error
}

// Outcome is the result of one action the strategy returned.
type Outcome struct {
	Action protocol.Action
	// Reply is the server's answer when it accepted the action: "OK", or
	// "<n> jobs killed" for TERM.
	Reply string
	// Killed is TERM's kill count (0 for every other action).
	Killed int
	// Err is the server's refusal (an ERR reply); nil when accepted.
	Err *protocol.ServerError
}

// OK reports whether the server accepted the action.
func (o Outcome) OK() bool { return o.Err == nil }

// OutcomeObserver is implemented by a strategy that wants to be told the
// result of every action it returned, from Job, Event or Outcome itself.
// Outcome is called right after the server's reply (and after the ledger
// has taken an accepted action into account); the actions it returns are
// carried out at once, before the rest of the list the action came from.
//
// An ERR to any action then reaches the strategy instead of ending the run:
// the actions after the refused one in the same list are dropped (they were
// decided on a state that no longer holds), and Outcome may answer with
// others. While a job is on offer and still not disposed of, Job is asked
// again, with the refusing server in View.Excluded when the refused action
// was that job's SCHD. A strategy without this hook keeps the plain
// contract of Strategy: a refused SCHD of the offered job is retried
// elsewhere, any other ERR ends the run.
//
// Outcomes nest at most MaxOutcomeDepth deep (an outcome's actions have
// outcomes too; see DeepOutcomes for a strategy that nests deeper by
// design); deeper is an error that ends the run, so a strategy that
// answers every refusal with another refused action cannot loop forever.
type OutcomeObserver interface {
	Outcome(v View, o Outcome) ([]protocol.Action, error)
}

// MaxOutcomeDepth bounds how deeply Outcome's answers may nest, and how many
// times more a job on offer is asked again (Job called) after refusals that
// excluded no new server, for a strategy with an OutcomeObserver.
const MaxOutcomeDepth = 8

// DeepOutcomes is implemented by a strategy whose outcome answers nest
// deeper than MaxOutcomeDepth by design; the client then allows
// OutcomeDepth levels instead (never fewer than MaxOutcomeDepth). A
// composite asks its members about an event in turn, each acting member's
// actions answering the outcome of the previous one's last (and that one's
// own answers may nest MaxOutcomeDepth deep), so the bound that stops a
// strategy looping on refusals would otherwise end a run in which nine
// members act on one event. See OutcomeDepthOf.
type DeepOutcomes interface {
	OutcomeDepth() int
}

// OutcomeDepthOf is how deeply s's outcome answers may nest: its
// OutcomeDepth, or MaxOutcomeDepth.
func OutcomeDepthOf(s Strategy) int {
	if d, ok := s.(DeepOutcomes); ok {
		return max(d.OutcomeDepth(), MaxOutcomeDepth)
	}
	return MaxOutcomeDepth
}

// LedgerUser is implemented by a strategy that wants the client to keep a
// cluster Ledger for it (embed WithLedger). View.Ledger returns that ledger;
// it is nil for strategies that do not opt in, which pay nothing for it.
type LedgerUser interface {
	UsesLedger()
}

// WithLedger is embedded by a strategy that opts into the Ledger.
type WithLedger struct{}

// UsesLedger marks the strategy as a LedgerUser.
func (WithLedger) UsesLedger() {}
