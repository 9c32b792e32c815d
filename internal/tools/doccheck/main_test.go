package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func write(t testing.TB, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
}

// repo is a small repository: a README, docs pages (one named like a
// specification file, as docs/frontier.md is) and a source file.
func repo(t testing.TB) string {
	root := t.TempDir()
	write(t, root, "README.md", "# r\n")
	write(t, root, "docs/frontier.md", "# frontier\n")
	write(t, root, "docs/img/plot.svg", "<svg/>")
	write(t, root, "strategies/example/soonest.go", "package example\n\nfunc a() {\n\treturn\n}\n\nfunc b() {}\n")
	return root
}

// One line per case: what a page may say, and what it may not.
func TestCitations(t *testing.T) {
	root := repo(t)
	cases := []struct {
		page, line string
		want       string // a part of the finding, "" for none
	}{
		{"README.md", "see `../shared/dssim/configs`", "shared/"},
		{"docs/dsbench.md", "DSSIM_FIXTURES=/work/shared/dssim go test", "shared/"},
		{"README.md", "a shared machine, shared fixtures", ""},
		{"README.md", "as ds-server.md says", "specification file"},
		{"README.md", "ds-server-2026.md's records", "specification file"},
		{"docs/libra.md", "the libra.md adaptation", "specification file"},
		{"docs/x.md", "(baselines.md, cost-reduce.md)", "specification file"},
		{"README.md", "frontier.md", "specification file"},      // not a file from the root
		{"README.md", "see docs/frontier.md", ""},               // a page of the repository
		{"docs/dsbench.md", "see [the study](frontier.md)", ""}, // relative to the page
		{"docs/dsbench.md", "[frontier.md](frontier.md)", ""},   // link text and target
		{"docs/sub/x.md", "[frontier](../frontier.md)", ""},     // from a sub-folder
		{"README.md", "strategies/frontier/README.md", ""},      // another name
		{"README.md", "the rule of §6.1", "section (§)"},
		{"README.md", "Part E's design", "part or section"},
		{"README.md", "(B.6)", "part or section"},
		{"README.md", "B.2.1–B.2.4", "part or section"},
		{"README.md", "Appendix D lists", "part or section"},
		{"README.md", "(decision 4)", "part or section"},
		{"README.md", "v0.14.2, go1.26.8, 1.0247 / 1.1780", ""},
		{"README.md", "Eq. 3.7 and Ch. 6 of the thesis", ""},
		{"README.md", "seed 003's cost-reduce", "seed number"},
		{"README.md", "seeds 000 and 001", "seed number"},
		{"README.md", "The seed-000 replay", "seed number"},
		{"README.md", "Seed 004", "seed number"},
		{"README.md", "randomSeed 1111 and seeds=1-5", ""},
		{"README.md", "dsbench --replay000 and -r 1", ""},
		{"README.md", "the run viewer (issue 14)", "issue number"},
		{"README.md", "Issue #39", "issue number"},
		{"README.md", "fixed in (#12)", "issue number"},
		{"README.md", "go.dev/issue/75804", ""},
	}
	for _, c := range cases {
		got := checkPage(root, c.page, c.line+"\n")
		if c.want == "" {
			assert.Empty(t, got, "%s: %s", c.page, c.line)
			continue
		}
		if assert.NotEmpty(t, got, "%s: %s", c.page, c.line) {
			for _, f := range got {
				assert.Contains(t, f.What, c.want, c.line)
				assert.Equal(t, 1, f.Line)
			}
		}
	}
}

func TestLinks(t *testing.T) {
	root := repo(t)
	cases := []struct {
		page, line string
		broken     bool
	}{
		{"README.md", "[docs](docs/frontier.md)", false},
		{"README.md", "[docs](docs/)", false},
		{"README.md", "[the plot](docs/img/plot.svg#top)", false},
		{"README.md", "![plot](docs/img/plot.svg \"title\")", false},
		{"docs/frontier.md", "![plot](img/plot.svg)", false},
		{"docs/frontier.md", "[code](../strategies/example/soonest.go)", false},
		{"README.md", "[ds-sim](https://github.com/distsys-MQ/ds-sim)", false},
		{"README.md", "[below](#quick-starts)", false},
		{"README.md", "[gone](docs/dsmock.md)", true},
		{"docs/frontier.md", "![gone](../img/plot.svg)", true},
		{"README.md", "[outside](../shared/README.md)", true}, // and a citation of shared/
		{"README.md", "```\n[in code](nowhere.md)\n```", false},
	}
	for _, c := range cases {
		got := checkPage(root, c.page, c.line+"\n")
		var links []finding
		for _, f := range got {
			if strings.Contains(f.What, "links to") {
				links = append(links, f)
			}
		}
		if c.broken {
			assert.Len(t, links, 1, c.line)
		} else {
			assert.Empty(t, links, c.line)
		}
	}
}

func TestReadmeLength(t *testing.T) {
	root := repo(t)
	at := strings.Repeat("line\n", MaxReadmeLines)
	assert.Empty(t, checkPage(root, "README.md", at))
	over := checkPage(root, "README.md", at+"one more\n")
	require.Len(t, over, 1)
	assert.Contains(t, over[0].What, "301 lines")
	assert.Empty(t, checkPage(root, "docs/long.md", at+"one more\n"), "only README is bounded")
}

func TestExcerpts(t *testing.T) {
	root := repo(t)
	page := func(marker string, block ...string) string {
		return "text\n" + marker + "\n```go\n" + strings.Join(block, "\n") + "\n```\nmore\n"
	}
	const m = "<!-- excerpt: strategies/example/soonest.go -->"
	cases := []struct {
		what, text, want string
	}{
		{"consecutive lines of the file", page(m, "func a() {", "\treturn", "}"), ""},
		{"one line", page(m, "func b() {}"), ""},
		{"a line changed", page(m, "func a() {", "\treturn nil", "}"), `line 2 of the block, "\treturn nil"`},
		{"indentation changed", page(m, "func a() {", "    return", "}"), "line 2 of the block"},
		{"lines skipped", page(m, "func a() {", "}"), `line 2 of the block, "}"`},
		{"not in the file", page(m, "func c() {}"), "nowhere in the file"},
		{"past the file's end", page(m, "func b() {}", "", "func d() {}"), "line 3 of the block, \"func d() {}\", is not what the file has there (the file ends after line 8)"},
		{"no such file", page("<!-- excerpt: strategies/none.go -->", "x"), "strategies/none.go"},
		{"outside the repository", page("<!-- excerpt: ../x.go -->", "x"), "name a file of the repository"},
		{"empty block", "text\n" + m + "\n```go\n```\n", "the code block is empty"},
		{"no block after the marker", "text\n" + m + "\n\n```go\nfunc b() {}\n```\n", "followed at once"},
		{"a block never closed", "text\n" + m + "\n```go\nfunc b() {}\n", "followed at once"},
	}
	for _, c := range cases {
		got := checkPage(root, "README.md", c.text)
		if c.want == "" {
			assert.Empty(t, got, c.what)
			continue
		}
		if assert.Len(t, got, 1, c.what) {
			assert.Contains(t, got[0].What, c.want, c.what)
			assert.Equal(t, 2, got[0].Line, c.what)
		}
	}
}

func TestRunExitStatus(t *testing.T) {
	root := repo(t)
	var out, errb bytes.Buffer
	assert.Equal(t, 0, run([]string{root}, &out, &errb), errb.String())
	assert.Empty(t, out.String())

	write(t, root, "docs/sub/page.md", "# p\n\nSee ds-server.md §5.3.\n")
	out.Reset()
	assert.Equal(t, 1, run([]string{root}, &out, &errb))
	assert.Contains(t, out.String(), "docs/sub/page.md:3: \"ds-server.md\"")
	assert.Contains(t, out.String(), "docs/sub/page.md:3: \"§\"")

	assert.Equal(t, 2, run([]string{root, "extra"}, &out, &errb), "one root at most")
	assert.Equal(t, 2, run([]string{filepath.Join(root, "none")}, &out, &errb), "no README to read")
}

// The repository's own README and docs: what CI checks.
func TestRepositoryDocs(t *testing.T) {
	findings, err := checkRepository("../../..")
	require.NoError(t, err)
	for _, f := range findings {
		t.Error(f)
	}
}

// A page of any text is checked without panicking, and every finding names
// a line of the page.
func FuzzCheckPage(f *testing.F) {
	f.Add("see [x](docs/frontier.md) and ../shared/ §1 Part B seed 003 issue 14\n")
	f.Add("<!-- excerpt: strategies/example/soonest.go -->\n```go\nfunc a() {\n```\n")
	f.Add("<!-- excerpt: ../../etc/passwd -->\n```\nx\n```\n[a](#b) ![c](d \"e\")\n")
	root := repo(f)
	f.Fuzz(func(t *testing.T, text string) {
		n := len(strings.Split(strings.TrimSuffix(text, "\n"), "\n"))
		for _, page := range []string{"README.md", "docs/frontier.md"} {
			for _, fi := range checkPage(root, page, text) {
				if fi.Line < 1 || fi.Line > max(n, MaxReadmeLines+1) {
					t.Fatalf("%s: line %d of a %d-line page", page, fi.Line, n)
				}
			}
		}
	})
}
