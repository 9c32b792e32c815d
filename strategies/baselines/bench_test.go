package baselines

import (
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// benchView is a 1,000-server cluster (five types × 200) in which a 1-core
// job is capable everywhere: most servers are active and full, every fifth
// is booting (half of those hold a job of unknown start, so LSTJ decides),
// and only the last ten servers of the largest type are free (inactive). ff
// therefore walks almost everything, bf/wf query every booting server, and
// cost-reduce finds nothing in rule 1 and asks EJWT of all 200 servers of
// the cheapest-per-core type.
func benchView(b testing.TB) (*fakeView, protocol.Job) {
	types := []servertypes.Type{
		ty("a1", 200, 30, 0.1, 1, 2000, 8000),
		ty("b2", 200, 40, 0.3, 2, 4000, 16000),
		ty("c4", 200, 50, 0.8, 4, 8000, 32000),
		ty("d8", 200, 60, 2.0, 8, 16000, 64000),
		ty("e16", 200, 70, 4.8, 16, 32000, 128000),
	}
	sys := mkSys(b, types...)
	v := &fakeView{Sys: sys, Quiet: true, LSTJ: map[protocol.ServerRef][]protocol.JobRecord{}, EJWT: map[protocol.ServerRef]int{}}
	var all []protocol.Server
	for _, t := range types {
		for id := 0; id < t.Limit; id++ {
			s := protocol.Server{Type: t.Name, ID: id, State: protocol.Active, CurStartTime: 10,
				Cores: 0, Memory: t.Memory / 2, Disk: t.Disk / 2, Waiting: 1, Running: 1}
			switch {
			case t.Name == "e16" && id >= 190:
				s.State, s.CurStartTime, s.Cores, s.Memory, s.Disk, s.Waiting, s.Running = protocol.Inactive, -1, t.Cores, t.Memory, t.Disk, 0, 0
			case id%5 == 0:
				start := 300
				if id%10 == 0 {
					start = -1
				}
				s.State, s.CurStartTime, s.Cores, s.Running = protocol.Booting, 300, 0, 0
				v.LSTJ[s.Ref()] = []protocol.JobRecord{{ID: id, State: protocol.JobStateWaiting, Submit: 5, Start: 300, EstRunTime: 50, Cores: 1, Memory: 100, Disk: 100},
					{ID: id + 1, State: protocol.JobStateWaiting, Submit: 6, Start: start, EstRunTime: 50, Cores: 1, Memory: 100, Disk: 100}}
			}
			if s.State.Powered() {
				v.EJWT[s.Ref()] = 100 + id
			}
			all = append(all, s)
		}
	}
	job := protocol.Job{ID: 7, Submit: 200, Cores: 1, Memory: 100, Disk: 100, EstRunTime: 60}
	v.Capable = all
	v.Avail = capableOf(sys, availOf(all, job.Req()), job.Req())
	if len(all) != 1000 {
		b.Fatalf("%d servers", len(all))
	}
	return v, job
}

// BenchmarkDecide measures one decision of each strategy over 1,000 GETS
// records (the strategy's own work; the fake view answers from memory).
func BenchmarkDecide(b *testing.B) {
	names := append(strategies.ReferenceNames(), "cost-reduce")
	for _, n := range names {
		b.Run(n, func(b *testing.B) {
			v, job := benchView(b)
			s, err := strategies.New(n, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Job(v, job); err != nil { // warm: binds the table
				b.Fatal(err)
			}
			v.Queries = 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Job(v, job); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(v.Queries)/float64(b.N), "queries/op")
		})
	}
}

// TestBenchViewExercisesLSTJ keeps the benchmark honest: on its cluster the
// strategies take the paths the comment above promises.
func TestBenchViewExercisesLSTJ(t *testing.T) {
	for n, want := range map[string]struct {
		last       string
		lstj, ejwt int
	}{
		"ff": {"SCHD 7 e16 190", 198, 0}, "ffq": {"SCHD 7 e16 190", 198, 0},
		"bf": {"SCHD 7 e16 190", 198, 0}, "wf": {"SCHD 7 e16 190", 198, 0},
		"atl": {"SCHD 7 e16 0", 0, 0}, "fc": {"SCHD 7 a1 0", 0, 0}, "fafc": {"SCHD 7 e16 190", 0, 0},
		"cost-reduce": {"SCHD 7 a1 0", 0, 200},
	} {
		v, job := benchView(t)
		v.Quiet = false
		got := decide(mustNew(t, n), v, job)
		lstj, ejwt := 0, 0
		for _, g := range got {
			lstj += btoi(strings.HasPrefix(g, "LSTJ "))
			ejwt += btoi(strings.HasPrefix(g, "EJWT "))
		}
		if got[len(got)-1] != want.last || lstj != want.lstj || ejwt != want.ejwt {
			t.Errorf("%s: %q with %d LSTJ and %d EJWT, want %s with %d and %d", n, got[len(got)-1], lstj, ejwt, want.last, want.lstj, want.ejwt)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
