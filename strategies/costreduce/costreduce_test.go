package costreduce

import (
	"encoding/xml"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

func newCostReduce(t testing.TB, mult string) strategies.Strategy {
	t.Helper()
	s, err := strategies.New("cost-reduce", map[string]string{"multiplier": mult})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type fixtureJob struct {
	ID     int `xml:"id,attr"`
	Submit int `xml:"submitTime,attr"`
	Est    int `xml:"estRunTime,attr"`
	Act    int `xml:"actRunTime,attr"`
	Cores  int `xml:"cores,attr"`
	Memory int `xml:"memory,attr"`
	Disk   int `xml:"disk,attr"`
}

func loadJobs(t testing.TB, path string) []fixtureJob {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Jobs []fixtureJob `xml:"job"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc.Jobs
}

func (j fixtureJob) job() protocol.Job {
	return protocol.Job{ID: j.ID, Submit: j.Submit, Cores: j.Cores, Memory: j.Memory, Disk: j.Disk, EstRunTime: j.Est}
}

// TestCostReduceScenario is cost-reduce.md's section 3.1 scenario on
// sample-config01 with multiplier 4, using the fixture's job values. The
// server states between decisions are the ones the note implies, tracked by
// hand with ds-server.md §4.2 (placement) and §3.4 (advance):
//
//	job 0 → super-silk 0 (only inactive servers; cheapest per core)
//	job 1 → super-silk 0 (EJWT = est0 ≤ 4 × est1)
//	job 2 → joon 1       (EJWT = est0+est1 > 4 × est2; last of the equally priced inactive)
//	job 3 → joon 0       (super-silk 0 is still the cheapest powered server, same wait)
//	job 4 → super-silk 0 (booted, active, room, no waiting job: rule 1)
func TestCostReduceScenario(t *testing.T) {
	dir := fixtures.Dir(t)
	sys := systemOf(t, dir, "sample-config01")
	jobs := loadJobs(t, filepath.Join(dir, "fixtures", "sample-config01", "jobs.xml"))
	if len(jobs) < 5 {
		t.Fatalf("sample-config01 has %d jobs", len(jobs))
	}
	ty := func(n string) servertypes.Type { x, _ := sys.Lookup(n); return x }
	inactive := func(n string, id int) protocol.Server {
		x := ty(n)
		return protocol.Server{Type: n, ID: id, State: protocol.Inactive, CurStartTime: -1, Cores: x.Cores, Memory: x.Memory, Disk: x.Disk}
	}
	// All five servers in the server's (sorted) order.
	all := []protocol.Server{inactive("juju", 0), inactive("juju", 1), inactive("joon", 0), inactive("joon", 1), inactive("super-silk", 0)}
	at := func(n string, id int) *protocol.Server {
		for i := range all {
			if all[i].Type == n && all[i].ID == id {
				return &all[i]
			}
		}
		t.Fatalf("no %s %d", n, id)
		return nil
	}
	// place applies ds-server.md §4.2 for an inactive or booting target
	// whose waiting jobs all have a known start and where the job fits.
	wait := map[protocol.ServerRef]int{} // EJWT: est of the waiting jobs (§5.10)
	place := func(s *protocol.Server, j fixtureJob) {
		if s.State == protocol.Inactive {
			s.State, s.CurStartTime = protocol.Booting, j.Submit+ty(s.Type).BootupTime
		}
		if s.State != protocol.Booting || !s.Fits(protocol.Requirement{Cores: j.Cores, Memory: j.Memory, Disk: j.Disk}) {
			t.Fatalf("the scenario's implied state does not hold for job %d on %s", j.ID, s.Ref())
		}
		s.Cores, s.Memory, s.Disk = s.Cores-j.Cores, s.Memory-j.Memory, s.Disk-j.Disk
		s.Waiting++
		wait[s.Ref()] += j.Est
	}
	type step struct {
		place string // the decision, "type id"
		msgs  func(req string) []string
	}
	ej := "EJWT super-silk 0"
	steps := []step{
		{"super-silk 0", func(q string) []string { return m(ga(q), gc(q), "SCHD 0 super-silk 0") }},
		{"super-silk 0", func(q string) []string { return m(ga(q), gc(q), ej, "SCHD 1 super-silk 0") }},
		{"joon 1", func(q string) []string { return m(ga(q), gc(q), ej, "SCHD 2 joon 1") }},
		{"joon 0", func(q string) []string { return m(ga(q), gc(q), ej, "SCHD 3 joon 0") }},
		{"super-silk 0", func(q string) []string { return m(ga(q), "SCHD 4 super-silk 0") }},
	}
	s := newCostReduce(t, "4")
	for i, st := range steps {
		j := jobs[i]
		if i == 4 {
			// §3.4: super-silk 0 finished booting (its two known-start jobs
			// run and end after job 4's submit); joon 0 and 1 still boot.
			ss := at("super-silk", 0)
			if ss.CurStartTime > j.Submit || at("joon", 1).CurStartTime <= j.Submit || at("joon", 0).CurStartTime <= j.Submit ||
				ss.CurStartTime+jobs[0].Act <= j.Submit || ss.CurStartTime+jobs[1].Act <= j.Submit {
				t.Fatal("the fixture's times do not give the scenario's state at job 4")
			}
			ss.State, ss.Waiting, ss.Running = protocol.Active, 0, 2
			wait[ss.Ref()] = 0
		}
		req := protocol.Requirement{Cores: j.Cores, Memory: j.Memory, Disk: j.Disk}
		v := &fakeView{Sys: sys, Capable: capableOf(sys, all, req), Avail: availOf(all, req), EJWT: map[protocol.ServerRef]int{}}
		for _, r := range all {
			if r.State.Powered() {
				v.EJWT[r.Ref()] = wait[r.Ref()]
			}
		}
		got := decide(s, v, j.job())
		want := st.msgs(req.String())
		if !slices.Equal(got, want) {
			t.Fatalf("job %d (est %d, EJWT super-silk 0 = %d):\n got  %q\n want %q", j.ID, j.Est, wait[protocol.ServerRef{Type: "super-silk"}], got, want)
		}
		if i < 4 {
			r := ref(t, st.place)
			place(at(r.Type, r.ID), j)
		}
	}
	// The report's reasons hold with these values.
	if w := jobs[0].Est; w > 4*jobs[1].Est {
		t.Errorf("job 1: wait %d should be ≤ 4 × %d", w, jobs[1].Est)
	}
	if w := jobs[0].Est + jobs[1].Est; w <= 4*jobs[2].Est || w <= 4*jobs[3].Est {
		t.Errorf("jobs 2, 3: wait %d should exceed 4 × est", w)
	}
}

// costRandom makes a random but consistent cluster state for cost-reduce:
// GETS Capable/Avail as ds-server would answer (§5.3) and EJWT values that
// are 0 exactly when a server has no waiting job.
func costRandom(rng *rand.Rand, sys *servertypes.System) (*fakeView, protocol.Job) {
	var all []protocol.Server
	ejwt := map[protocol.ServerRef]int{}
	maxCores := 0
	for _, ty := range sys.Sorted() {
		maxCores = max(maxCores, ty.Cores)
		for id := 0; id < ty.Limit; id++ {
			s := protocol.Server{Type: ty.Name, ID: id, CurStartTime: -1, Cores: ty.Cores, Memory: ty.Memory, Disk: ty.Disk}
			switch rng.IntN(6) {
			case 0, 1:
				s.State = protocol.Inactive
			case 2:
				s.State, s.CurStartTime, s.Waiting = protocol.Booting, 100, 1+rng.IntN(3)
				s.Cores = rng.IntN(ty.Cores + 1)
			case 3:
				s.State, s.CurStartTime = protocol.Idle, 50
			case 4:
				s.State, s.CurStartTime, s.Running = protocol.Active, 50, 1+rng.IntN(3)
				s.Cores = rng.IntN(ty.Cores)
				if rng.IntN(2) == 0 {
					s.Waiting = 1 + rng.IntN(3)
				}
			case 5:
				s.State, s.Cores, s.Memory, s.Disk = protocol.Unavailable, 0, 0, 0
			}
			if s.Waiting > 0 {
				ejwt[s.Ref()] = 1 + rng.IntN(3000)
			} else if s.State.Powered() {
				ejwt[s.Ref()] = 0
			}
			all = append(all, s)
		}
	}
	job := protocol.Job{ID: rng.IntN(100), Submit: 200, Cores: 1 + rng.IntN(maxCores), Memory: 100, Disk: 100, EstRunTime: 1 + rng.IntN(1000)}
	v := &fakeView{Sys: sys, Capable: capableOf(sys, all, job.Req()), Avail: availOf(all, job.Req()), EJWT: ejwt}
	return v, job
}

// costCheck checks the message-sequence rule and rules 1–3 on one decision
// and returns the chosen record (nil for ENQJ) and whether rule 2 ran.
func costCheck(t *testing.T, v *fakeView, job protocol.Job, got []string) (chosen *protocol.Server, step2 bool) {
	t.Helper()
	fail := func(why string) {
		t.Helper()
		t.Fatalf("%s\n job %+v\n capable %v\n messages %q", why, job, v.Capable, got)
	}
	if len(got) < 2 || got[0] != ga(job.Req().String()) {
		fail("the first message must be the one GETS Avail")
	}
	last := got[len(got)-1]
	// Rule 1.
	var first *protocol.Server
	for i := range v.Avail {
		if r := &v.Avail[i]; r.State == protocol.Idle || r.State == protocol.Active && r.Waiting == 0 {
			first = r
			break
		}
	}
	if first != nil {
		if len(got) != 2 || last != "SCHD "+itoa(job.ID)+" "+first.Ref().String() {
			fail("rule 1 must take the first idle/active-without-waiting Avail record, with no other query")
		}
		return first, false
	}
	if got[1] != gc(job.Req().String()) {
		fail("the second message must be the one GETS Capable")
	}
	// The EJWTs: exactly the cheapest-per-core powered records, in order.
	var p []*protocol.Server
	pStar := math.Inf(1)
	for i := range v.Capable {
		r := &v.Capable[i]
		if r.State.Powered() {
			ty, _ := v.Sys.Lookup(r.Type)
			pStar = math.Min(pStar, ty.CostPerCore())
		}
	}
	var wantEJ []string
	for i := range v.Capable {
		r := &v.Capable[i]
		if ty, _ := v.Sys.Lookup(r.Type); r.State.Powered() && samePPC(ty.CostPerCore(), pStar) {
			p = append(p, r)
			wantEJ = append(wantEJ, "EJWT "+r.Ref().String())
		}
	}
	if !slices.Equal(got[2:len(got)-1], wantEJ) {
		fail("EJWT must be sent once for each cheapest powered server, in GETS order, and nothing else")
	}
	if last == "ENQJ GQ" {
		for _, r := range v.Capable {
			if r.State != protocol.Unavailable {
				fail("ENQJ GQ although a capable server is not unavailable")
			}
		}
		return nil, true
	}
	for i := range v.Capable {
		if r := &v.Capable[i]; last == "SCHD "+itoa(job.ID)+" "+r.Ref().String() {
			if r.State == protocol.Unavailable {
				fail("chose an unavailable server")
			}
			return r, true
		}
	}
	fail("the decision is not a capable server")
	return nil, true
}

// TestCostReduceProperties: over random consistent states, the message
// sequence rule always holds; multiplier 0 never queues behind a non-empty
// wait when an inactive server exists; a huge multiplier never boots while a
// powered capable server exists; the default multiplier picks between the
// two by the rule.
func TestCostReduceProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 100))
	systems := []*servertypes.System{sysS(t), sysTW(t), sysTR(t), sysSample01(t)}
	counts := map[string]int{}
	for n := 0; n < 3000; n++ {
		sys := systems[n%len(systems)]
		v, job := costRandom(rng, sys)
		for _, mult := range []string{"0", "4", "1e300"} {
			v.Sent = nil
			got := decide(newCostReduce(t, mult), v, job)
			chosen, step2 := costCheck(t, v, job, got)
			if !step2 || chosen == nil {
				counts["rule1/enqj"]++
				continue
			}
			hasInactive, hasPowered := false, false
			for _, r := range v.Capable {
				hasInactive = hasInactive || r.State == protocol.Inactive
				hasPowered = hasPowered || r.State.Powered()
			}
			switch mult {
			case "0":
				if hasInactive && chosen.State.Powered() && v.EJWT[chosen.Ref()] > 0 {
					t.Fatalf("multiplier 0 queued behind wait %d on %s with an inactive server available: %q",
						v.EJWT[chosen.Ref()], chosen.Ref(), got)
				}
				counts["m0"]++
			case "1e300":
				if hasPowered && chosen.State == protocol.Inactive {
					t.Fatalf("a huge multiplier booted %s while a powered server exists: %q", chosen.Ref(), got)
				}
				counts["huge"]++
			case "4":
				if hasPowered && hasInactive {
					// best = first minimal EJWT among the EJWT'd servers
					var best string
					bw := math.MaxInt
					for _, g := range got[2 : len(got)-1] {
						r := ref(t, strings.TrimPrefix(g, "EJWT "))
						if v.EJWT[r] < bw {
							best, bw = r.String(), v.EJWT[r]
						}
					}
					boot := float64(bw) > float64(job.EstRunTime)*4
					if boot != (chosen.State == protocol.Inactive) || !boot && chosen.Ref().String() != best {
						t.Fatalf("multiplier 4: wait %d, est %d, chose %s (best %s): %q", bw, job.EstRunTime, chosen.Ref(), best, got)
					}
					counts["both"]++
				}
			}
		}
	}
	for _, k := range []string{"rule1/enqj", "m0", "huge", "both"} {
		if counts[k] < 100 {
			t.Errorf("only %d random cases exercised %s", counts[k], k)
		}
	}
	t.Logf("cases: %v", counts)
}

// TestCostReduceTies: among equally priced inactive servers the LAST in
// GETS order wins; among cheapest powered servers the first with the
// smallest EJWT wins; a cheaper powered type is the only one asked EJWT.
func TestCostReduceTies(t *testing.T) {
	sys := sysSample01(t) // ppc: juju 0.1, joon 0.1, super-silk 0.05
	s := newCostReduce(t, "4")
	v := &fakeView{Sys: sys, Avail: []protocol.Server{},
		Capable: recs(t,
			"juju 0 booting 100 0 100 100 1 0", "juju 1 active 50 0 100 100 2 1",
			"joon 0 active 50 0 100 100 1 1", "joon 1 inactive -1 4 16000 64000 0 0",
			"super-silk 0 unavailable -1 0 0 0 0 0"),
		EJWT: map[protocol.ServerRef]int{{Type: "juju", ID: 0}: 300, {Type: "juju", ID: 1}: 200, {Type: "joon", ID: 0}: 200}}
	job := offer(t, "JOBN 5 10 1 100 100 100")
	want := m(ga("1 100 100"), gc("1 100 100"), "EJWT juju 0", "EJWT juju 1", "EJWT joon 0", "SCHD 5 juju 1")
	if got := decide(s, v, job); !slices.Equal(got, want) {
		t.Errorf("powered tie:\n got  %q\n want %q", got, want)
	}
	// Waits above 4 × est: boot the last equally priced inactive server.
	v.Capable = recs(t, "juju 0 inactive -1 2 4000 16000 0 0", "juju 1 active 50 0 100 100 2 1",
		"joon 0 inactive -1 4 16000 64000 0 0", "joon 1 inactive -1 4 16000 64000 0 0", "super-silk 0 unavailable -1 0 0 0 0 0")
	v.EJWT = map[protocol.ServerRef]int{{Type: "juju", ID: 1}: 401}
	want = m(ga("1 100 100"), gc("1 100 100"), "EJWT juju 1", "SCHD 5 joon 1")
	if got := decide(s, v, job); !slices.Equal(got, want) {
		t.Errorf("inactive tie:\n got  %q\n want %q", got, want)
	}
	v.EJWT[protocol.ServerRef{Type: "juju", ID: 1}] = 400 // = 4 × est: not greater, queue
	want[len(want)-1] = "SCHD 5 juju 1"
	if got := decide(s, v, job); !slices.Equal(got, want) {
		t.Errorf("wait = 4 × est:\n got  %q\n want %q", got, want)
	}
	// A cheaper powered type: only it is asked; booting counts as powered
	// in rule 2 but is never taken by rule 1.
	v.Avail = recs(t, "juju 0 inactive -1 2 4000 16000 0 0", "joon 0 active 50 3 15000 60000 1 1")
	v.Capable = recs(t, "juju 0 inactive -1 2 4000 16000 0 0", "juju 1 active 50 0 100 100 2 1",
		"super-silk 0 booting 300 15 63000 510000 1 0")
	v.EJWT = map[protocol.ServerRef]int{{Type: "super-silk", ID: 0}: 10}
	want = m(ga("1 100 100"), gc("1 100 100"), "EJWT super-silk 0", "SCHD 5 super-silk 0")
	if got := decide(s, v, job); !slices.Equal(got, want) {
		t.Errorf("cheaper powered type:\n got  %q\n want %q", got, want)
	}
	// Only unavailable servers: ENQJ GQ.
	v.Avail = []protocol.Server{}
	v.Capable = recs(t, "juju 0 unavailable -1 0 0 0 0 0 1 10 100 10 50 0")
	want = m(ga("1 100 100"), gc("1 100 100"), "ENQJ GQ")
	if got := decide(s, v, job); !slices.Equal(got, want) {
		t.Errorf("all unavailable:\n got  %q\n want %q", got, want)
	}
}

// TestCostReduceRefusal: rule 4. After an ERR to SCHD the loop calls Job
// again with the server excluded: no GETS Avail, a fresh GETS Capable, no
// EJWT for an excluded server, never an excluded server chosen; when every
// candidate has been refused the result is ErrNoServer.
func TestCostReduceRefusal(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	systems := []*servertypes.System{sysS(t), sysTW(t), sysSample01(t)}
	sawRule1 := 0
	for n := 0; n < 300; n++ {
		sys := systems[n%len(systems)]
		v, job := costRandom(rng, sys)
		s := newCostReduce(t, "4")
		candidates := 0
		for _, r := range v.Capable {
			if r.State != protocol.Unavailable {
				candidates++
			}
		}
		for attempt := 0; ; attempt++ {
			got := decide(s, v, job)
			last := got[len(got)-1]
			if attempt == 0 {
				if len(got) == 2 && strings.HasPrefix(last, "SCHD") {
					sawRule1++
				}
				if last == "ENQJ GQ" {
					break
				}
			} else {
				if slices.Contains(got, ga(job.Req().String())) || got[0] != gc(job.Req().String()) {
					t.Fatalf("retry %d must start from GETS Capable without GETS Avail: %q", attempt, got)
				}
				for _, x := range v.Refused {
					if slices.Contains(got, "EJWT "+x.String()) {
						t.Fatalf("retry %d asked EJWT of excluded %s: %q", attempt, x, got)
					}
				}
			}
			if last == "ErrNoServer" {
				if attempt != candidates {
					t.Fatalf("ErrNoServer after %d refusals, but %d candidates", attempt, candidates)
				}
				break
			}
			if !strings.HasPrefix(last, "SCHD ") {
				t.Fatalf("attempt %d: %q", attempt, got)
			}
			r := ref(t, strings.SplitN(last, " ", 3)[2])
			if slices.Contains(v.Refused, r) {
				t.Fatalf("attempt %d chose excluded %s", attempt, r)
			}
			v.Refused = append(v.Refused, r)
			if attempt > candidates {
				t.Fatal("no end to the retries")
			}
		}
	}
	if sawRule1 < 20 {
		t.Errorf("only %d refusals of a rule-1 choice exercised", sawRule1)
	}
}

// TestCostReduceParams: the multiplier defaults to 4 and a setting is
// parsed as a float (surrounding blanks allowed).
func TestCostReduceParams(t *testing.T) {
	s, err := strategies.New("cost-reduce", nil)
	if err != nil || s.(*costReduce).mult != 4 {
		t.Errorf("cost-reduce default: %v %+v", err, s)
	}
	s, err = strategies.New("cost-reduce", map[string]string{"multiplier": " 2.5 "})
	if err != nil || s.(*costReduce).mult != 2.5 {
		t.Errorf("cost-reduce multiplier=2.5: %v %+v", err, s)
	}
}
