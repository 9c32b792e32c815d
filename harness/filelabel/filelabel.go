// Package filelabel makes file names from labels: a config's name, a
// strategy column's label ("composite:members=[ff; bf],rules=cores>2->2|1"),
// a metric's name. dsbench names a run's kept logs (--keep-logs) and its
// sweep plots with it.
//
// The label is kept readable (fileKey), but making it safe maps many labels
// to one name ("cores>2" and "cores<2" both give "cores_2"), and one run's
// file would silently overwrite another's (or two runs of -j 2 would write
// the same file at once). So a label that does not read back as itself
// gets a hash of the exact label appended: the same label always gives the
// same name, and two labels never share one.
package filelabel

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// hashMark sets the hash apart from the readable part. fileKey never
// writes it, so a name holding it was hashed and one without it is a
// plain label: a plain label never equals a hashed one.
const hashMark = "~"

// labelHashLen is how many hex digits of the label's SHA-256 are kept:
// two labels share a name only when their readable parts are equal too,
// so 32 bits are plenty.
const labelHashLen = 8

// Of returns label as a part of a file name: label itself when it
// is plain (plainLabel), else fileKey(label) + "~" + 8 hex digits of the
// SHA-256 of label. keepCase allows capitals in a plain label; without
// it a label with a capital is hashed too, since a case-insensitive file
// system (macOS's and Windows' defaults) would take "FF" and "ff" for one
// name.
func Of(label string, keepCase bool) string {
	if plainLabel(label, keepCase) {
		return label
	}
	sum := sha256.Sum256([]byte(label))
	return fileKey(label) + hashMark + hex.EncodeToString(sum[:])[:labelHashLen]
}

// plainLabel reports whether label can name a file as it is: not empty,
// only letters, digits, '.', '-' and '_', no "__" and no '_' at either
// end. The "__" rules keep CONFIG__STRATEGY readable one way: with them,
// config "a__b" and strategy "c" cannot give the name of config "a" and
// strategy "b__c".
func plainLabel(label string, keepCase bool) bool {
	if label == "" || fileKey(label) != label || strings.Contains(label, "__") ||
		strings.HasPrefix(label, "_") || strings.HasSuffix(label, "_") {
		return false
	}
	return keepCase || strings.ToLower(label) == label
}

// Is reports whether name is one Of may return (with
// capitals kept): a plain label, or a safe readable part and the hash.
func Is(name string) bool {
	if plainLabel(name, true) {
		return true
	}
	readable, sum, ok := strings.Cut(name, hashMark)
	return ok && fileKey(readable) == readable && len(sum) == labelHashLen &&
		strings.Trim(sum, "0123456789abcdef") == ""
}

// RunBase is the base name of a run's files (--keep-logs):
// CONFIG__STRATEGY, each part an Of without capitals.
func RunBase(config, variant string) string {
	return Of(config, false) + "__" + Of(variant, false)
}

// fileKey makes a label safe as part of a file name: every character but
// ASCII letters, digits, '.', '-' and '_' becomes '_'. Different labels
// may give the same key: Of is what names files.
func fileKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
