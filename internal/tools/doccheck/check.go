package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// finding is one problem on one line of a page.
type finding struct {
	File string // slash-separated, relative to the repository root
	Line int    // 1-based
	What string
}

func (f finding) String() string { return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.What) }

// rule is a citation a page may not make. When resolvable is set, a match
// that is part of the path of an existing file of the repository (relative
// to the page or to the root) is not a citation: docs/frontier.md is a page
// of ours, frontier.md alone from the root is the specification.
type rule struct {
	re         *regexp.Regexp
	what       string
	resolvable bool
}

// specNames are the specification files the project was built from; none is
// in the repository, so a user cannot open them.
const specNames = `ds-server(-2026)?|baselines|libra|estimation|provisioning|cost-reduce|job-generation|failure-models|frontier|harness|style`

var rules = []rule{
	{re: regexp.MustCompile(`\bshared/`),
		what: `cites the shared/ folder, which a user of the repository does not have (use the repository's copy, internal/fixtures/testdata/dssim)`},
	{re: regexp.MustCompile(`\b(` + specNames + `)\.md\b`), resolvable: true,
		what: `cites a specification file that is not in the repository: say what it says, in the project's words`},
	{re: regexp.MustCompile(`§`),
		what: `cites a section (§) of a specification a user does not have`},
	{re: regexp.MustCompile(`\b(Part|Appendix) [A-H]\b|\b[A-H]\.[0-9]+(\.[0-9]+)?\b|\bdecision [0-9]+\b`),
		what: `cites a part or section of a specification (Part E, B.6, Appendix D, decision 4) a user does not have`},
	{re: regexp.MustCompile(`\b[Ss]eeds? 0[0-9][0-9]\b|\b[Ss]eed-0[0-9][0-9]\b`),
		what: `names research by its seed number: name it by its authors and title`},
	{re: regexp.MustCompile(`(?i)\bissues? #?[0-9]+\b|\(#[0-9]+\)`),
		what: `cites an issue number, which a user of the repository cannot look up`},
}

var (
	linkRe    = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	schemeRe  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	excerptRe = regexp.MustCompile(`^<!--\s*excerpt:\s*(\S+)\s*-->\s*$`)
	pathChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-"
)

// pages lists README.md and docs/**/*.md under root, slash-separated and
// sorted; a missing docs/ is no page.
func pages(root string) ([]string, error) {
	list := []string{"README.md"}
	docs := filepath.Join(root, "docs")
	if _, err := os.Stat(docs); os.IsNotExist(err) {
		return list, nil
	}
	err := filepath.WalkDir(docs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			list = append(list, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(list[1:])
	return list, err
}

// checkRepository checks every page of the repository at root.
func checkRepository(root string) ([]finding, error) {
	list, err := pages(root)
	if err != nil {
		return nil, err
	}
	var all []finding
	for _, p := range list {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		all = append(all, checkPage(root, p, string(text))...)
	}
	return all, nil
}

// checkPage checks one page, named by its slash path relative to root.
func checkPage(root, page, text string) []finding {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var out []finding
	if page == "README.md" && len(lines) > MaxReadmeLines {
		out = append(out, finding{page, MaxReadmeLines + 1,
			fmt.Sprintf("README.md has %d lines, more than %d: move the detail to a page in docs/", len(lines), MaxReadmeLines)})
	}
	exists := func(p string) bool { return fileExists(root, page, p) }
	inCode := false
	for i, line := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		for _, what := range citations(line, exists) {
			out = append(out, finding{page, i + 1, what})
		}
		if !inCode && !fence {
			for _, what := range brokenLinks(line, exists) {
				out = append(out, finding{page, i + 1, what})
			}
		}
		if fence {
			inCode = !inCode
		}
	}
	return append(out, excerpts(root, page, lines)...)
}

// citations returns what line cites that a user cannot open.
func citations(line string, exists func(string) bool) []string {
	var out []string
	for _, r := range rules {
		for _, m := range r.re.FindAllStringIndex(line, -1) {
			if r.resolvable && exists(pathAround(line, m[0], m[1])) {
				continue
			}
			out = append(out, fmt.Sprintf("%q %s", line[m[0]:m[1]], r.what))
		}
	}
	return out
}

// pathAround widens line[start:end] to the path it is part of
// (`docs/frontier.md` for the match `frontier.md`).
func pathAround(line string, start, end int) string {
	for start > 0 && strings.IndexByte(pathChars, line[start-1]) >= 0 {
		start--
	}
	return line[start:end]
}

// brokenLinks returns a finding per relative link or image of line whose
// file does not exist.
func brokenLinks(line string, exists func(string) bool) []string {
	var out []string
	for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
		target := m[1]
		if schemeRe.MatchString(target) || strings.HasPrefix(target, "#") {
			continue
		}
		if i := strings.IndexByte(target, '#'); i >= 0 {
			target = target[:i]
		}
		if !exists(target) {
			out = append(out, fmt.Sprintf("links to %q, which is not a file or folder of the repository", m[1]))
		}
	}
	return out
}

// fileExists says whether p, relative to the page's folder or to the
// repository root, names an existing file or folder inside the repository.
func fileExists(root, page, p string) bool {
	if p == "" || path.IsAbs(p) {
		return false
	}
	for _, base := range []string{path.Dir(page), "."} {
		rel := path.Clean(path.Join(base, p))
		if rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			return true
		}
	}
	return false
}
