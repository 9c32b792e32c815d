package strategies

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
)

// fakeView is a scripted View: it answers GETS, LSTJ and EJWT from the
// test's records and records every query as its wire string, so a test can
// compare the complete list of messages a strategy sends (baselines.md §8).
// A query the script does not cover is an error (and is recorded), so a
// strategy that asks for more than the reference fails the comparison.
type fakeView struct {
	sys      *servertypes.System
	now      int
	capable  []protocol.Server // GETS Capable reply; nil: not scripted
	avail    []protocol.Server // GETS Avail reply; nil: not scripted, empty: DATA 0
	lstj     map[protocol.ServerRef][]protocol.JobRecord
	ejwt     map[protocol.ServerRef]int
	excluded []protocol.ServerRef
	quiet    bool // benchmarks: count the queries, do not record them
	sent     []string
	queries  int
}

var _ View = (*fakeView)(nil)

func (v *fakeView) note(cmd func() string) {
	v.queries++
	if !v.quiet {
		v.sent = append(v.sent, cmd())
	}
}

func unscripted(cmd string) error { return fmt.Errorf("unscripted query %q", cmd) }

func (v *fakeView) System() *servertypes.System    { return v.sys }
func (v *fakeView) Now() int                       { return v.now }
func (v *fakeView) Excluded() []protocol.ServerRef { return v.excluded }

func (v *fakeView) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Capable " + r.String() })
	if v.capable == nil {
		return nil, unscripted("GETS Capable " + r.String())
	}
	return v.capable, nil
}

func (v *fakeView) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Avail " + r.String() })
	if v.avail == nil {
		return nil, unscripted("GETS Avail " + r.String())
	}
	return v.avail, nil
}

func (v *fakeView) ListJobs(s protocol.ServerRef) ([]protocol.JobRecord, error) {
	v.note(func() string { return "LSTJ " + s.String() })
	jobs, ok := v.lstj[s]
	if !ok {
		return nil, unscripted("LSTJ " + s.String())
	}
	return jobs, nil
}

func (v *fakeView) EstWait(s protocol.ServerRef) (int, error) {
	v.note(func() string { return "EJWT " + s.String() })
	w, ok := v.ejwt[s]
	if !ok {
		return 0, unscripted("EJWT " + s.String())
	}
	return w, nil
}

func (v *fakeView) GetsAll() ([]protocol.Server, error) {
	v.note(func() string { return "GETS All" })
	return nil, unscripted("GETS All")
}

func (v *fakeView) GetsType(typ string) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Type " + typ })
	return nil, unscripted("GETS Type " + typ)
}

func (v *fakeView) GetsOne(s protocol.ServerRef) (protocol.Server, error) {
	v.note(func() string { return "GETS One " + s.String() })
	return protocol.Server{}, unscripted("GETS One " + s.String())
}

func (v *fakeView) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	v.note(func() string { return "GETS Bounded " + r.String() })
	return nil, unscripted("GETS Bounded " + r.String())
}

func (v *fakeView) CountJobs(s protocol.ServerRef, st protocol.JobState) (int, error) {
	cmd := "CNTJ " + s.String() + " " + strconv.Itoa(int(st))
	v.note(func() string { return cmd })
	return 0, unscripted(cmd)
}

func (v *fakeView) QueueLen() (int, error) {
	v.note(func() string { return "LSTQ GQ #" })
	return 0, unscripted("LSTQ GQ #")
}

func (v *fakeView) ListQueue() ([]protocol.QueuedJob, error) {
	v.note(func() string { return "LSTQ GQ *" })
	return nil, unscripted("LSTQ GQ *")
}

// --- building scripts -------------------------------------------------------

// mkSys builds a system from types given in file order.
func mkSys(t testing.TB, types ...servertypes.Type) *servertypes.System {
	t.Helper()
	s, err := servertypes.New("test", types)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ty(name string, limit, boot int, rate float64, cores, mem, disk int) servertypes.Type {
	return servertypes.Type{Name: name, Limit: limit, BootupTime: boot, HourlyRate: rate, Cores: cores, Memory: mem, Disk: disk}
}

// sysS is System S of baselines.md §8 (s2-config01).
func sysS(t testing.TB) *servertypes.System {
	return mkSys(t, ty("small", 2, 60, 0.2, 2, 4000, 16000), ty("medium", 2, 60, 0.4, 4, 8000, 64000),
		ty("large", 1, 60, 0.8, 8, 16000, 512000))
}

var typesT = []servertypes.Type{
	ty("t1", 4, 20, 0.1, 1, 2000, 4000),
	ty("s2", 4, 30, 0.2, 2, 16000, 8000),
	ty("m4a", 3, 40, 0.4, 4, 8000, 16000),
	ty("m4b", 3, 50, 0.5, 4, 32000, 64000),
	ty("big16a", 3, 100, 1.6, 16, 32000, 64000),
	ty("big16b", 2, 120, 2.0, 16, 64000, 512000),
}

// sysTW is the ties system as ds-server writes it (§8): file = sorted order.
func sysTW(t testing.TB) *servertypes.System { return mkSys(t, typesT...) }

// sysTR is the same file with its <server> lines hand-reversed.
func sysTR(t testing.TB) *servertypes.System {
	r := make([]servertypes.Type, len(typesT))
	for i, x := range typesT {
		r[len(typesT)-1-i] = x
	}
	return mkSys(t, r...)
}

// sysSample01 is sample-config01's system (juju, joon, super-silk).
func sysSample01(t testing.TB) *servertypes.System {
	return mkSys(t, ty("juju", 2, 60, 0.2, 2, 4000, 16000), ty("joon", 2, 60, 0.4, 4, 16000, 64000),
		ty("super-silk", 1, 80, 0.8, 16, 64000, 512000))
}

// recs parses GETS records (leading padding allowed, 9 or 15 fields).
func recs(t testing.TB, lines ...string) []protocol.Server {
	t.Helper()
	out := make([]protocol.Server, 0, len(lines))
	for _, l := range lines {
		s, err := protocol.ParseServer(l)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// jobRecs parses LSTJ records.
func jobRecs(t testing.TB, lines ...string) []protocol.JobRecord {
	t.Helper()
	out := make([]protocol.JobRecord, 0, len(lines))
	for _, l := range lines {
		j, err := protocol.ParseJobRecord(l)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
	return out
}

// lstjMap turns {"large 0": {records…}} into the fake's LSTJ script.
func lstjMap(t testing.TB, m map[string][]string) map[protocol.ServerRef][]protocol.JobRecord {
	t.Helper()
	out := map[protocol.ServerRef][]protocol.JobRecord{}
	for k, lines := range m {
		out[ref(t, k)] = jobRecs(t, lines...)
	}
	return out
}

func ref(t testing.TB, s string) protocol.ServerRef {
	t.Helper()
	typ, id, ok := strings.Cut(s, " ")
	n, err := strconv.Atoi(id)
	if !ok || err != nil {
		t.Fatalf("bad server ref %q", s)
	}
	return protocol.ServerRef{Type: typ, ID: n}
}

// offer parses "JOBN …" / "JOBP …".
func offer(t testing.TB, msg string) protocol.Job {
	t.Helper()
	ev, err := protocol.ParseEvent(msg)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := ev.(*protocol.JobOffer)
	if !ok {
		t.Fatalf("%q is not a job offer", msg)
	}
	return o.Job
}

func mustNew(t testing.TB, name string) Strategy {
	t.Helper()
	s, err := New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// decide runs one Job call and returns every message the client would send
// for it: the queries in order, then the actions; a strategy error is the
// last element ("ErrNoServer", or "error: …").
func decide(s Strategy, v *fakeView, job protocol.Job) []string {
	v.sent = nil
	acts, err := s.Job(v, job)
	out := append([]string(nil), v.sent...)
	for _, a := range acts {
		out = append(out, a.String())
	}
	switch {
	case errors.Is(err, ErrNoServer):
		out = append(out, "ErrNoServer")
	case err != nil:
		out = append(out, "error: "+err.Error())
	}
	return out
}

// shuffled returns a permutation of rs (baselines.md §8.8: the order of the
// GETS records must not matter).
func shuffled(rs []protocol.Server, rng *rand.Rand) []protocol.Server {
	out := make([]protocol.Server, len(rs)) // non-nil even when empty (DATA 0)
	copy(out, rs)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func reversed(rs []protocol.Server) []protocol.Server {
	out := make([]protocol.Server, len(rs))
	for i, r := range rs {
		out[len(rs)-1-i] = r
	}
	return out
}
