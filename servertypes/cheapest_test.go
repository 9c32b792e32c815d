package servertypes_test

import (
	"math"
	"testing"

	"github.com/dssim-go/dssim-go/servertypes"
)

// TestCheapestPerCore: the lowest rate per core among the types priced
// above 0, wherever listed; rates of 0 (GETS All, or 0.00 in
// ds-system.xml), below 0 or not finite are passed over, and with none
// left the unit, UnpricedPerCore, so that delay keeps a price.
func TestCheapestPerCore(t *testing.T) {
	for _, c := range []struct {
		what  string
		rates []float64 // hourly, for types of 1, 2, 3 … cores
		want  float64
	}{
		{"one type", []float64{0.4}, 0.4},
		{"per core, not per server: 0.4 over 2 cores beats 0.3 over 1", []float64{0.3, 0.4}, 0.2},
		{"listed last", []float64{0.3, 0.8, 0.3}, 0.1},
		{"a rate of 0.00 is passed over", []float64{0, 0.4}, 0.2},
		{"a negative rate too", []float64{-2, 0.4}, 0.2},
		{"and a rate past float range", []float64{math.Inf(1), 0.4}, 0.2},
		{"GETS All: every rate 0", []float64{0, 0, 0}, servertypes.UnpricedPerCore},
		{"nothing above 0", []float64{0, -1, math.NaN()}, servertypes.UnpricedPerCore},
	} {
		var types []servertypes.Type
		for i, r := range c.rates {
			types = append(types, servertypes.Type{Name: string(rune('a' + i)), Limit: 1, Cores: i + 1, HourlyRate: r})
		}
		sys, err := servertypes.New("test", types)
		if err != nil {
			t.Fatal(err)
		}
		if got := sys.CheapestPerCore(); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: CheapestPerCore %g, want %g", c.what, got, c.want)
		}
	}
}
