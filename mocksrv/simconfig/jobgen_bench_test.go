package simconfig

import (
	"path/filepath"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// bench20k is a 1,000-server system (four types) with jobcount 20000 and a
// long-job mix, so that many earlier jobs are still running at each submit.
const bench20k = `<?xml version="1.0" encoding="UTF-8"?>
<config randomSeed="4242">
  <servers>
    <server type="small" limit="400" bootupTime="60" hourlyRate="0.2" cores="2" memory="4000" disk="16000" />
    <server type="medium" limit="300" bootupTime="60" hourlyRate="0.4" cores="4" memory="16000" disk="64000" />
    <server type="large" limit="200" bootupTime="60" hourlyRate="0.8" cores="8" memory="32000" disk="256000" />
    <server type="xlarge" limit="100" bootupTime="60" hourlyRate="1.6" cores="16" memory="64000" disk="512000" />
  </servers>
  <jobs>
    <job type="short" minRunTime="1" maxRunTime="300" populationRate="40" />
    <job type="medium" minRunTime="301" maxRunTime="3600" populationRate="40" />
    <job type="long" minRunTime="3601" maxRunTime="86400" populationRate="20" />
  </jobs>
  <workload type="high" minLoad="60" maxLoad="90" />
  <termination>
    <condition type="jobcount" value="20000" />
  </termination>
</config>
`

func BenchmarkGenerate20kJobs1kServers(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := ParseConfig("bench20k.xml", []byte(bench20k), LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Jobs) != 20000 {
			b.Fatalf("%d jobs", len(c.Jobs))
		}
	}
}

func BenchmarkLoadConfig100LongHigh(b *testing.B) {
	p := filepath.Join(fixtures.Dir(b), "configs", "config100-long-high.xml")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := LoadConfig(p, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Jobs) != 2000 {
			b.Fatalf("%d jobs", len(c.Jobs))
		}
	}
}

// BenchmarkLoadJobFile: the largest shared fixture (5000 jobs from a job file).
func BenchmarkLoadJobFile(b *testing.B) {
	p := filepath.Join(fixtures.Dir(b), "fixtures", "sample-config05", "config.xml")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := LoadConfig(p, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Jobs) != 5000 {
			b.Fatalf("%d jobs", len(c.Jobs))
		}
	}
}

func BenchmarkJobsXML(b *testing.B) {
	c, err := ParseConfig("bench20k.xml", []byte(bench20k), LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = c.JobsXML(model.Year2025, true)
	}
}
