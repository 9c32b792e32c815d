package libra

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libra.md D.1: splitmix64 and the key chain, column by column.
func TestSplitmixAndKeyD1(t *testing.T) {
	assert.Equal(t, uint64(0xe220a8397b1dcdaf), splitmix64(0))
	assert.Equal(t, uint64(0x910a2dec89025cc1), splitmix64(1))
	for _, tc := range []struct {
		id, est, c, mem, disk int
		chain                 [5]uint64
	}{
		{0, 65, 1, 300, 1200, [5]uint64{0x0b03b91fe144c3cb, 0xbfa052d923dc49ab, 0x96aa9d54d3a8fe47, 0x159f6811ce1fb83d, 0x6b5963eef7c2b533}},
		{4, 320, 2, 50, 120, [5]uint64{0xc0c5f112ece10a5a, 0x6a657c54fb8f48fd, 0xd73a3eaebd57b275, 0x0fb91cbfa95dd847, 0xb5298d1f93138efd}},
		{0, 300, 2, 1000, 2000, [5]uint64{0x0b03b91fe144c3cb, 0xc3549f97709a1d35, 0xcb80d09b4271ba44, 0x1c35694670aabbb6, 0x3735bfa08b0af0ec}},
	} {
		k := splitmix64(DefaultSeed ^ uint64(tc.id))
		got := [5]uint64{k}
		for i, v := range []int{tc.est, tc.c, tc.mem, tc.disk} {
			k = splitmix64(k ^ uint64(v))
			got[i+1] = k
		}
		assert.Equal(t, tc.chain, got, "job %d", tc.id)
		assert.Equal(t, tc.chain[4], jobKey(DefaultSeed, tc.id, tc.est, tc.c, tc.mem, tc.disk))
	}
}

// libra.md D.1: uniforms and normals to 17 significant digits, bit for bit.
func TestUniformsAndNormalsD1(t *testing.T) {
	for _, tc := range []struct {
		key              uint64
		u0, z1, z13, z25 string
	}{
		{0x6b5963eef7c2b533, "0.41736469087391637", "-0.16541912939606718", "-0.090847995517464142", "0.78434146331526744"},
		{0xb5298d1f93138efd, "0.88813339818920589", "1.7737598643101018", "1.0026204584342553", "0.075413744670522753"},
		{0x3735bfa08b0af0ec, "0.13227749331069749", "-0.27193611888971247", "0.28068245364248057", "-1.6364956034734126"},
	} {
		for _, c := range []struct {
			got  float64
			want string
		}{{uniform(tc.key, 0), tc.u0}, {normal(tc.key, 1), tc.z1}, {normal(tc.key, 13), tc.z13}, {normal(tc.key, 25), tc.z25}} {
			want, err := strconv.ParseFloat(c.want, 64)
			require.NoError(t, err)
			assert.Equal(t, math.Float64bits(want), math.Float64bits(c.got), "key %#x: got %.17g want %s", tc.key, c.got, c.want)
		}
	}
}

// D.1's check by hand: LibraRiskD job 0 has dF = 15.338323…, D = 997.
func TestHandCheckD1(t *testing.T) {
	qp := presetParams(t, "riskd")
	q := qp.synthesize(jobFields{id: 0, tsu: 37, cores: 1, mem: 300, disk: 1200, est: 65}, pbaseD2)
	assert.False(t, q.High)
	assert.InDelta(t, 15.338323, q.DF, 5e-7)
	assert.Equal(t, 997, q.D)
}

// pbaseD2 is D.2's PBase_ref, 0.1/3600, hex 0x1.d208a5a912e32p-16.
const pbaseD2 = 0x1.d208a5a912e32p-16

func presetParams(t *testing.T, name string) qosParams {
	t.Helper()
	pre, err := lookupPreset(name)
	require.NoError(t, err)
	return qosParams{seed: DefaultSeed, pctHigh: 20, dRatio: pre.dRatio, dLow: pre.dLow, bRatio: pre.bRatio, bLow: pre.bLow,
		pRatio: pre.pRatio, pLow: pre.pLow, dBias: 1, bBias: 1, pBias: 1, cv: 0.25, dMin: 1}
}

// libra.md D.2: the QoS synthesis vectors for three presets. D and TD are
// integers, compared exactly; dF, bF, B, pF to the table's 6 decimals; PR,
// which the table gives to 17 significant digits, bit for bit.
func TestQoSVectorsD2(t *testing.T) {
	assert.Equal(t, 0.1/3600, float64(pbaseD2))
	for _, pb := range []struct{ rate, cores float64 }{{0.2, 2}, {0.4, 4}, {0.8, 8}, {1.6, 16}, {3.2, 32}} {
		assert.Equal(t, float64(pbaseD2), pb.rate/(3600*pb.cores), "every stock type gives the same PBase_ref")
	}
	type row struct {
		preset string
		high   bool
		dF     float64
		D, TD  int
		bF, B  float64
		pF     float64
		PR     string
	}
	jobs := []struct {
		f    jobFields
		rows []row
	}{
		{jobFields{0, 37, 1, 300, 1200, 65}, []row{
			{"riskd", false, 15.338323, 997, 1034, -1, -1, -1, ""},
			{"plus", false, 7.669162, 499, 536, 1.954576, 0.003529, -1, ""},
			{"sla", false, 23.486808, 1527, 1564, 3.909152, 0.007058, 4.784341, "0.00013289837398097965"}}},
		{jobFields{4, 173, 2, 50, 120, 320}, []row{
			{"riskd", false, 23.095039, 7391, 7564, -1, -1, -1, ""},
			{"plus", false, 11.54752, 3696, 3869, 2.50131, 0.044468, -1, ""},
			{"sla", false, 35.364279, 11317, 11490, 5.00262, 0.088935, 4.075414, "0.00022641187470391795"}}},
		{jobFields{7, 1029, 4, 2000, 1000, 520}, []row{
			{"riskd", false, 17.355944, 9026, 10055, -1, -1, -1, ""},
			{"plus", false, 8.677972, 4513, 5542, 2.607961, 0.150682, -1, ""},
			{"sla", false, 26.576289, 13820, 14849, 5.215921, 0.301364, 3.319179, "0.0003687976460004892"}}},
		{jobFields{11, 219, 1, 200, 200, 37}, []row{
			{"riskd", false, 17.37967, 644, 863, -1, -1, -1, ""},
			{"plus", false, 8.689835, 322, 541, 2.328257, 0.002393, -1, ""},
			{"sla", false, 26.612619, 985, 1204, 4.656513, 0.004786, 4.963557, "0.00013787658022335766"}}},
		{jobFields{123, 86400, 16, 32000, 256000, 7200}, []row{
			{"riskd", false, 8.461016, 60920, 147320, -1, -1, -1, ""},
			{"plus", false, 4.230508, 30460, 116860, 1.989191, 6.36541, -1, ""},
			{"sla", false, 12.955931, 93283, 179683, 3.978381, 12.730819, 3.617495, "0.001607775460982447"}}},
		{jobFields{0, 100, 2, 1000, 2000, 300}, []row{
			{"riskd", true, 3.728064, 1119, 1219, -1, -1, -1, ""},
			{"plus", true, 1.864032, 560, 660, 8.561365, 0.142689, -1, ""},
			{"sla", true, 3.262056, 979, 1079, 29.964777, 0.499413, 9.454018, "0.0005252231992281305"}}},
		{jobFields{1, 100, 2, 1000, 2000, 300}, []row{
			{"riskd", true, 3.871212, 1162, 1262, -1, -1, -1, ""},
			{"plus", true, 1.935606, 581, 681, 6.797675, 0.113295, -1, ""},
			{"sla", true, 3.387311, 1017, 1117, 23.791862, 0.396531, 11.349133, "0.0006305073922586765"}}},
		{jobFields{3, 100, 2, 1000, 2000, 300}, []row{
			{"riskd", true, 3.516617, 1055, 1155, -1, -1, -1, ""},
			{"plus", true, 1.758309, 528, 628, 10.539759, 0.175663, -1, ""},
			{"sla", true, 3.07704, 924, 1024, 36.889158, 0.614819, 12.330443, "0.00068502459421008"}}},
	}
	for _, j := range jobs {
		for _, r := range j.rows {
			qp := presetParams(t, r.preset)
			q := qp.synthesize(j.f, pbaseD2)
			name := r.preset + " job " + strconv.Itoa(j.f.id) + "/" + strconv.Itoa(j.f.est)
			assert.Equal(t, r.high, q.High, name)
			assert.Equal(t, r.high, q.Hard(), name)
			assert.InDelta(t, r.dF, q.DF, 5e-7, name)
			assert.Equal(t, [2]int{r.D, r.TD}, [2]int{q.D, q.TD}, name)
			if r.bF >= 0 {
				assert.InDelta(t, r.bF, q.BF, 5e-7, name)
				assert.InDelta(t, r.B, q.B, 5e-7, name)
			}
			if r.PR != "" {
				assert.InDelta(t, r.pF, q.PF, 5e-7, name)
				want, err := strconv.ParseFloat(r.PR, 64)
				require.NoError(t, err)
				assert.Equal(t, math.Float64bits(want), math.Float64bits(q.PR), "%s: PR %.17g want %s", name, q.PR, r.PR)
			}
		}
	}
}

// D.2's class-frequency check over 100,000 jobs: high-urgency fraction
// 0.19948, mean dF 13.608547818 under the RiskD preset.
func TestClassFrequencyD2(t *testing.T) {
	qp := presetParams(t, "riskd")
	high, sum := 0, 0.0
	const n = 100000
	for id := 0; id < n; id++ {
		q := qp.synthesize(jobFields{id: id, cores: 1 + id%4, mem: 1000, disk: 1000, est: 1 + id%500}, pbaseD2)
		if q.High {
			high++
		}
		sum += q.DF
	}
	assert.Equal(t, 19948, high)
	assert.InDelta(t, 13.608547818, sum/n, 1e-9) // the document truncates to 9 decimals
}
