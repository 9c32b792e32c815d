// Command doccheck keeps the user documentation readable by a user of the
// repository alone (CI runs it as `go run ./internal/tools/doccheck`): it
// reads README.md and every docs/**/*.md and fails when
//
//   - README.md is longer than MaxReadmeLines lines (the README is read in
//     ten minutes; the rest is in docs/);
//   - a page cites what a user does not have: the shared/ folder the project
//     was built beside, a specification file outside the repository
//     (ds-server.md, libra.md, … unless the name is a file of the
//     repository, such as docs/frontier.md), a section of one (§5.3,
//     Part E, B.6, Appendix D, decision 4), a research document by its seed
//     number ("seed 003": name it by its authors and title) or an issue
//     number ("issue 14");
//   - a relative link or image names a file that does not exist;
//   - a code block marked `<!-- excerpt: PATH -->` is not, line for line, a
//     part of PATH (so README's snippets are the files, never copies that
//     drift).
//
// Each finding is one line "FILE:LINE: what"; the exit status is 0 when there
// is none, 1 when there is any, 2 when a page cannot be read.
package main

import (
	"fmt"
	"io"
	"os"
)

// MaxReadmeLines is the longest README.md may be.
const MaxReadmeLines = 300

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run checks the repository at args[0] (default ".") and returns the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: doccheck [REPOSITORY-ROOT]")
		return 2
	}
	root := "."
	if len(args) == 1 {
		root = args[0]
	}
	findings, err := checkRepository(root)
	if err != nil {
		fmt.Fprintln(stderr, "doccheck:", err)
		return 2
	}
	for _, f := range findings {
		fmt.Fprintln(stdout, f)
	}
	if len(findings) > 0 {
		fmt.Fprintf(stderr, "doccheck: %d finding(s) in README.md and docs/\n", len(findings))
		return 1
	}
	return 0
}
