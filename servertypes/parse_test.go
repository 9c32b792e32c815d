package servertypes_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
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

// TestFromServers: the types of a GETS All taken before the first job, in
// the records' order, a type's limit its highest id + 1, its capacities
// the records'; a 2026 record's rate is the type's (a 2025 record gives
// none: 0), and a rate no strategy can price with is refused, naming the
// type, as in ds-system.xml.
func TestFromServers(t *testing.T) {
	rec := func(typ string, id int, rate float64, has bool) protocol.Server {
		return protocol.Server{Type: typ, ID: id, Rate: rate, HasRate: has, State: protocol.Inactive, CurStartTime: -1, Cores: 2 + len(typ), Memory: 4000, Disk: 16000}
	}
	for _, has := range []bool{false, true} {
		sys, err := servertypes.FromServers([]protocol.Server{rec("a", 0, 0.2, has), rec("a", 1, 0.2, has), rec("bb", 0, 0.4, has)})
		require.NoError(t, err)
		want := []servertypes.Type{{Name: "a", Limit: 2, Cores: 3, Memory: 4000, Disk: 16000}, {Name: "bb", Limit: 1, Cores: 4, Memory: 4000, Disk: 16000}}
		if has {
			want[0].HourlyRate, want[1].HourlyRate = 0.2, 0.4
		}
		assert.Equal(t, want, sys.Types(), "rates sent: %v", has)
		assert.Equal(t, "GETS All", sys.Source)
	}
	_, err := servertypes.FromServers([]protocol.Server{rec("a", 0, math.NaN(), true)})
	assert.EqualError(t, err, `GETS All: type "a": hourly rate nan is not a finite number: ds-server accepts it, but every cost on such a server is NaN or infinite, so no strategy can price it; give the type a finite rate in the config`)
}
