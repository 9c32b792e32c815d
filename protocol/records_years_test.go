package protocol

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseServerBothYears: a GETS record of either ds-server year, with
// and without the failure fields, padded or not, whatever its type name
// looks like, parses to the same fields, and writes back in its own shape.
func TestParseServerBothYears(t *testing.T) {
	base := Server{Type: "juju", ID: 1, State: Booting, CurStartTime: 120, Cores: 0, Memory: 2500, Disk: 13100, Waiting: 1}
	fail := &Failure{Failures: 1, TotalFailTime: 2, MTTF: 3, MTTR: 4, MADF: 5, LastStartTime: 6}
	with := func(f func(*Server)) Server { s := base; f(&s); return s }
	tests := []struct {
		rec  string
		want Server
		out  string // String(), when not rec
	}{
		{rec: "juju 1 booting 120 0 2500 13100 1 0", want: base},
		{rec: "juju 1 0.20 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Rate, s.HasRate = 0.2, true })},
		{rec: "juju 1 booting 120 0 2500 13100 1 0 1 2 3 4 5 6", want: with(func(s *Server) { s.Failure = fail })},
		{rec: "juju 1 0.20 booting 120 0 2500 13100 1 0 1 2 3 4 5 6",
			want: with(func(s *Server) { s.Rate, s.HasRate, s.Failure = 0.2, true, fail })},
		// Padding of the records after the first (§5.3): leading spaces.
		{rec: "           juju 1 0.20 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Rate, s.HasRate = 0.2, true }),
			out: "juju 1 0.20 booting 120 0 2500 13100 1 0"},
		{rec: "     juju 1 booting 120 0 2500 13100 1 0", want: base, out: "juju 1 booting 120 0 2500 13100 1 0"},
		// Type names that look like a rate, a number or a state: the name
		// is the first field whatever it is.
		{rec: "0.20 1 0.20 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Type, s.Rate, s.HasRate = "0.20", 0.2, true })},
		{rec: "0.20 1 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Type = "0.20" })},
		{rec: "7 1 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Type = "7" })},
		{rec: "idle 1 0.20 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Type, s.Rate, s.HasRate = "idle", 0.2, true })},
		{rec: "inactive 1 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Type = "inactive" })},
		{rec: "nan 1 inf booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Type, s.Rate, s.HasRate = "nan", math.Inf(1), true })},
		// Rates as C's %.2f prints them.
		{rec: "juju 1 0.00 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.HasRate = true })},
		{rec: "juju 1 -2.00 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Rate, s.HasRate = -2, true })},
		{rec: "juju 1 2000000.00 booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Rate, s.HasRate = 2e6, true })},
		{rec: "juju 1 -inf booting 120 0 2500 13100 1 0", want: with(func(s *Server) { s.Rate, s.HasRate = math.Inf(-1), true })},
	}
	for _, tc := range tests {
		got, err := ParseServer(tc.rec)
		require.NoError(t, err, tc.rec)
		assert.Equal(t, tc.want, got, tc.rec)
		out := tc.out
		if out == "" {
			out = tc.rec
		}
		assert.Equal(t, out, got.String(), tc.rec)
	}
}

// TestParseServerNaNRate: ds-server prints a NaN rate as nan or -nan (the
// sign bit set); both read as NaN and write back as they came.
func TestParseServerNaNRate(t *testing.T) {
	for _, rate := range []string{"nan", "-nan"} {
		rec := "a 0 " + rate + " idle 0 1 1 1 0 0"
		s, err := ParseServer(rec)
		require.NoError(t, err, rec)
		assert.True(t, s.HasRate && math.IsNaN(s.Rate), rec)
		assert.Equal(t, rec, s.String())
	}
}

// TestParseServerNeitherShape: a record that fits neither year's shape is
// an error that quotes it and says what is wrong.
func TestParseServerNeitherShape(t *testing.T) {
	for rec, msg := range map[string]string{
		"a 0 idle 0 1 1 1 0":                      `GETS record "a 0 idle 0 1 1 1 0": 8 fields, want 9 or 15 (ds-server 2025), or 10 or 16 with the hourly rate third (2026)`,
		"a 0 0.20 idle 0 1 1 1 0 0 1 2 3 4 5 6 7": `GETS record "a 0 0.20 idle 0 1 1 1 0 0 1 2 3 4 5 6 7": 17 fields, want 9 or 15 (ds-server 2025), or 10 or 16 with the hourly rate third (2026)`,
		// A 2025 record with a field too many, a 2026 one with one missing.
		"a 0 idle 0 1 1 1 0 0 1":              `GETS record "a 0 idle 0 1 1 1 0 0 1": 10 fields with the state third: a 2025 record has 9, a 2026 record has the hourly rate before the state`,
		"a 0 0.20 idle 0 1 1 1 0":             `GETS record "a 0 0.20 idle 0 1 1 1 0": 9 fields with an hourly rate third: a 2026 record has 10, a 2025 record has no rate`,
		"a 0 0.20 idle 0 1 1 1 0 0 1 2 3 4 5": `GETS record "a 0 0.20 idle 0 1 1 1 0 0 1 2 3 4 5": 15 fields with an hourly rate third: a 2026 record has 16, a 2025 record has no rate`,
		// Rates ds-server's %.2f never prints.
		"a 0 0.2 idle 0 1 1 1 0 0":   `GETS record "a 0 0.2 idle 0 1 1 1 0 0": 10 fields, so the third should be the hourly rate (as C's %.2f prints it), but it is "0.2"`,
		"a 0 +0.20 idle 0 1 1 1 0 0": `GETS record "a 0 +0.20 idle 0 1 1 1 0 0": 10 fields, so the third should be the hourly rate (as C's %.2f prints it), but it is "+0.20"`,
		"a 0 1e3 idle 0 1 1 1 0 0":   `GETS record "a 0 1e3 idle 0 1 1 1 0 0": 10 fields, so the third should be the hourly rate (as C's %.2f prints it), but it is "1e3"`,
		"a 0 .20 idle 0 1 1 1 0 0":   `GETS record "a 0 .20 idle 0 1 1 1 0 0": 10 fields, so the third should be the hourly rate (as C's %.2f prints it), but it is ".20"`,
		"a 0 0.20 dead 0 1 1 1 0 0":  `GETS record "a 0 0.20 dead 0 1 1 1 0 0": unknown server state "dead"`,
		"a 0 0.20 idle x 1 1 1 0 0":  `GETS record "a 0 0.20 idle x 1 1 1 0 0": field "x" is not an integer`,
	} {
		_, err := ParseServer(rec)
		assert.EqualError(t, err, msg)
	}
}

// TestGrammarFollowsRecordLength: a header's record length names the shape
// of every record of its batch; an unknown length lets each record tell.
func TestGrammarFollowsRecordLength(t *testing.T) {
	recs := map[string]int{
		"a 0 idle 0 1 1 1 0 0":                   RecLenGets,
		"a 0 idle 0 1 1 1 0 0 1 2 3 4 5 6":       RecLenGetsFailures,
		"a 0 0.20 idle 0 1 1 1 0 0":              RecLenGets2026,
		"a 0 0.20 idle 0 1 1 1 0 0 1 2 3 4 5 6":  RecLenGetsFailures2026,
		"     a 0 -nan idle 0 1 1 1 0 0":         RecLenGets2026,
		"     a 0 123.46 idle 0 1 1 1 0 0 0 0 0": 0, // a 13-field record fits no length
	}
	for rec, own := range recs {
		for _, recLen := range []int{RecLenGets, RecLenGetsFailures, RecLenGets2026, RecLenGetsFailures2026, 999} {
			want := own != 0 && (recLen == own || recLen == 999)
			got := checkAny([]byte(rec), GetsRecords.grammar(recLen)...) == open
			assert.Equal(t, want, got, "%q under record length %d", rec, recLen)
		}
	}
}

// TestRatePrefixes: the plain-mode reader waits for more bytes while a
// rate is still being received and refuses at once what cannot become one.
func TestRatePrefixes(t *testing.T) {
	for tok, ok := range map[string]bool{
		"-": true, "n": true, "-na": true, "i": true, "0": true, "12": true, "12.": true, "12.3": true,
		".": false, ".5": false, "1.234": false, "x": false, "+1": false, "nax": false, "1.2.": false,
	} {
		assert.Equal(t, ok, rateOK([]byte(tok), false), "%q", tok)
	}
}
