package mocksrv_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/memwork"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all"
)

// runSession is one whole in-process run with no log.
func runSession(b testing.TB, cfg *mocksrv.Config, algo string, opt mocksrv.Options) *mocksrv.Report {
	s, err := mocksrv.NewSession(cfg, opt)
	if err != nil {
		b.Fatal(err)
	}
	st, err := strategies.New(algo, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := client.Run(st, s, client.Options{User: "root",
		System: func(client.Backend) (*servertypes.System, error) { return s.System() }}); err != nil {
		b.Fatal(err)
	}
	return s.Report()
}

// BenchmarkInProcessConfig100LongHighFF: a whole config100-long-high run
// with ff (2000 jobs, 100 servers) in-process. The real ds-server with its
// client takes 0.50 s wall for it; the requirement is < 10 ms.
func BenchmarkInProcessConfig100LongHighFF(b *testing.B) {
	cfg := fixtureConfig(b, "config100-long-high")
	want := readExpected(b, "config100-long-high", "ff")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep := runSession(b, cfg, "ff", mocksrv.Options{}); rep.Text != want {
			b.Fatalf("wrong summary:\n%s", rep.Text)
		}
	}
}

// BenchmarkInProcessConfig100LongHighFFFresh: the same with
// Options.FreshRecords (a new slice for every GETS result).
func BenchmarkInProcessConfig100LongHighFFFresh(b *testing.B) {
	cfg := fixtureConfig(b, "config100-long-high")
	want := readExpected(b, "config100-long-high", "ff")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep := runSession(b, cfg, "ff", mocksrv.Options{FreshRecords: true}); rep.Text != want {
			b.Fatalf("wrong summary:\n%s", rep.Text)
		}
	}
}

// BenchmarkTCPConfig100LongHighFF: the same run through the text front
// over loopback TCP with the wire client (a listener per run, as dsmock
// runs one connection).
func BenchmarkTCPConfig100LongHighFF(b *testing.B) {
	cfg := fixtureConfig(b, "config100-long-high")
	want := readExpected(b, "config100-long-high", "ff")
	sys := systemOf(b, cfg)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		addr, ch := serveOne(b, cfg, mocksrv.Options{}, 0)
		if err := runWire(b, addr, "ff", protocol.Plain, sys, nil); err != nil {
			b.Fatal(err)
		}
		r := <-ch
		if r.err != nil {
			b.Fatal(r.err)
		}
		if r.t.Report().Text != want {
			b.Fatalf("wrong summary:\n%s", r.t.Report().Text)
		}
	}
}

// bigConfig is a generated 1,000-server system with 20,000 generated jobs
// (job generation of Appendix A, through the loader).
func bigConfigXML() string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<config randomSeed=\"4242\">\n<servers>\n")
	types := []struct {
		name           string
		cores, mem, dk int
		rate           string
	}{{"tiny", 1, 1000, 4000, "0.1"}, {"small", 2, 4000, 16000, "0.2"}, {"medium", 4, 16000, 64000, "0.4"},
		{"large", 8, 32000, 256000, "0.8"}, {"xlarge", 16, 64000, 512000, "1.6"}}
	for _, t := range types {
		fmt.Fprintf(&b, "<server type=%q limit=\"200\" bootupTime=\"60\" hourlyRate=%q cores=\"%d\" memory=\"%d\" disk=\"%d\" />\n",
			t.name, t.rate, t.cores, t.mem, t.dk)
	}
	b.WriteString(`</servers>
<jobs>
<job type="short" minRunTime="1" maxRunTime="300" populationRate="30" />
<job type="medium" minRunTime="301" maxRunTime="1800" populationRate="50" />
<job type="long" minRunTime="1801" maxRunTime="7200" populationRate="20" />
</jobs>
<workload type="moderate" minLoad="40" maxLoad="80" />
<termination><condition type="endtime" value="2592000" /><condition type="jobcount" value="20000" /></termination>
</config>
`)
	return b.String()
}

var (
	bigOnce sync.Once
	bigCfg  *mocksrv.Config
	bigErr  error
)

func bigConfig(b testing.TB) *mocksrv.Config {
	bigOnce.Do(func() {
		bigCfg, bigErr = mocksrv.ParseConfig("big.xml", []byte(bigConfigXML()), mocksrv.LoadOptions{})
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigCfg
}

// BenchmarkInProcessGenerated20kJobs1kServers: a 20,000-job, 1,000-server
// run with ff in-process (must be < 1 s and < 200 MB).
func BenchmarkInProcessGenerated20kJobs1kServers(b *testing.B) {
	cfg := bigConfig(b)
	if len(cfg.Jobs) != 20000 {
		b.Fatalf("%d jobs generated", len(cfg.Jobs))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep := runSession(b, cfg, "ff", mocksrv.Options{}); rep.Jobs != 20000 {
			b.Fatalf("%d jobs completed", rep.Jobs)
		}
	}
	reportPeak(b)
}

// reportPeak reports the memory the process obtained from the OS (the
// peak footprint; B/op counts garbage too).
func reportPeak(b *testing.B) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/(1<<20), "MB-sys")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "MB-heap-sys")
}

// BenchmarkInProcessGenerated20kJobs1kServersFresh: the same with
// Options.FreshRecords.
func BenchmarkInProcessGenerated20kJobs1kServersFresh(b *testing.B) {
	cfg := bigConfig(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep := runSession(b, cfg, "ff", mocksrv.Options{FreshRecords: true}); rep.Jobs != 20000 {
			b.Fatalf("%d jobs completed", rep.Jobs)
		}
	}
	reportPeak(b)
}

// TestGenerated20kJobs1kServersFast is the functional side of the big
// benchmark: the run completes every job, and the same run through the text
// front (no TCP) gives the same report.
func TestGenerated20kJobs1kServersFast(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	cfg := bigConfig(t)
	start := time.Now()
	rep := runSession(t, cfg, "ff", mocksrv.Options{})
	t.Logf("in-process run: %v, %d jobs, end %d", time.Since(start), rep.Jobs, rep.EndTime)
	if rep.Jobs != len(cfg.Jobs) {
		t.Fatalf("%d of %d jobs completed", rep.Jobs, len(cfg.Jobs))
	}
}

// memWorkConfig is the memory extension's default workload (2000 jobs of
// mocksrv/memwork.Defaults) on the f = 1/4 cluster, loaded as dsmock does.
func memWorkConfig(b testing.TB) *mocksrv.Config {
	pt := memwork.Point{Params: memwork.Defaults(), F: 0.25}
	cfgXML, jobsXML, err := memwork.Files(pt)
	if err != nil {
		b.Fatal(err)
	}
	fsys := fstest.MapFS{"m/config.xml": {Data: cfgXML}, "m/jobs.xml": {Data: jobsXML}}
	cfg, err := mocksrv.ParseConfig("m/config.xml", cfgXML, mocksrv.LoadOptions{FS: fsys})
	if err != nil {
		b.Fatal(err)
	}
	return cfg
}

// BenchmarkInProcessMemExtSGME: a whole in-process run with the memory
// extension on (failure model hard): sgme in mock mode over the memwork
// default workload (2000 jobs, 32 servers, f = 1/4). Every job completes
// and the report counts the memory failures.
func BenchmarkInProcessMemExtSGME(b *testing.B) {
	cfg := memWorkConfig(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := mocksrv.NewSession(cfg, mocksrv.Options{MemFail: mocksrv.MemFailHard})
		if err != nil {
			b.Fatal(err)
		}
		st, err := strategies.New("sgme", map[string]string{"mode": "mock"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := client.Run(st, s, client.Options{User: "root",
			System: func(client.Backend) (*servertypes.System, error) { return s.System() }}); err != nil {
			b.Fatal(err)
		}
		rep := s.Report()
		if rep.Jobs != 2000 || rep.Unscheduled != 0 || rep.Failed != rep.MemFailures {
			b.Fatalf("jobs %d, unscheduled %d, failed %d, memory failures %d", rep.Jobs, rep.Unscheduled, rep.Failed, rep.MemFailures)
		}
		b.ReportMetric(float64(rep.MemFailures), "memfail/run")
		b.ReportMetric(float64(rep.WastedCoreSeconds), "wasted-core-s/run")
	}
}
