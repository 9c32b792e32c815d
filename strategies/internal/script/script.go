// Package script builds the scripts of the strategy packages' table tests
// for strattest.FakeView: the systems of baselines.md §8, GETS and LSTJ
// records, job offers, and the short names the expected message lists are
// written with. Only tests import it.
package script

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// MkSys builds a system from types given in file order.
func MkSys(t testing.TB, types ...servertypes.Type) *servertypes.System {
	t.Helper()
	s, err := servertypes.New("test", types)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Ty is one server type.
func Ty(name string, limit, boot int, rate float64, cores, mem, disk int) servertypes.Type {
	return servertypes.Type{Name: name, Limit: limit, BootupTime: boot, HourlyRate: rate, Cores: cores, Memory: mem, Disk: disk}
}

// SysS is System S of baselines.md §8 (s2-config01).
func SysS(t testing.TB) *servertypes.System {
	return MkSys(t, Ty("small", 2, 60, 0.2, 2, 4000, 16000), Ty("medium", 2, 60, 0.4, 4, 8000, 64000),
		Ty("large", 1, 60, 0.8, 8, 16000, 512000))
}

// TypesT are the types of the ties system of baselines.md §8, in the file
// order ds-server writes (= sorted order).
var TypesT = []servertypes.Type{
	Ty("t1", 4, 20, 0.1, 1, 2000, 4000),
	Ty("s2", 4, 30, 0.2, 2, 16000, 8000),
	Ty("m4a", 3, 40, 0.4, 4, 8000, 16000),
	Ty("m4b", 3, 50, 0.5, 4, 32000, 64000),
	Ty("big16a", 3, 100, 1.6, 16, 32000, 64000),
	Ty("big16b", 2, 120, 2.0, 16, 64000, 512000),
}

// SysTW is the ties system as ds-server writes it (§8): file = sorted order.
func SysTW(t testing.TB) *servertypes.System { return MkSys(t, TypesT...) }

// SysTR is the same file with its <server> lines hand-reversed.
func SysTR(t testing.TB) *servertypes.System {
	r := make([]servertypes.Type, len(TypesT))
	for i, x := range TypesT {
		r[len(TypesT)-1-i] = x
	}
	return MkSys(t, r...)
}

// SysSample01 is sample-config01's system (juju, joon, super-silk).
func SysSample01(t testing.TB) *servertypes.System {
	return MkSys(t, Ty("juju", 2, 60, 0.2, 2, 4000, 16000), Ty("joon", 2, 60, 0.4, 4, 16000, 64000),
		Ty("super-silk", 1, 80, 0.8, 16, 64000, 512000))
}

// SystemOf builds the ds-system.xml the reference client read for a shared
// fixture: its <server> types stably sorted by cores (ds-server.md §1.7,
// §2.9).
func SystemOf(t testing.TB, dir, name string) *servertypes.System {
	t.Helper()
	path := filepath.Join(dir, "fixtures", name, "config.xml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := servertypes.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := servertypes.New("ds-system.xml", cfg.Sorted())
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// Recs parses GETS records (leading padding allowed, 9 or 15 fields).
func Recs(t testing.TB, lines ...string) []protocol.Server {
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

// JobRecs parses LSTJ records.
func JobRecs(t testing.TB, lines ...string) []protocol.JobRecord {
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

// LSTJMap turns {"large 0": {records…}} into an LSTJ script.
func LSTJMap(t testing.TB, m map[string][]string) map[protocol.ServerRef][]protocol.JobRecord {
	t.Helper()
	out := map[protocol.ServerRef][]protocol.JobRecord{}
	for k, lines := range m {
		out[Ref(t, k)] = JobRecs(t, lines...)
	}
	return out
}

// Ref parses "type id".
func Ref(t testing.TB, s string) protocol.ServerRef {
	t.Helper()
	typ, id, ok := strings.Cut(s, " ")
	n, err := strconv.Atoi(id)
	if !ok || err != nil {
		t.Fatalf("bad server ref %q", s)
	}
	return protocol.ServerRef{Type: typ, ID: n}
}

// Offer parses "JOBN …" / "JOBP …".
func Offer(t testing.TB, msg string) protocol.Job {
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

// Decide runs one Job call and returns every message the client would send
// for it: the queries in order, then the actions; a strategy error is the
// last element ("ErrNoServer", or "error: …").
func Decide(s strategies.Strategy, v *strattest.FakeView, job protocol.Job) []string {
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

// MustNew makes a registered strategy with its defaults.
func MustNew(t testing.TB, name string) strategies.Strategy {
	t.Helper()
	s, err := strategies.New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Shuffled returns a permutation of rs (baselines.md §8.8: the order of the
// GETS records must not matter).
func Shuffled(rs []protocol.Server, rng *rand.Rand) []protocol.Server {
	out := make([]protocol.Server, len(rs)) // non-nil even when empty (DATA 0)
	copy(out, rs)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// Reversed returns rs backwards.
func Reversed(rs []protocol.Server) []protocol.Server {
	out := make([]protocol.Server, len(rs))
	for i, r := range rs {
		out[len(rs)-1-i] = r
	}
	return out
}

// CapableOf and AvailOf apply ds-server.md §5.3 to a full list of records
// (in the server's order): Capable = every server of a type whose capacity
// fits; Avail = servers (not booting, not unavailable) whose available
// resources fit and whose waiting list is empty.
func CapableOf(sys *servertypes.System, all []protocol.Server, req protocol.Requirement) []protocol.Server {
	out := []protocol.Server{}
	for _, r := range all {
		if t, _ := sys.Lookup(r.Type); t.Capable(req) {
			out = append(out, r)
		}
	}
	return out
}

// AvailOf: see CapableOf.
func AvailOf(all []protocol.Server, req protocol.Requirement) []protocol.Server {
	out := []protocol.Server{}
	for _, r := range all {
		if r.State != protocol.Booting && r.State != protocol.Unavailable && r.Waiting == 0 && r.Fits(req) {
			out = append(out, r)
		}
	}
	return out
}

// Itoa is strconv.Itoa, short for message lists.
func Itoa(i int) string { return strconv.Itoa(i) }

// GC is the GETS Capable message for a requirement "c m d".
func GC(req string) string { return "GETS Capable " + req }

// GA is the GETS Avail message for a requirement "c m d".
func GA(req string) string { return "GETS Avail " + req }

// M lists messages.
func M(s ...string) []string { return s }
