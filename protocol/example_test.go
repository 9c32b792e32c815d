package protocol_test

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
)

const exampleConfig = `<config randomSeed="7">
  <servers>
    <server type="small" limit="2" bootupTime="30" hourlyRate="0.2" cores="2" memory="4000" disk="16000" />
    <server type="large" limit="1" bootupTime="60" hourlyRate="0.8" cores="8" memory="32000" disk="128000" />
  </servers>
  <jobs><job type="short" minRunTime="10" maxRunTime="300" populationRate="100" /></jobs>
  <workload type="alternating" minLoad="20" maxLoad="60" />
  <termination><condition type="jobcount" value="3" /></termination>
</config>`

// A client session over TCP, message by message, against the simulator
// serving as dsmock (or ds-server) does: handshake, the server's GETS
// records (ds-server 2026 sends the hourly rate third; a 2025 server does
// not, and Client reads both), a job scheduled on the first capable server,
// QUIT after NONE.
func ExampleClient() {
	cfg, err := mocksrv.ParseConfig("example.xml", []byte(exampleConfig), mocksrv.LoadOptions{})
	if err != nil {
		panic(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	srv := &mocksrv.Listener{Config: cfg, Options: mocksrv.Options{Stderr: io.Discard}}
	go srv.ServeOne(ln)

	c, err := protocol.Dial(context.Background(), ln.Addr().String(), protocol.DialOptions{})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Handshake("me"); err != nil {
		panic(err)
	}
	all, err := c.GetsAll()
	if err != nil {
		panic(err)
	}
	for _, s := range all {
		fmt.Println(s) // a record as the server sent it, without its padding
	}
	for {
		ev, err := c.Ready()
		if err != nil {
			panic(err)
		}
		switch e := ev.(type) {
		case *protocol.JobOffer:
			servers, err := c.GetsCapable(e.Req())
			if err != nil {
				panic(err)
			}
			act := protocol.Schedule{JobID: e.ID, Server: servers[0].Ref()}
			fmt.Println(ev, "→", act)
			if _, err := c.Do(act); err != nil {
				panic(err)
			}
		case *protocol.NoMoreJobs:
			fmt.Println(ev)
			if err := c.Quit(); err != nil {
				panic(err)
			}
			return
		}
	}
	// Output:
	// small 0 0.20 inactive -1 2 4000 16000 0 0
	// small 1 0.20 inactive -1 2 4000 16000 0 0
	// large 0 0.80 inactive -1 8 32000 128000 0 0
	// JOBN 0 0 2 1300 300 149 → SCHD 0 small 0
	// JOBN 1 21 2 1600 500 331 → SCHD 1 small 0
	// JOBN 2 32 1 800 1900 316 → SCHD 2 small 0
	// NONE
}
