// Command dsmock is a byte-faithful stand-in for ds-server, the ds-sim
// simulator: the same command line, stdout, stderr, files and exit
// statuses. Run "dsmock -h all" for the options; the logic lives in
// internal/dsmock and the simulator in package mocksrv.
package main

import (
	"os"

	"github.com/dssim-go/dssim-go/internal/dsmock"
)

func main() {
	os.Exit(dsmock.Main(os.Args, os.Stdout, os.Stderr))
}
