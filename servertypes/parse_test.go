package servertypes_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/servertypes"
)

// TestParseRate: a rate a strategy can price with is read as written; one
// that is NaN or infinite (as ds-server stores it, a 32-bit float) is
// refused with the file, the element, the type and the attribute named,
// whatever spelling ParseFloat takes for it. 0 and negative rates are
// finite and kept (ds-server writes 0.00 and bills negatives).
func TestParseRate(t *testing.T) {
	for _, c := range []struct {
		rate    string
		want    float64
		problem string // "" when accepted
	}{
		{"0.40", 0.4, ""},
		{"0.00", 0, ""},
		{"-2.00", -2, ""},
		{"3.4e38", 3.4e38, ""},
		{"nan", 0, "not a finite number"},
		{"NaN", 0, "not a finite number"},
		{"-nan", 0, "not a finite number"},
		{"inf", 0, "not a finite number"},
		{"+Inf", 0, "not a finite number"},
		{"-Infinity", 0, "not a finite number"},
		{"1e39", 0, "beyond the 32-bit float range"},
		{"-1e39", 0, "beyond the 32-bit float range"},
	} {
		doc := `<system><servers>
			<server type="small" limit="1" bootupTime="60" hourlyRate="0.20" cores="2" memory="4000" disk="16000"/>
			<server type="big" limit="1" bootupTime="60" hourlyRate="` + c.rate + `" cores="4" memory="16000" disk="64000"/>
		</servers></system>`
		sys, err := servertypes.Parse("sys.xml", []byte(doc))
		if c.problem == "" {
			if err != nil {
				t.Errorf("hourlyRate=%q: %v", c.rate, err)
				continue
			}
			if big, _ := sys.Lookup("big"); big.HourlyRate != c.want {
				t.Errorf("hourlyRate=%q read as %g, want %g", c.rate, big.HourlyRate, c.want)
			}
			continue
		}
		prefix := `sys.xml: <server> element 2: type "big": attribute hourlyRate="` + c.rate + `" is `
		if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.problem) {
			t.Errorf("hourlyRate=%q: error %v, want %q… %s", c.rate, err, prefix, c.problem)
		}
	}
}

// ds-system.xml's rate is C's %.2f of the 32-bit rate: ds-server runs a
// config whose rate is nan or inf (only 0 and -1 are refused, ds-server.md
// §2.3), and C spells those nan, -nan, inf, -inf, where Go's %.2f wrote
// NaN, +Inf, -Inf.
func TestXMLRateAsCPrintsIt(t *testing.T) {
	for _, tc := range []struct {
		rate float64
		want string
	}{
		{0.4, `hourlyRate="0.40"`},
		{0.125, `hourlyRate="0.12"`}, // exact in binary: C rounds half to even, as Go does
		{-1.5, `hourlyRate="-1.50"`},
		{math.NaN(), `hourlyRate="nan"`},
		{math.Copysign(math.NaN(), -1), `hourlyRate="-nan"`},
		{math.Inf(1), `hourlyRate="inf"`},
		{math.Inf(-1), `hourlyRate="-inf"`},
		{1e39, `hourlyRate="inf"`}, // beyond float32: ds-server stores inf
	} {
		sys, err := servertypes.New("t", []servertypes.Type{{Name: "a", Limit: 1, BootupTime: 60, HourlyRate: tc.rate, Cores: 1, Memory: 100, Disk: 100}})
		require.NoError(t, err)
		assert.Contains(t, string(sys.XML("v")), tc.want, "rate %v", tc.rate)
	}
}
