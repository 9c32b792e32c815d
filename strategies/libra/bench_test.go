package libra_test

import (
	"path/filepath"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// A whole in-process run of config100-long-high (2,000 jobs, 100 servers)
// per variant.
func BenchmarkRunConfig100LongHigh(b *testing.B) {
	path := filepath.Join(fixtures.Dir(b), "fixtures", "config100-long-high")
	for _, name := range []string{"libra", "libraplus", "librasla", "librariskd", "fcfs", "sjf", "edf"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := strattest.RunNamed(path, name, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// decisionCluster is 1,000 servers (five types of 200: 1, 2, 4, 8, 16
// cores): every fourth server off, the others each running one job and
// with one or two waiting (800 busy timelines to replay, 1,200 running
// and 1,200 waiting jobs in all), and a 2-core job on offer.
func decisionCluster(b *testing.B) (*strattest.FakeView, protocol.Job) {
	var types []servertypes.Type
	for i, c := range []int{1, 2, 4, 8, 16} {
		types = append(types, servertypes.Type{Name: string(rune('a' + i)), Limit: 200, BootupTime: 60,
			HourlyRate: 0.1 * float64(c), Cores: c, Memory: 4000 * c, Disk: 16000 * c})
	}
	sys := strattest.System(types...)
	l := strategies.NewLedger(sys)
	id := 0
	place := func(m protocol.ServerRef, cores, est int) {
		j := protocol.Job{ID: id, Submit: 0, Cores: cores, Memory: 100, Disk: 100, EstRunTime: est}
		l.Observe(&protocol.JobOffer{Job: j})
		if err := l.Applied(protocol.Schedule{JobID: id, Server: m}, "OK"); err != nil {
			b.Fatal(err)
		}
		id++
	}
	for i, m := range l.Machines() {
		if i%4 == 3 {
			continue
		}
		ref := m.Ref
		place(ref, m.Type.Cores, 500+i%300)
		place(ref, max(1, m.Type.Cores/2), 200+i%100)
		if i%2 == 0 {
			place(ref, 1, 100)
		}
	}
	job := protocol.Job{ID: id, Submit: 100, Cores: 2, Memory: 1000, Disk: 2000, EstRunTime: 300}
	l.Observe(&protocol.JobOffer{Job: job})
	return &strattest.FakeView{Sys: sys, Time: 100, Book: l, Quiet: true}, job
}

// BenchmarkDecide1000 is one decision of each variant over 1,000 servers
// (the ledger's timelines; no message is sent).
func BenchmarkDecide1000(b *testing.B) {
	for _, name := range []string{"libra", "libraplus", "librasla", "librariskd", "fcfs", "sjf", "edf"} {
		b.Run(name, func(b *testing.B) {
			v, job := decisionCluster(b)
			s, err := strategies.New(name, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Job(v, job); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(v.Queries)/float64(b.N), "queries/op")
		})
	}
}
