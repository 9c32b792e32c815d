package strategies

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// UnknownStrategy is the error for a name no registered strategy has:
// "unknown strategy "wray": did you mean wary? (known: …; a new strategy
// package must be imported by the command's main: strategies/all/all.go in
// this module)", or a module's own main (README, "A strategy in your own
// module"). The nearest name
// catches a typo; the import note is for the other common cause, a new
// package that nothing imports and so never registers.
func UnknownStrategy(name string) error {
	names := Names()
	hint := ""
	if near := nearest(name, names); near != "" {
		hint = ": did you mean " + near + "?"
	}
	return fmt.Errorf("unknown strategy %q%s (known: %s; a new strategy package must be imported by the command's main: strategies/all/all.go in this module)",
		name, hint, strings.Join(names, ", "))
}

// nearest is the first of names closest to name by edit distance (case
// ignored), if close enough to be a typo: one edit for a name under six
// characters, two for a longer one; otherwise "".
func nearest(name string, names []string) string {
	limit := 1
	if utf8.RuneCountInString(name) >= 6 {
		limit = 2
	}
	best, bestD := "", limit+1
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of adjacent characters that turn a into b (optimal string alignment):
// a swap counts one, as "wray" for "wary" is one slip of the fingers.
func editDistance(a, b string) int {
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
