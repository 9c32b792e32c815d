// Package fakeview is the scripted View the strategy packages' tests share:
// it answers GETS, LSTJ and EJWT from the test's records and records every
// query as its wire string, so a test can compare the complete list of
// messages a strategy sends (baselines.md §8, cost-reduce.md). Only tests
// import it.
package fakeview

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// View is a scripted strategies.View. A query the script does not cover is
// an error (and is recorded), so a strategy that asks for more than the
// reference fails the comparison.
type View struct {
	Sys     *servertypes.System
	Time    int                                         // Now
	Capable []protocol.Server                           // GETS Capable reply; nil: not scripted
	Avail   []protocol.Server                           // GETS Avail reply; nil: not scripted, empty: DATA 0
	LSTJ    map[protocol.ServerRef][]protocol.JobRecord // LSTJ replies by server
	EJWT    map[protocol.ServerRef]int                  // EJWT replies by server
	Refused []protocol.ServerRef                        // Excluded
	Quiet   bool                                        // benchmarks: count the queries, do not record them
	Sent    []string                                    // the queries, as wire strings
	Queries int                                         // how many queries, recorded or not
}

var _ strategies.View = (*View)(nil)

func (v *View) note(cmd func() string) {
	v.Queries++
	if !v.Quiet {
		v.Sent = append(v.Sent, cmd())
	}
}

func unscripted(cmd string) error { return fmt.Errorf("unscripted query %q", cmd) }

// System returns Sys.
func (v *View) System() *servertypes.System { return v.Sys }

// Now returns Time.
func (v *View) Now() int { return v.Time }

// Excluded returns Refused.
func (v *View) Excluded() []protocol.ServerRef { return v.Refused }

// Ledger is nil: the scripted view keeps no ledger.
func (v *View) Ledger() *strategies.Ledger { return nil }

// GetsCapable answers Capable.
func (v *View) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Capable " + r.String() })
	if v.Capable == nil {
		return nil, unscripted("GETS Capable " + r.String())
	}
	return v.Capable, nil
}

// GetsAvail answers Avail.
func (v *View) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Avail " + r.String() })
	if v.Avail == nil {
		return nil, unscripted("GETS Avail " + r.String())
	}
	return v.Avail, nil
}

// ListJobs answers from LSTJ.
func (v *View) ListJobs(s protocol.ServerRef) ([]protocol.JobRecord, error) {
	v.note(func() string { return "LSTJ " + s.String() })
	jobs, ok := v.LSTJ[s]
	if !ok {
		return nil, unscripted("LSTJ " + s.String())
	}
	return jobs, nil
}

// EstWait answers from EJWT.
func (v *View) EstWait(s protocol.ServerRef) (int, error) {
	v.note(func() string { return "EJWT " + s.String() })
	w, ok := v.EJWT[s]
	if !ok {
		return 0, unscripted("EJWT " + s.String())
	}
	return w, nil
}

// GetsAll is never scripted.
func (v *View) GetsAll() ([]protocol.Server, error) {
	v.note(func() string { return "GETS All" })
	return nil, unscripted("GETS All")
}

// GetsType is never scripted.
func (v *View) GetsType(typ string) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Type " + typ })
	return nil, unscripted("GETS Type " + typ)
}

// GetsOne is never scripted.
func (v *View) GetsOne(s protocol.ServerRef) (protocol.Server, error) {
	v.note(func() string { return "GETS One " + s.String() })
	return protocol.Server{}, unscripted("GETS One " + s.String())
}

// GetsBounded is never scripted.
func (v *View) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Bounded " + r.String() })
	return nil, unscripted("GETS Bounded " + r.String())
}

// CountJobs is never scripted.
func (v *View) CountJobs(s protocol.ServerRef, st protocol.JobState) (int, error) {
	cmd := "CNTJ " + s.String() + " " + strconv.Itoa(int(st))
	v.note(func() string { return cmd })
	return 0, unscripted(cmd)
}

// QueueLen is never scripted.
func (v *View) QueueLen() (int, error) {
	v.note(func() string { return "LSTQ GQ #" })
	return 0, unscripted("LSTQ GQ #")
}

// ListQueue is never scripted.
func (v *View) ListQueue() ([]protocol.QueuedJob, error) {
	v.note(func() string { return "LSTQ GQ *" })
	return nil, unscripted("LSTQ GQ *")
}

// Decide runs one Job call and returns every message the client would send
// for it: the queries in order, then the actions; a strategy error is the
// last element ("ErrNoServer", or "error: …").
func Decide(s strategies.Strategy, v *View, job protocol.Job) []string {
	v.Sent = nil
	acts, err := s.Job(v, job)
	out := append([]string(nil), v.Sent...)
	for _, a := range acts {
		out = append(out, a.String())
	}
	switch {
	case errors.Is(err, strategies.ErrNoServer):
		out = append(out, "ErrNoServer")
	case err != nil:
		out = append(out, "error: "+err.Error())
	}
	return out
}
