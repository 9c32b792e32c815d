// Command dsswf converts a Standard Workload Format trace (the Parallel
// Workloads Archive's .swf or .swf.gz) into a ds-sim workload: a job file
// and a config that ds-server and dsmock both run. Run "dsswf -h" for the
// options; the logic lives in internal/dsswf and the mapping in package
// mocksrv/swf.
package main

import (
	"os"

	"github.com/dssim-go/dssim-go/internal/dsswf"
)

func main() {
	os.Exit(dsswf.Main(os.Args[1:], os.Stdout, os.Stderr))
}
