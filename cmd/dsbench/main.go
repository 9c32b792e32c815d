// Command dsbench runs strategies × configs against the ds-sim simulator
// (in-process by default, or over TCP, or against a ds-server binary, or
// with an external client) and prints the course-style comparison tables.
// Run "dsbench -h" for the flags and exit statuses; the command line lives
// in internal/dsbench and the logic in the packages under harness.
package main

import (
	"os"

	"github.com/dssim-go/dssim-go/internal/dsbench"
	"github.com/dssim-go/dssim-go/internal/netspin"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every strategy, for -a and --list
)

func main() {
	// Runs over TCP busy-poll their reads as dsclient and dsmock do by
	// default (harness/bench, a library, leaves that to its command).
	os.Exit(dsbench.Main(os.Args[1:], os.Stdout, os.Stderr, netspin.Wrapper(netspin.DefaultSpin)))
}
