package baselines

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// baseCase is one acceptance test of baselines.md §8: a job, the server's
// replies, and for each algorithm the COMPLETE list of messages the client
// sends for that job (GETS, every LSTJ in order, the final action).
type baseCase struct {
	name    string
	sys     func(testing.TB) *servertypes.System
	job     string
	capable []string            // reply to GETS Capable
	avail   []string            // reply to GETS Avail (fafc); nil: not scripted
	lstj    map[string][]string // replies to LSTJ, by "type id"
	want    map[string][]string // "alg1,alg2" -> messages
}

// allInactive lists servers of the given types, inactive with full capacity.
func allInactive(sys *servertypes.System, names ...string) []string {
	var out []string
	for _, n := range names {
		t, _ := sys.Lookup(n)
		for id := 0; id < t.Limit; id++ {
			out = append(out, strings.Join([]string{n, itoa(id), "inactive -1", itoa(t.Cores), itoa(t.Memory), itoa(t.Disk), "0 0"}, " "))
		}
	}
	return out
}

// everyServer lists "<type> <id> <rest>" for every server of the types.
func everyServer(sys *servertypes.System, rest string, names ...string) []string {
	var out []string
	for _, n := range names {
		t, _ := sys.Lookup(n)
		for id := 0; id < t.Limit; id++ {
			out = append(out, n+" "+itoa(id)+" "+rest)
		}
	}
	return out
}

// section8 returns the cases of baselines.md §8.1–§8.4 (ties §8.5 are in
// 8.1.b/8.1.c; lrr §8.6, events §8.7 and parsing §8.8 have their own tests).
func section8(t testing.TB) []baseCase {
	tw := sysTW(t) // record lists only; the GETS order is always the server's
	ties := []string{"m4a", "m4b", "big16a", "big16b"}
	var cs []baseCase
	for _, sv := range []struct {
		tag                         string
		sys                         func(testing.TB) *servertypes.System
		first, largest, altSm, altL string
	}{
		{"T-W", sysTW, "m4a 0", "big16a 0", "m4a 0", "big16a 0"},
		{"T-R", sysTR, "m4b 0", "big16b 0", "m4b 0", "big16b 0"},
	} {
		// 8.1.a — all inactive; equal-core types, file vs sorted order.
		req := "3 1000 1000"
		a := allInactive(tw, ties...)
		cs = append(cs, baseCase{
			name: "8.1.a/" + sv.tag, sys: sv.sys, job: "JOBN 0 100 3 1000 1000 50",
			capable: a, avail: a,
			want: map[string][]string{
				"ff,ffq,fc,bf,bfq": m(gc(req), "SCHD 0 "+sv.first),
				"fafc":             m(ga(req), "SCHD 0 "+sv.first),
				"wf,wfq,atl,lrr":   m(gc(req), "SCHD 0 "+sv.largest),
			},
		})
		// 8.1.b — bf/wf follow file order, ff follows sorted order.
		req = "2 1000 1000"
		b := append(allInactive(tw, "s2"),
			"m4a 0 active 150 2 4000 8000 0 1",
			"m4a 1 active 150 0 4000 8000 0 2",
			"m4a 2 active 150 0 4000 8000 0 2")
		b = append(b, everyServer(tw, "active 160 0 30000 60000 0 1", "m4b")...)
		b = append(b, everyServer(tw, "active 200 0 30000 60000 0 1", "big16a", "big16b")...)
		bfwf := "s2 0"
		if sv.tag == "T-R" {
			bfwf = "m4a 0" // met before s2 0 in file order; tie kept by first found
		}
		cs = append(cs, baseCase{
			name: "8.1.b/" + sv.tag, sys: sv.sys, job: "JOBN 1 200 2 1000 1000 50",
			capable: b, avail: append(allInactive(tw, "s2"), "m4a 0 active 150 2 4000 8000 0 1"),
			want: map[string][]string{
				"ff,ffq,fc":     m(gc(req), "SCHD 1 s2 0"),
				"fafc":          m(ga(req), "SCHD 1 s2 0"),
				"bf,bfq,wf,wfq": m(gc(req), "SCHD 1 "+bfwf),
				"atl,lrr":       m(gc(req), "SCHD 1 "+sv.largest),
			},
		})
		// 8.1.c — nothing ready: fallbacks among equal-core types.
		req = "4 1000 1000"
		c := everyServer(tw, "active 100 0 1000 1000 0 1", ties...)
		cs = append(cs, baseCase{
			name: "8.1.c/" + sv.tag, sys: sv.sys, job: "JOBN 2 300 4 1000 1000 50",
			capable: c, avail: []string{},
			want: map[string][]string{
				"ff,bf,fc":    m(gc(req), "SCHD 2 "+sv.altSm),
				"wf":          m(gc(req), "SCHD 2 "+sv.altL),
				"ffq,bfq,wfq": m(gc(req), "ENQJ GQ"),
				"fafc":        m(ga(req), gc(req), "SCHD 2 "+sv.altSm),
				"atl,lrr":     m(gc(req), "SCHD 2 "+sv.largest),
			},
		})
	}

	// 8.2.a — a booting server holding a job of unknown start (s2-config01
	// job 2, wf run).
	req := "1 400 1400"
	s82a := []string{
		"small 0 inactive -1 2 4000 16000 0 0",
		"small 1 inactive -1 2 4000 16000 0 0",
		"medium 0 inactive -1 4 8000 64000 0 0",
		"medium 1 inactive -1 4 8000 64000 0 0",
		"large 0 booting 80 7 15100 511600 2 0",
	}
	cs = append(cs, baseCase{
		name: "8.2.a", sys: sysS, job: "JOBN 2 75 1 400 1400 4085", capable: s82a,
		avail: s82a[:4], // derived: Avail never lists booting servers (ds-server.md §5.3)
		lstj:  map[string][]string{"large 0": {"0 1 20 80 2264 1 900 400", "1 1 50 -1 324 8 3700 3600"}},
		want: map[string][]string{
			"wf,wfq":  m(gc(req), "LSTJ large 0", "SCHD 2 medium 0"),
			"bf,bfq":  m(gc(req), "LSTJ large 0", "SCHD 2 small 0"),
			"ff,ffq":  m(gc(req), "SCHD 2 small 0"),
			"fc":      m(gc(req), "SCHD 2 small 0"),
			"fafc":    m(ga(req), "SCHD 2 small 0"), // derived from §3.4
			"atl,lrr": m(gc(req), "SCHD 2 large 0"),
		},
	})
	// 8.2.b — the -1 check decides for ff; and its variant without the -1 job.
	req = "3 1000 1000"
	s82b := []string{
		"medium 0 active 100 1 5000 60000 0 1",
		"medium 1 booting 360 3 7000 63000 2 0",
		"large 0 inactive -1 8 16000 512000 0 0",
	}
	cs = append(cs, baseCase{
		name: "8.2.b", sys: sysS, job: "JOBN 7 300 3 1000 1000 100", capable: s82b,
		lstj: map[string][]string{"medium 1": {"5 1 250 360 300 1 1000 1000", "6 1 280 -1 400 4 2000 2000"}},
		want: map[string][]string{
			"ff,ffq,bf,bfq,wf,wfq": m(gc(req), "LSTJ medium 1", "SCHD 7 large 0"),
			"fc":                   m(gc(req), "SCHD 7 medium 0"),
		},
	}, baseCase{
		name: "8.2.b-variant", sys: sysS, job: "JOBN 7 300 3 1000 1000 100", capable: s82b,
		lstj: map[string][]string{"medium 1": {"5 1 250 360 300 1 1000 1000"}},
		want: map[string][]string{
			"ff,ffq,bf,bfq": m(gc(req), "LSTJ medium 1", "SCHD 7 medium 1"),
			"wf,wfq":        m(gc(req), "LSTJ medium 1", "SCHD 7 large 0"),
		},
	})
	// 8.2.c — where ff stops querying (sample-config01 job 2).
	req = "2 1500 2100"
	cs = append(cs, baseCase{
		name: "8.2.c", sys: sysSample01, job: "JOBN 2 96 2 1500 2100 343",
		capable: []string{
			"juju 0 booting 120 0 2500 13100 1 0",
			"juju 1 inactive -1 2 4000 16000 0 0",
			"joon 0 booting 97 1 15300 60200 1 0",
			"joon 1 inactive -1 4 16000 64000 0 0",
			"super-silk 0 inactive -1 16 64000 512000 0 0",
		},
		lstj: map[string][]string{"juju 0": {"1 1 60 120 2025 2 1500 2900"}, "joon 0": {"0 1 37 97 653 3 700 3800"}},
		want: map[string][]string{
			"ff,ffq": m(gc(req), "LSTJ juju 0", "SCHD 2 juju 1"),
			"bf,bfq": m(gc(req), "LSTJ juju 0", "LSTJ joon 0", "SCHD 2 juju 1"),
			"wf,wfq": m(gc(req), "LSTJ juju 0", "LSTJ joon 0", "SCHD 2 super-silk 0"),
		},
	})
	// 8.3.a — memory-only misfit.
	req = "1 3000 1000"
	s83 := []string{
		"small 0 active 100 1 1000 15000 0 1",
		"small 1 inactive -1 2 4000 16000 0 0",
		"medium 0 inactive -1 4 8000 64000 0 0",
		"medium 1 inactive -1 4 8000 64000 0 0",
		"large 0 inactive -1 8 16000 512000 0 0",
	}
	w83 := func(j, req string) map[string][]string {
		return map[string][]string{
			"ff,ffq,bf,bfq": m(gc(req), "SCHD "+j+" small 1"),
			"wf,wfq":        m(gc(req), "SCHD "+j+" large 0"),
			"fc":            m(gc(req), "SCHD "+j+" small 0"),
			"fafc":          m(ga(req), "SCHD "+j+" small 1"),
		}
	}
	cs = append(cs, baseCase{
		name: "8.3.a", sys: sysS, job: "JOBN 9 400 1 3000 1000 60", capable: s83, avail: s83[1:],
		want: w83("9", req),
	})
	// 8.3.b — disk-only misfit.
	s83b := append([]string{"small 0 active 100 1 3500 500 0 1"}, s83[1:]...)
	cs = append(cs, baseCase{
		name: "8.3.b", sys: sysS, job: "JOBN 9 400 1 1000 1000 60", capable: s83b, avail: s83b[1:],
		want: w83("9", "1 1000 1000"),
	})
	// 8.3.c — waiting jobs do not make a server unready (s2-config01 job 3, wf).
	req = "2 1000 600"
	cs = append(cs, baseCase{
		name: "8.3.c", sys: sysS, job: "JOBN 3 100 2 1000 600 1950",
		capable: []string{
			"small 0 inactive -1 2 4000 16000 0 0",
			"small 1 inactive -1 2 4000 16000 0 0",
			"medium 0 booting 135 3 7600 62600 1 0",
			"medium 1 inactive -1 4 8000 64000 0 0",
			"large 0 active 80 7 15100 511600 1 1",
		},
		lstj: map[string][]string{"medium 0": {"2 1 75 135 4085 1 400 1400"}},
		want: map[string][]string{"wf,wfq": m(gc(req), "LSTJ medium 0", "SCHD 3 large 0")},
	})
	// 8.4.a — fallback onto a booting server (s2-config01 job 1, wf run).
	req = "8 3700 3600"
	cs = append(cs, baseCase{
		name: "8.4.a", sys: sysS, job: "JOBN 1 50 8 3700 3600 324",
		capable: []string{"large 0 booting 80 7 15100 511600 1 0"},
		lstj:    map[string][]string{"large 0": {"0 1 20 80 2264 1 900 400"}},
		want: map[string][]string{
			"ff,bf,wf":    m(gc(req), "LSTJ large 0", "SCHD 1 large 0"),
			"ffq,bfq,wfq": m(gc(req), "LSTJ large 0", "ENQJ GQ"),
			"fc":          m(gc(req), "SCHD 1 large 0"),
		},
	})
	// 8.4.b — ff's fallback is the first non-ready booting/active server.
	req = "4 2000 2000"
	cs = append(cs, baseCase{
		name: "8.4.b", sys: sysS, job: "JOBN 4 144 4 2000 2000 300",
		capable: []string{
			"medium 0 active 100 1 6000 60000 0 1",
			"medium 1 booting 160 2 6000 62000 1 0",
			"large 0 active 80 0 12000 500000 2 1",
		},
		lstj: map[string][]string{"medium 1": {"3 1 100 160 500 2 2000 2000"}},
		want: map[string][]string{
			"ff,bf":       m(gc(req), "LSTJ medium 1", "SCHD 4 medium 0"),
			"wf":          m(gc(req), "LSTJ medium 1", "SCHD 4 large 0"),
			"ffq,bfq,wfq": m(gc(req), "LSTJ medium 1", "ENQJ GQ"),
		},
	})
	// 8.4.c — every capable server unavailable (failures: 15-field records).
	req = "2 1000 600"
	cs = append(cs, baseCase{
		name: "8.4.c", sys: sysS, job: "JOBN 3 100 2 1000 600 1950",
		capable: everyServer(sysS(t), "unavailable -1 0 0 0 0 0 1 40 1000 50 500 0", "small", "medium", "large"),
		avail:   []string{},
		want: map[string][]string{
			"ff,bf,wf":    m(gc(req), "PSHJ"),
			"ffq,bfq,wfq": m(gc(req), "ENQJ GQ"),
			"fc":          m(gc(req), "ErrNoServer"), // decision 4
			"fafc":        m(ga(req), gc(req), "ErrNoServer"),
			"atl,lrr":     m(gc(req), "SCHD 3 large 0"),
		},
	})
	return cs
}

// script builds the fake view of a case, with the GETS records permuted by
// perm (nil: as written).
func (c baseCase) script(t testing.TB, perm func([]protocol.Server) []protocol.Server) *fakeView {
	v := &fakeView{Sys: c.sys(t), Capable: recs(t, c.capable...), LSTJ: lstjMap(t, c.lstj)}
	if c.avail != nil {
		v.Avail = recs(t, c.avail...)
	}
	if perm != nil {
		v.Capable = perm(v.Capable)
		if v.Avail != nil {
			v.Avail = perm(v.Avail)
		}
	}
	return v
}

// TestSection8 runs every case of baselines.md §8.1–§8.4 for every listed
// algorithm, and (§8.8) again with the GETS records reversed and shuffled:
// the messages, LSTJ order included, must not change.
func TestSection8(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	perms := []struct {
		name string
		f    func([]protocol.Server) []protocol.Server
	}{
		{"as-sent", nil},
		{"reversed", reversed},
		{"shuffled1", func(r []protocol.Server) []protocol.Server { return shuffled(r, rng) }},
		{"shuffled2", func(r []protocol.Server) []protocol.Server { return shuffled(r, rng) }},
	}
	for _, c := range section8(t) {
		for algs, want := range c.want {
			for _, alg := range strings.Split(algs, ",") {
				for _, p := range perms {
					t.Run(c.name+"/"+alg+"/"+p.name, func(t *testing.T) {
						got := decide(mustNew(t, alg), c.script(t, p.f), offer(t, c.job))
						if !slices.Equal(got, want) {
							t.Errorf("%s %s:\n got  %q\n want %q", c.job, alg, got, want)
						}
					})
				}
			}
		}
	}
}

// TestSection8CoversAll checks that the tables above are not thin: every
// one of the ten algorithms appears in at least five §8 cases.
func TestSection8CoversAll(t *testing.T) {
	n := map[string]int{}
	for _, c := range section8(t) {
		for algs := range c.want {
			for _, a := range strings.Split(algs, ",") {
				n[a]++
			}
		}
	}
	for _, a := range strategies.ReferenceNames() {
		if n[a] < 5 {
			t.Errorf("%s appears in %d §8 cases, want ≥ 5", a, n[a])
		}
	}
}

// TestRecordsOfUnknownTypesIgnored: §9 — records of types not in the
// system (or with an id beyond the type's limit) change nothing.
func TestRecordsOfUnknownTypesIgnored(t *testing.T) {
	for _, c := range section8(t) {
		for algs, want := range c.want {
			for _, alg := range strings.Split(algs, ",") {
				v := c.script(t, nil)
				extra := recs(t, "ghost 0 idle 10 64 64000 512000 0 0", "small 7 idle 10 64 64000 512000 0 0",
					"t1 9 idle 10 64 64000 512000 0 0", "juju 5 idle 10 64 64000 512000 0 0")
				v.Capable = append(append([]protocol.Server(nil), extra...), v.Capable...)
				if v.Avail != nil && len(v.Avail) > 0 {
					v.Avail = append(append([]protocol.Server(nil), extra...), v.Avail...)
				}
				if got := decide(mustNew(t, alg), v, offer(t, c.job)); !slices.Equal(got, want) {
					t.Errorf("%s/%s with foreign records:\n got  %q\n want %q", c.name, alg, got, want)
				}
			}
		}
	}
}

// TestJOBPLikeJOBN: §8.7 — a JOBP is decided exactly like a JOBN.
func TestJOBPLikeJOBN(t *testing.T) {
	for _, c := range section8(t) {
		for algs, want := range c.want {
			for _, alg := range strings.Split(algs, ",") {
				job := "JOBP" + strings.TrimPrefix(c.job, "JOBN")
				if got := decide(mustNew(t, alg), c.script(t, nil), offer(t, job)); !slices.Equal(got, want) {
					t.Errorf("%s/%s as JOBP:\n got  %q\n want %q", c.name, alg, got, want)
				}
			}
		}
	}
}

// TestRefusedSCHDQuitsAtOnce: an ERR to SCHD makes the loop call Job again
// with the server in Excluded; every baseline must answer ErrNoServer
// without a single query, so the wire shows SCHD, ERR, QUIT exactly like
// the reference (§2.3 step 6; 8.4.c for atl and lrr).
func TestRefusedSCHDQuitsAtOnce(t *testing.T) {
	c := section8(t)
	var c84c baseCase
	for _, x := range c {
		if x.name == "8.4.c" {
			c84c = x
		}
	}
	for _, alg := range strategies.ReferenceNames() {
		s := mustNew(t, alg)
		v := c84c.script(t, nil)
		job := offer(t, c84c.job)
		first := decide(s, v, job)
		v.Refused = []protocol.ServerRef{{Type: "large", ID: 0}}
		got := decide(s, v, job)
		if !slices.Equal(got, []string{"ErrNoServer"}) {
			t.Errorf("%s after a refused SCHD (first attempt %q): got %q, want only ErrNoServer", alg, first, got)
		}
	}
}

// TestLargestAndLRR: §8.1.d and §8.6 — L is the first type with the most
// cores in FILE order; lrr starts at 0, advances on every JOBN and JOBP and
// wraps at limit(L).
func TestLargestAndLRR(t *testing.T) {
	cases := []struct {
		name string
		sys  func(testing.TB) *servertypes.System
		jobs []string
		want []string
	}{
		{"T-W", sysTW, []string{"JOBN 0 1 1 100 100 5", "JOBN 1 2 1 100 100 5", "JOBP 5 3 1 100 100 5", "JOBN 2 4 1 100 100 5", "JOBN 3 5 1 100 100 5"},
			[]string{"SCHD 0 big16a 0", "SCHD 1 big16a 1", "SCHD 5 big16a 2", "SCHD 2 big16a 0", "SCHD 3 big16a 1"}},
		{"T-R", sysTR, []string{"JOBN 0 1 1 100 100 5", "JOBP 0 2 1 100 100 5", "JOBN 1 3 1 100 100 5", "JOBN 2 4 1 100 100 5", "JOBN 3 5 1 100 100 5"},
			[]string{"SCHD 0 big16b 0", "SCHD 0 big16b 1", "SCHD 1 big16b 0", "SCHD 2 big16b 1", "SCHD 3 big16b 0"}},
		{"S", sysS, []string{"JOBN 0 1 1 100 100 5", "JOBN 1 2 1 100 100 5", "JOBP 0 3 1 100 100 5"},
			[]string{"SCHD 0 large 0", "SCHD 1 large 0", "SCHD 0 large 0"}},
	}
	for _, c := range cases {
		s := mustNew(t, "lrr")
		a := mustNew(t, "atl")
		for i, j := range c.jobs {
			v := &fakeView{Sys: c.sys(t), Capable: []protocol.Server{}}
			job := offer(t, j)
			got := decide(s, v, job)
			want := []string{"GETS Capable 1 100 100", c.want[i]}
			if !slices.Equal(got, want) {
				t.Errorf("%s lrr %s: got %q want %q", c.name, j, got, want)
			}
			// Events in between change nothing (§8.7).
			for _, ev := range []protocol.Event{&protocol.JobCompleted{Time: 9, JobID: 0, Server: protocol.ServerRef{Type: "x", ID: 0}}, &protocol.CheckQueue{}} {
				if acts, err := s.Event(v, ev); err != nil || len(acts) != 0 {
					t.Errorf("lrr on %s: %v %v", ev, acts, err)
				}
			}
			gotA := decide(a, v, job)
			wantA := []string{"GETS Capable 1 100 100", "SCHD " + itoa(job.ID) + " " + c.sys(t).Largest().Name + " 0"}
			if !slices.Equal(gotA, wantA) {
				t.Errorf("%s atl %s: got %q want %q", c.name, j, gotA, wantA)
			}
		}
	}
	if l := sysTR(t).Largest(); l.Name != "big16b" {
		t.Errorf("T-R largest = %s, want big16b", l.Name)
	}
}

// TestEvents: §8.7 — CHKQ is answered DEQJ GQ 0 by ffq/bfq/wfq only; JCPL,
// RESF, RESR and CHKQ (for the others) get no action; no event sends a
// query; the next decision depends only on its own replies.
func TestEvents(t *testing.T) {
	evs := []protocol.Event{
		&protocol.JobCompleted{Time: 10, JobID: 1, Server: protocol.ServerRef{Type: "small", ID: 0}},
		&protocol.ServerFailed{Server: protocol.ServerRef{Type: "large", ID: 0}, Time: 11},
		&protocol.ServerRecovered{Server: protocol.ServerRef{Type: "large", ID: 0}, Time: 12},
		&protocol.CheckQueue{},
	}
	queue := map[string]bool{"ffq": true, "bfq": true, "wfq": true, "cost-reduce": true}
	c := section8(t)
	for _, alg := range append(strategies.ReferenceNames(), "cost-reduce") {
		s := mustNew(t, alg)
		v := &fakeView{Sys: sysS(t)}
		for _, ev := range evs {
			acts, err := s.Event(v, ev)
			if err != nil {
				t.Fatalf("%s %s: %v", alg, ev, err)
			}
			var got []string
			for _, a := range acts {
				got = append(got, a.String())
			}
			var want []string
			if _, chkq := ev.(*protocol.CheckQueue); chkq && queue[alg] {
				want = []string{"DEQJ GQ 0"}
			}
			if !slices.Equal(got, want) || v.Queries != 0 {
				t.Errorf("%s on %s: actions %q (want %q), %d queries", alg, ev, got, want, v.Queries)
			}
		}
		if alg == "cost-reduce" {
			continue
		}
		// The same strategy, after other jobs and events, decides every §8
		// case as a fresh one does.
		for _, x := range c {
			for algs, want := range x.want {
				if !slices.Contains(strings.Split(algs, ","), alg) || alg == "lrr" {
					continue
				}
				if got := decide(s, x.script(t, nil), offer(t, x.job)); !slices.Equal(got, want) {
					t.Errorf("%s, reused, %s: got %q want %q", alg, x.name, got, want)
				}
				for _, ev := range evs {
					if _, err := s.Event(v, ev); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestQueryErrorsPropagate: a failed query ends the decision with that
// error (the loop reports it and QUITs); nothing is scheduled.
func TestQueryErrorsPropagate(t *testing.T) {
	c := section8(t)
	for _, x := range c {
		if x.name != "8.2.a" {
			continue
		}
		for _, alg := range []string{"wf", "bf", "bfq", "wfq"} {
			v := x.script(t, nil)
			v.LSTJ = nil // LSTJ large 0 now fails
			got := decide(mustNew(t, alg), v, offer(t, x.job))
			if len(got) != 3 || !strings.HasPrefix(got[2], "error: "+alg+": unscripted query \"LSTJ large 0\"") {
				t.Errorf("%s: got %q", alg, got)
			}
		}
		for _, alg := range append(strategies.ReferenceNames(), "cost-reduce") {
			v := &fakeView{Sys: sysS(t)} // nothing scripted: the first GETS fails
			got := decide(mustNew(t, alg), v, offer(t, x.job))
			if len(got) != 2 || !strings.HasPrefix(got[1], "error: ") || !strings.Contains(got[1], "unscripted query \"GETS ") {
				t.Errorf("%s with a failing GETS: got %q", alg, got)
			}
		}
	}
}

// TestNoSystem: without server types every strategy reports an error
// instead of panicking.
func TestNoSystem(t *testing.T) {
	for _, alg := range append(strategies.ReferenceNames(), "cost-reduce") {
		v := &fakeView{Capable: []protocol.Server{}, Avail: []protocol.Server{}}
		got := decide(mustNew(t, alg), v, offer(t, "JOBN 0 1 1 100 100 5"))
		if len(got) == 0 || !strings.Contains(got[len(got)-1], "no server types") {
			t.Errorf("%s without a system: %q", alg, got)
		}
	}
}

// TestNewIsFresh: every New gives independent state (lrr's counter).
func TestNewIsFresh(t *testing.T) {
	job := offer(t, "JOBN 0 1 1 100 100 5")
	a := mustNew(t, "lrr")
	decide(a, &fakeView{Sys: sysTW(t), Capable: []protocol.Server{}}, job)
	got := decide(mustNew(t, "lrr"), &fakeView{Sys: sysTW(t), Capable: []protocol.Server{}}, job)
	if got[len(got)-1] != "SCHD 0 big16a 0" {
		t.Errorf("a new lrr continued another's counter: %q", got)
	}
}
