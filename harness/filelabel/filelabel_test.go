package filelabel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Plain labels name files as they are (the names README and scripts
// know); any other label keeps its readable form and gets its hash.
func TestFileLabel(t *testing.T) {
	for _, tc := range []struct {
		label    string
		keepCase bool
		want     string // a regexp
	}{
		{"ff", false, `^ff$`},
		{"config20-med-med", false, `^config20-med-med$`},
		{"a.b_c-d", false, `^a\.b_c-d$`},
		{"deadlineMetPct", true, `^deadlineMetPct$`},
		{"deadlineMetPct", false, `^deadlineMetPct~[0-9a-f]{8}$`},
		{"FF", false, `^FF~[0-9a-f]{8}$`},
		{"cost-reduce:multiplier=2", false, `^cost-reduce_multiplier_2~[0-9a-f]{8}$`},
		{"a__b", false, `^a__b~[0-9a-f]{8}$`},
		{"_a", false, `^_a~[0-9a-f]{8}$`},
		{"a_", false, `^a_~[0-9a-f]{8}$`},
		{"", false, `^~[0-9a-f]{8}$`},
		{"a~b", false, `^a_b~[0-9a-f]{8}$`},
	} {
		got := Of(tc.label, tc.keepCase)
		assert.Regexp(t, tc.want, got, "%q keepCase=%v", tc.label, tc.keepCase)
		assert.Equal(t, got, Of(tc.label, tc.keepCase), "stable")
		assert.True(t, Is(got) || !tc.keepCase, "Is(%q)", got)
	}
}

// Runs whose labels differ only where fileKey writes '_', or only in
// case, or that split CONFIG__STRATEGY at another "__", get files of
// their own, also on a case-insensitive file system.
func TestRunFileBasesNeverCollide(t *testing.T) {
	pairs := [][2]string{
		{"config20-med-med", "composite:members=[ff; bf],rules=cores>2->2|1"},
		{"config20-med-med", "composite:members=[ff; bf],rules=cores<2->2|1"},
		{"config20-med-med", "composite:members=[ff; bf],rules=cores=2->2|1"},
		{"config20-med-med", "composite_members__ff__bf__rules_cores_2-_2_1"},
		{"config20-med-med", "ff"}, {"config20-med-med", "FF"}, {"Config20-med-med", "ff"},
		{"a__b", "c"}, {"a", "b__c"}, {"a_", "_b"}, {"a", "__b"}, {"a_", "b"}, {"a", "_b"},
		{"a b", "c"}, {"a_b", "c"}, {"a", "b~12345678"}, {"a", "b_12345678"},
	}
	seen := map[string][2]string{}
	for _, p := range pairs {
		base := strings.ToLower(RunBase(p[0], p[1]))
		prev, dup := seen[base]
		assert.False(t, dup, "%q and %q share %s", p, prev, base)
		seen[base] = p
	}
	assert.Equal(t, "config20-med-med__ff", RunBase("config20-med-med", "ff"))
}

// Two different runs never share a file base, even on a case-insensitive
// file system, and every part reads as an Of.
func FuzzRunFileBase(f *testing.F) {
	f.Add("config20-med-med", "rules=cores>2", "config20-med-med", "rules=cores<2")
	f.Add("a__b", "c", "a", "b__c")
	f.Add("a_", "b", "a", "_b")
	f.Add("x", "FF", "x", "ff")
	f.Fuzz(func(t *testing.T, c1, v1, c2, v2 string) {
		if c1 == c2 && v1 == v2 {
			return
		}
		b1, b2 := RunBase(c1, v1), RunBase(c2, v2)
		if strings.EqualFold(b1, b2) {
			t.Fatalf("(%q, %q) and (%q, %q) share %s", c1, v1, c2, v2, b1)
		}
		for _, label := range []string{c1, v1} {
			if l := Of(label, false); !Is(l) || fileKey(l) != strings.ReplaceAll(l, hashMark, "_") {
				t.Fatalf("Of(%q) = %q", label, l)
			}
		}
	})
}
