// Package strattest is the test kit for strategy authors: a scripted View
// for table tests of single decisions, and a one-call in-process simulation
// of a config or fixture that returns typed metrics. It needs none of
// dsbench's flags, tables, plots or progress bar.
//
// A table test scripts the replies a decision will read, calls Job or Event,
// and compares the actions and the exact messages sent:
//
//	v := &strattest.FakeView{Sys: sys, Capable: recs}
//	acts, err := s.Job(v, job)
//	// v.Sent is ["GETS Capable 2 900 2500"]
//
// A strategy that embeds strategies.WithLedger reads v.Ledger(), which a
// FakeView gives only when Book is set; the test shows the ledger the
// events (Book.Observe) and calls Start itself, as the client loop would:
//
//	v := &strattest.FakeView{Sys: sys, Book: strategies.NewLedger(sys)}
//	v.Book.Observe(&protocol.JobOffer{Job: job})
//
// A run test simulates a whole workload: a config of the embedded suite, or
// a fixture (go test runs in the package's folder, so a path is relative to
// it; within this module internal/fixtures.Dir finds ../shared or
// $DSSIM_FIXTURES and skips without them, another module names the path):
//
//	m, err := strattest.RunFS(configs.FS(), "slow-boot.xml", s)
//	m, err = strattest.Run(filepath.Join(fixtures.Dir(t), "fixtures", "config20-med-high"), s)
package strattest

import (
	"fmt"
	"strconv"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// FakeView is a scripted strategies.View. Each query answers from its
// field; a query whose field is nil (or has no entry for the server asked
// about) is an error, so a strategy that asks more than the test expects
// fails. Every query is recorded in Sent as its exact wire text.
type FakeView struct {
	Sys     *servertypes.System  // System()
	Time    int                  // Now()
	Refused []protocol.ServerRef // Excluded()
	Book    *strategies.Ledger   // Ledger(); nil unless the test builds one

	All     []protocol.Server                                // GETS All
	ByType  map[string][]protocol.Server                     // GETS Type t
	One     map[protocol.ServerRef]protocol.Server           // GETS One t id
	Capable []protocol.Server                                // GETS Capable c m d
	Avail   []protocol.Server                                // GETS Avail c m d (empty, not nil: DATA 0)
	Bounded []protocol.Server                                // GETS Bounded c m d
	LSTJ    map[protocol.ServerRef][]protocol.JobRecord      // LSTJ t id
	CNTJ    map[protocol.ServerRef]map[protocol.JobState]int // CNTJ t id state
	EJWT    map[protocol.ServerRef]int                       // EJWT t id
	LSTQ    []protocol.QueuedJob                             // LSTQ GQ # and LSTQ GQ * (nil: not scripted)

	// Sent lists every query in order, as the client would send it, unless
	// Quiet (benchmarks), which only counts them in Queries.
	Sent    []string
	Quiet   bool
	Queries int
}

var _ strategies.View = (*FakeView)(nil)

// Unscripted is the error a FakeView returns for a query it has no reply for.
type Unscripted struct{ Query string }

func (e *Unscripted) Error() string { return fmt.Sprintf("unscripted query %q", e.Query) }

// note counts a query and, unless Quiet, records its wire text; the text
// is built only when it is recorded, so a Quiet view costs a benchmark
// nothing but the count.
func (v *FakeView) note(cmd func() string) {
	v.Queries++
	if !v.Quiet {
		v.Sent = append(v.Sent, cmd())
	}
}

// System returns Sys.
func (v *FakeView) System() *servertypes.System { return v.Sys }

// Now returns Time.
func (v *FakeView) Now() int { return v.Time }

// Excluded returns Refused.
func (v *FakeView) Excluded() []protocol.ServerRef { return v.Refused }

// Ledger returns Book.
func (v *FakeView) Ledger() *strategies.Ledger { return v.Book }

func (v *FakeView) list(cmd func() string, recs []protocol.Server) ([]protocol.Server, error) {
	v.note(cmd)
	if recs == nil {
		return nil, &Unscripted{cmd()}
	}
	return recs, nil
}

func withReq(opt string, r protocol.Requirement) func() string {
	return func() string { return "GETS " + opt + " " + r.String() }
}

func withRef(cmd string, s protocol.ServerRef) func() string {
	return func() string { return cmd + " " + s.String() }
}

// GetsAll answers from All.
func (v *FakeView) GetsAll() ([]protocol.Server, error) {
	return v.list(func() string { return "GETS All" }, v.All)
}

// GetsType answers from ByType.
func (v *FakeView) GetsType(typ string) ([]protocol.Server, error) {
	return v.list(func() string { return "GETS Type " + typ }, v.ByType[typ])
}

// GetsOne answers from One.
func (v *FakeView) GetsOne(s protocol.ServerRef) (protocol.Server, error) {
	cmd := withRef("GETS One", s)
	v.note(cmd)
	rec, ok := v.One[s]
	if !ok {
		return protocol.Server{}, &Unscripted{cmd()}
	}
	return rec, nil
}

// GetsCapable answers from Capable.
func (v *FakeView) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	return v.list(withReq("Capable", r), v.Capable)
}

// GetsAvail answers from Avail.
func (v *FakeView) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	return v.list(withReq("Avail", r), v.Avail)
}

// GetsBounded answers from Bounded.
func (v *FakeView) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	return v.list(withReq("Bounded", r), v.Bounded)
}

// ListJobs answers from LSTJ (an entry with no records is an empty server).
func (v *FakeView) ListJobs(s protocol.ServerRef) ([]protocol.JobRecord, error) {
	cmd := withRef("LSTJ", s)
	v.note(cmd)
	recs, ok := v.LSTJ[s]
	if !ok {
		return nil, &Unscripted{cmd()}
	}
	return recs, nil
}

// CountJobs answers from CNTJ.
func (v *FakeView) CountJobs(s protocol.ServerRef, st protocol.JobState) (int, error) {
	cmd := func() string { return "CNTJ " + s.String() + " " + strconv.Itoa(int(st)) }
	v.note(cmd)
	n, ok := v.CNTJ[s][st]
	if !ok {
		return 0, &Unscripted{cmd()}
	}
	return n, nil
}

// EstWait answers from EJWT.
func (v *FakeView) EstWait(s protocol.ServerRef) (int, error) {
	cmd := withRef("EJWT", s)
	v.note(cmd)
	n, ok := v.EJWT[s]
	if !ok {
		return 0, &Unscripted{cmd()}
	}
	return n, nil
}

// QueueLen answers len(LSTQ).
func (v *FakeView) QueueLen() (int, error) {
	v.note(func() string { return "LSTQ GQ #" })
	if v.LSTQ == nil {
		return 0, &Unscripted{"LSTQ GQ #"}
	}
	return len(v.LSTQ), nil
}

// ListQueue answers LSTQ.
func (v *FakeView) ListQueue() ([]protocol.QueuedJob, error) {
	v.note(func() string { return "LSTQ GQ *" })
	if v.LSTQ == nil {
		return nil, &Unscripted{"LSTQ GQ *"}
	}
	return v.LSTQ, nil
}

// System builds a server-type description for a test, in file order; it
// panics on types servertypes.New refuses (a test's own mistake).
func System(types ...servertypes.Type) *servertypes.System {
	sys, err := servertypes.New("strattest", types)
	if err != nil {
		panic(err)
	}
	return sys
}
