// Command writecorpus writes the configs of a corpus spec (package
// harness/corpus, docs/corpus.md) into a folder, for any tool to run:
//
//	go run ./internal/tools/writecorpus 'seed=2,all*10' /tmp/corpus
//	go run ./cmd/dsbench -f csv -a frontier,ffq /tmp/corpus
//
// It lists the configs it wrote, one a line, and refuses a bad spec
// (naming the item) before writing anything.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/dssim-go/dssim-go/harness/corpus"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: writecorpus SPEC FOLDER (e.g. writecorpus 'seed=2,all*10' /tmp/corpus; see docs/corpus.md)")
		return 2
	}
	cs, err := corpus.Generate(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "writecorpus:", err)
		return 2
	}
	if err := corpus.WriteDir(args[1], cs); err != nil {
		fmt.Fprintln(stderr, "writecorpus:", err)
		return 1
	}
	for _, c := range cs {
		fmt.Fprintln(stdout, c.Path())
	}
	return 0
}
