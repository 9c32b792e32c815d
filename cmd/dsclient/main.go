// Command dsclient is the ds-sim scheduling client: it connects to
// ds-server (or dsmock) and schedules every job with one of the project's
// strategies. Run "dsclient -h" for the flags and exit statuses; the logic
// lives in internal/dsclient.
package main

import (
	"os"

	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/internal/netspin"
)

func main() {
	netspin.SequentialProcess() // one conversation: one P is faster
	os.Exit(dsclient.Main(os.Args[1:], os.Stdout, os.Stderr))
}
