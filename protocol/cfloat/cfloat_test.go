package cfloat

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFixed2AsCPrintsIt: glibc's printf("%.2f") of each value, as measured
// on ds-server's output (rates and costs): the exact binary value rounded
// half to even, and C's spellings of NaN and the infinities.
func TestFixed2AsCPrintsIt(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{0.125, "0.12"}, {1.005, "1.00"}, {0.375, "0.38"}, {123.456789, "123.46"},
		{float64(float32(0.1)), "0.10"}, {-2, "-2.00"}, {-0.001, "-0.00"}, {2e6, "2000000.00"},
		{float64(float32(1e30)), "1000000015047466219876688855040.00"},
		{math.NaN(), "nan"}, {math.Copysign(math.NaN(), -1), "-nan"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
	} {
		assert.Equal(t, tc.want, Fixed2(tc.x), "%v", tc.x)
		assert.Equal(t, "x "+tc.want, string(AppendFixed2([]byte("x "), tc.x)))
	}
}
