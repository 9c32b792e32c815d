// Command fixturecopy keeps the project's copy of the ds-sim reference data
// (internal/fixtures/testdata/dssim) equal to the source it was taken from:
//
//	go run ./internal/tools/fixturecopy -check ../shared/dssim   # CI: the copy equals the source
//	go run ./internal/tools/fixturecopy -update ../shared/dssim  # rewrite the copy from the source
//
// The copy holds every file of the source; a file over 16 KB that is not
// compressed already is stored gzip-compressed as NAME.z (internal/fixtures
// restores the name when the tests read it). -check compares contents, so a
// copy compressed by another Go version still checks. A missing source is
// not an error for -check: it says it skipped (a fresh clone has the copy
// and nothing else).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

func main() {
	check := flag.Bool("check", false, "compare the copy with SOURCE")
	update := flag.Bool("update", false, "rewrite the copy from SOURCE")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: fixturecopy -check|-update SOURCE (the shared dssim folder)")
	}
	flag.Parse()
	if *check == *update || flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	src := flag.Arg(0)
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		if *update {
			fmt.Fprintf(os.Stderr, "fixturecopy: %s is not a folder\n", src)
			os.Exit(1)
		}
		fmt.Printf("fixturecopy: skipped: %s not found, nothing to compare the copy with\n", src)
		return
	}
	if *update {
		n, err := fixtures.Update(src)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fixturecopy:", err)
			os.Exit(1)
		}
		fmt.Printf("fixturecopy: %d files copied from %s\n", n, src)
		return
	}
	n, diffs, err := fixtures.Compare(src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fixturecopy:", err)
		os.Exit(1)
	}
	for _, d := range diffs {
		fmt.Fprintln(os.Stderr, "fixturecopy:", d)
	}
	if len(diffs) > 0 {
		fmt.Fprintf(os.Stderr, "fixturecopy: the copy differs from %s in %d file(s); run go run ./internal/tools/fixturecopy -update %s\n", src, len(diffs), src)
		os.Exit(1)
	}
	fmt.Printf("fixturecopy: the copy equals %s (%d files)\n", src, n)
}
