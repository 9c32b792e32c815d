package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// excerpts checks every code block of a page marked
// `<!-- excerpt: PATH -->` (on the line before its opening fence): its lines
// must be consecutive lines of PATH, a file relative to the repository root,
// exactly. A snippet is then the file, shortened, never a copy that drifts.
func excerpts(root, page string, lines []string) []finding {
	var out []finding
	for i, line := range lines {
		m := excerptRe.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		block, ok := fencedBlockAfter(lines, i+1)
		if !ok {
			out = append(out, finding{page, i + 1, "an excerpt marker must be followed at once by a ``` code block, closed"})
			continue
		}
		if what := checkExcerpt(root, m[1], block); what != "" {
			out = append(out, finding{page, i + 1, what})
		}
	}
	return out
}

// fencedBlockAfter returns the lines inside the fenced code block that opens
// at lines[at].
func fencedBlockAfter(lines []string, at int) ([]string, bool) {
	if at >= len(lines) || !strings.HasPrefix(lines[at], "```") {
		return nil, false
	}
	for j := at + 1; j < len(lines); j++ {
		if strings.HasPrefix(lines[j], "```") {
			return lines[at+1 : j], true
		}
	}
	return nil, false
}

// checkExcerpt says what is wrong with block as an excerpt of file, or "".
func checkExcerpt(root, file string, block []string) string {
	clean := path.Clean(file)
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Sprintf("excerpt of %q: name a file of the repository, relative to its root", file)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(clean)))
	if err != nil {
		return fmt.Sprintf("excerpt of %q: %v", file, err)
	}
	if len(block) == 0 {
		return fmt.Sprintf("excerpt of %q: the code block is empty", file)
	}
	src := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	best, at := longestRun(src, block)
	if best == len(block) {
		return ""
	}
	return fmt.Sprintf("excerpt of %q: line %d of the block, %q, is not what the file has there (%s); copy the lines again from the file",
		file, best+1, block[best], where(src, at, best))
}

// longestRun finds where in src the longest prefix of block starts, and how
// many lines of block match there.
func longestRun(src, block []string) (best, at int) {
	at = -1
	for s := range src {
		n := 0
		for n < len(block) && s+n < len(src) && src[s+n] == block[n] {
			n++
		}
		if n > best {
			best, at = n, s
		}
	}
	return best, at
}

// where describes what the file has in place of the first differing line.
func where(src []string, at, best int) string {
	if at < 0 {
		return "the block's first line is nowhere in the file"
	}
	line := at + best
	if line >= len(src) {
		return fmt.Sprintf("the file ends after line %d", len(src))
	}
	return fmt.Sprintf("line %d of the file is %q", line+1, src[line])
}
