// Command alonefloor prints, for each config, what running every job
// alone on the cheapest server type that can hold it would cost, as a
// ratio to the packing bound dsbench's cost ratio divides by (every
// core-second at the cheapest rate per core of a type that can hold the
// job): the cost ratio of a schedule that never co-schedules and never
// pays an idle second. Below it, only co-scheduling (several jobs on one
// server) gets; a strategy far above it pays for idle servers or for
// larger types than its jobs need. Boots are not billed, so they do not
// count.
//
//	go run ./internal/tools/alonefloor /tmp/corpus/*.xml
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: alonefloor CONFIG.xml ...")
		return 2
	}
	fmt.Fprintln(stdout, "config,jobs,alone_floor")
	status := 0
	for _, p := range args {
		cfg, err := mocksrv.LoadConfig(p, mocksrv.LoadOptions{BaseDir: filepath.Dir(p)})
		if err != nil {
			fmt.Fprintf(stderr, "alonefloor: %s: %v\n", p, err)
			status = 1
			continue
		}
		fmt.Fprintf(stdout, "%s,%d,%.4f\n", strings.TrimSuffix(filepath.Base(p), ".xml"), len(cfg.Jobs), floor(cfg))
	}
	return status
}

// floor is the cost of every job alone on its cheapest capable type over
// the packing bound (0 for a config with no job a type can hold).
func floor(cfg *mocksrv.Config) float64 {
	var alone, bound float64
	for _, j := range cfg.Jobs {
		perCore, whole := math.Inf(1), math.Inf(1)
		for _, t := range cfg.Types {
			if t.Cores >= j.Cores && t.Memory >= j.Memory && t.Disk >= j.Disk {
				perCore = min(perCore, float64(t.HourlyRate)/float64(t.Cores))
				whole = min(whole, float64(t.HourlyRate))
			}
		}
		if !math.IsInf(whole, 1) {
			alone += whole * float64(j.ActRunTime)
			bound += perCore * float64(j.Cores) * float64(j.ActRunTime)
		}
	}
	if bound == 0 {
		return 0
	}
	return alone / bound
}
