package sgme_test

import (
	"testing"
	"testing/fstest"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/memwork"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// BenchmarkDispatch is one mock-mode dispatch with the extension on:
// classify the offer, estimate, ask the base (ff over a scripted GETS
// Capable of two servers), turn SCHD into SCHM, take the outcome, and the
// completion that teaches the group.
func BenchmarkDispatch(b *testing.B) {
	s, err := strategies.New("sgme", map[string]string{"base": "ff", "mode": "mock"})
	if err != nil {
		b.Fatal(err)
	}
	obs := s.(strategies.OutcomeObserver)
	v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(small, 1000), idle(big, 4000)}, Quiet: true}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		j := protocol.Job{ID: i, Submit: i, Cores: 1, Memory: 1000 + 100*(i%16), Disk: 100, EstRunTime: 50}
		acts, err := s.Job(v, j)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := obs.Outcome(v, strategies.Outcome{Action: acts[0], Reply: "OK"}); err != nil {
			b.Fatal(err)
		}
		sm := acts[0].(protocol.ScheduleMem)
		if _, err := s.Event(v, &protocol.JobCompleted{Time: i + 1, JobID: i, Server: sm.Server}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStudyRun is one whole in-process run of the study (memwork's
// default workload, seed 1, on the f = 1/32 cluster, where the global queue
// is longest), the extension on: the base alone (mode=real) and sgme.
func BenchmarkStudyRun(b *testing.B) {
	pt := memwork.Point{Params: memwork.Defaults(), F: 1.0 / 32}
	cfgXML, jobsXML, err := memwork.Files(pt)
	if err != nil {
		b.Fatal(err)
	}
	fsys := fstest.MapFS{"m/config.xml": {Data: cfgXML}, "m/jobs.xml": {Data: jobsXML}}
	for _, mode := range []string{"real", "mock"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cfg, err := mocksrv.ParseConfig("m/config.xml", cfgXML, mocksrv.LoadOptions{FS: fsys})
				if err != nil {
					b.Fatal(err)
				}
				s, err := strategies.New("sgme", map[string]string{"mode": mode})
				if err != nil {
					b.Fatal(err)
				}
				if _, rep, _ := runMockQuiet(b, cfg, s); rep.Jobs != pt.Params.Jobs {
					b.Fatalf("%d jobs completed", rep.Jobs)
				}
			}
		})
	}
}
