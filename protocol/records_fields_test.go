package protocol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFieldsMatchesStringsFields: the allocation-free splitter of the
// record parsers splits exactly like strings.Fields.
func TestFieldsMatchesStringsFields(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", "  a  b ", "a\tb\nc\vd\fe\rf", "           joon 1 inactive -1 4 16000 64000 0 0",
		"a\u00a0b c", "a\u0085b", "ü 1 idle", "a\x00b",
	} {
		want := strings.Fields(s)
		got := fields(s, nil)
		if len(want) == 0 {
			assert.Empty(t, got, "%q", s)
			continue
		}
		assert.Equal(t, want, got, "%q", s)
	}
}

func TestRecordParsersErrors(t *testing.T) {
	for rec, msg := range map[string]string{
		"a 0 idle 0 1 1 1 0":               `GETS record "a 0 idle 0 1 1 1 0": 8 fields, want 9 or 15 (ds-server 2025), or 10 or 16 with the hourly rate third (2026)`,
		"a x idle 0 1 1 1 0 0":             `GETS record "a x idle 0 1 1 1 0 0": field "x" is not an integer`,
		"a 0 idle 0 1 1 1 0 0x":            `GETS record "a 0 idle 0 1 1 1 0 0x": field "0x" is not an integer`,
		"a 0 dead 0 1 1 1 0 0":             `GETS record "a 0 dead 0 1 1 1 0 0": unknown server state "dead"`,
		"a 0 idle 0 1 1 1 0 0 1 2 3 4 5 y": `GETS record "a 0 idle 0 1 1 1 0 0 1 2 3 4 5 y": field "y" is not an integer`,
	} {
		_, err := ParseServer(rec)
		assert.EqualError(t, err, msg)
	}
	_, err := ParseJobRecord("1 2 3 4 5 6 7")
	assert.EqualError(t, err, `LSTJ record "1 2 3 4 5 6 7": 7 fields, want 8`)
	_, err = ParseQueuedJob("1 2 3 4 5 6 7 z")
	assert.EqualError(t, err, `LSTQ record "1 2 3 4 5 6 7 z": field "z" is not an integer`)
}
