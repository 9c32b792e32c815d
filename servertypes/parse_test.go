package servertypes_test

import (
	"strings"
	"testing"

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
