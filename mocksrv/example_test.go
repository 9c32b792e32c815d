package mocksrv_test

import (
	"fmt"
	"io"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
)

// exampleConfig is a small ds-sim configuration: two server types, and
// five jobs generated from the seed as ds-server generates them.
const exampleConfig = `<?xml version="1.0" encoding="UTF-8"?>
<config randomSeed="7">
  <servers>
    <server type="small" limit="2" bootupTime="30" hourlyRate="0.2" cores="2" memory="4000" disk="16000" />
    <server type="large" limit="1" bootupTime="60" hourlyRate="0.8" cores="8" memory="32000" disk="128000" />
  </servers>
  <jobs>
    <job type="short" minRunTime="10" maxRunTime="300" populationRate="100" />
  </jobs>
  <workload type="alternating" minLoad="20" maxLoad="60" />
  <termination>
    <condition type="jobcount" value="5" />
  </termination>
</config>
`

// The simulator in-process, driven message by message: the same dialogue
// a client has with ds-server over TCP, as typed Go values, and the report
// at the end. Every job goes to the first capable server.
func ExampleSession() {
	cfg, err := mocksrv.ParseConfig("example.xml", []byte(exampleConfig), mocksrv.LoadOptions{})
	if err != nil {
		panic(err)
	}
	s, err := mocksrv.NewSession(cfg, mocksrv.Options{Stderr: io.Discard})
	if err != nil {
		panic(err)
	}
	if err := s.Handshake("me"); err != nil {
		panic(err)
	}
	for {
		ev, err := s.Ready()
		if err != nil {
			panic(err)
		}
		if _, done := ev.(*protocol.NoMoreJobs); done {
			break
		}
		job, ok := ev.(*protocol.JobOffer)
		if !ok {
			continue // a completion: nothing to decide
		}
		servers, err := s.GetsCapable(job.Req())
		if err != nil {
			panic(err)
		}
		fmt.Printf("job %d, cores %d: %s (hourly rate %.2f)\n", job.ID, job.Cores, servers[0].Ref(), servers[0].Rate)
		if _, err := s.Do(protocol.Schedule{JobID: job.ID, Server: servers[0].Ref()}); err != nil {
			panic(err)
		}
	}
	if err := s.Quit(); err != nil {
		panic(err)
	}
	r := s.Report()
	fmt.Printf("%d jobs, avg turnaround %d s, total cost $%.2f\n", r.Jobs, r.AvgTurnaround, r.TotalCost)
	// Output:
	// job 0, cores 2: small 0 (hourly rate 0.20)
	// job 1, cores 2: small 0 (hourly rate 0.20)
	// job 2, cores 1: small 0 (hourly rate 0.20)
	// job 3, cores 1: small 0 (hourly rate 0.20)
	// job 4, cores 5: large 0 (hourly rate 0.80)
	// 5 jobs, avg turnaround 386 s, total cost $0.09
}
