// Package didyoumean suggests the word a user probably meant when a name
// they typed is not one of the names a command, a strategy or a config
// file accepts: a strategy, a parameter, a flag's value, a config
// attribute. Every such refusal in the project ends with the same "did
// you mean …?", from here. It depends on nothing, so the lowest packages
// (the config loader) can use it as well as the commands.
package didyoumean

import (
	"strings"
	"unicode/utf8"
)

// Nearest is the first of names closest to word by edit distance, case
// ignored, if close enough to be a typo: one edit for a word under six
// characters, two for a longer one (a swap of two adjacent characters is
// one edit, as "wray" for "wary" is one slip of the fingers); otherwise "".
// A word equal to a name but for case suggests that name.
func Nearest(word string, names []string) string {
	limit := 1
	if utf8.RuneCountInString(word) >= 6 {
		limit = 2
	}
	best, bestD := "", limit+1
	w := strings.ToLower(word)
	for _, n := range names {
		if d := Distance(w, strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// Hint is "; did you mean NAME?" for the nearest name, "" when none is near:
// what a refusal appends to its message.
func Hint(word string, names []string) string {
	if n := Nearest(word, names); n != "" && n != word {
		return "; did you mean " + n + "?"
	}
	return ""
}

// Distance counts the insertions, deletions, substitutions and swaps of
// adjacent characters that turn a into b (optimal string alignment).
func Distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	// d[i][j] is the distance between x[:i] and y[:j].
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
