// Command dsview writes the run viewer's HTML page for ds-server (or
// dsmock) logs: dsview -c config.xml run.log [other.log] -o run.html.
// The logic lives in package internal/dsview.
package main

import (
	"os"

	"github.com/dssim-go/dssim-go/internal/dsview"
)

func main() { os.Exit(dsview.Main(os.Args[1:], os.Stdout, os.Stderr)) }
