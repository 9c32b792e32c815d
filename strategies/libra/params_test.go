package libra

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/strategies"
)

// A bad parameter is refused before the run, with a message naming it.
func TestBadParameters(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]string
		want     string
	}{
		{"libra", map[string]string{"cv": "-0.1"}, "strategy libra: cv=-0.1: want ≥ 0"},
		{"librariskd", map[string]string{"pctHighUrgency": "101"}, "pctHighUrgency=101: want a percentage in [0, 100]"},
		{"librasla", map[string]string{"pctHighUrgency": "-1"}, "pctHighUrgency=-1"},
		{"libraplus", map[string]string{"preset": "t3.1"}, `preset="t3.1": want riskd, plus, sla or ch6`},
		{"libra", map[string]string{"fallback": "drop"}, `fallback="drop": want earliest, cheapest or defer`},
		{"libra", map[string]string{"timeline": "gets"}, `timeline="gets"`},
		{"librasla", map[string]string{"slaSelect": "best"}, `slaSelect="best"`},
		{"librariskd", map[string]string{"riskEpsilon": "-1"}, "riskEpsilon=-1"},
		{"librariskd", map[string]string{"riskSelect": "worst"}, `riskSelect="worst"`},
		{"libraplus", map[string]string{"betaMin": "2", "betaMax": "1"}, "betaMin=2 > betaMax=1"},
		{"libraplus", map[string]string{"beta": "-0.1"}, "beta=-0.1"},
		{"libraplus", map[string]string{"betaMin": "0"}, "betaMin=0: want > 0"},
		{"libra", map[string]string{"dMin": "0.5"}, "dMin=0.5"},
		{"libra", map[string]string{"deadlineLowMean": "0"}, "deadlineLowMean=0"},
		{"libra", map[string]string{"deadlineBias": "2"}, "avgRuntimeRef=0: a bias other than 1 needs"},
		{"libra", map[string]string{"seed": "LIBRA"}, `seed="LIBRA"`},
		{"libra", map[string]string{"gamma": "-1"}, "gamma=-1"},
		{"libra", map[string]string{"cv": "x"}, "want a number"},
		{"edf", map[string]string{"cv": "-1"}, "strategy edf: cv=-1"},
	} {
		_, err := strategies.New(tc.name, tc.settings)
		require.Error(t, err, "%s %v", tc.name, tc.settings)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// Presets fill the parameters left at their default; an explicit value wins.
func TestPresetsAndOverrides(t *testing.T) {
	st, err := strategies.New("libraplus", map[string]string{"preset": "ch6", "deadlineLowMean": "3"})
	require.NoError(t, err)
	s := st.(*libra)
	assert.Equal(t, 0.3, s.beta, "Table 6.6's β")
	assert.Equal(t, 3.0, s.qp.dLow, "explicit")
	assert.Equal(t, 4.0, s.qp.dRatio, "preset")
	assert.Equal(t, DefaultSeed, s.qp.seed)

	st, err = strategies.New("libraplus", map[string]string{"betaAuto": "true"})
	require.NoError(t, err)
	s = st.(*libra)
	assert.Equal(t, 1.0, s.beta, "Libra+$Auto starts at 1")
	s.autoBeta(true, 0, 4) // accepted, no free server: β·4/1
	assert.Equal(t, 4.0, s.beta)
	s.autoBeta(false, 1, 4) // rejected, 3 reserved: β·3/4
	assert.Equal(t, 3.0, s.beta)
	s.autoBeta(true, 1, 400)
	assert.Equal(t, 10.0, s.beta, "clamped to betaMax")

	st, err = strategies.New("librasla", map[string]string{"seed": "12345"})
	require.NoError(t, err)
	assert.Equal(t, uint64(12345), st.(*libra).qp.seed)
}

// Part C on a hand-made book: one job accepted and on time, one accepted
// and late, one rejected yet on time; with the simulator's truth and
// without (then the start-time metrics are marked Approx).
func TestMetricsDefinitions(t *testing.T) {
	var b book
	add := func(id int, q QoS, accepted bool, reason string, charge float64, end int) {
		r := &record{q: q, accepted: accepted, reason: reason, charge: charge, end: end}
		b.set(id, r)
		b.order = append(b.order, id)
	}
	add(0, QoS{RE: 100, D: 300, TSU: 0, TD: 300, B: 1, PR: 0.01}, true, "", 0.5, 250)            // met; waited 150
	add(1, QoS{RE: 100, D: 200, TSU: 0, TD: 200, B: 2, PR: 0.01}, true, "", 0.7, 260)            // 60 s late: U = 2 − 0.6
	add(2, QoS{RE: 50, D: 100, TSU: 10, TD: 110, B: 1, PR: 0.01}, false, reasonDeadline, 0, 100) // rejected, on time
	truth := &strategies.Truth{Jobs: map[int]strategies.JobTruth{
		0: {ID: 0, Start: 150, End: 250}, 1: {ID: 1, Start: 160, End: 260}, 2: {ID: 2, Start: 60, End: 100}}}
	for _, tc := range []struct {
		truth  *strategies.Truth
		approx bool
		slow   float64
	}{
		{truth, false, (2.5 + 90.0/40) / 2}, // job 2 ran 40 s
		{nil, true, (2.5 + 90.0/50) / 2},    // runtime ≈ RE
	} {
		m := map[string]strategies.Metric{}
		for _, x := range b.metrics(tc.truth, false, []string{reasonDeadline}) {
			m[x.Name] = x
		}
		assert.InDelta(t, 200.0/3, m["deadlineMetPct"].Value, 1e-9)
		assert.InDelta(t, 100.0/3, m["qosSatisfaction"].Value, 1e-9)
		assert.InDelta(t, 100*0.5/4, m["clusterProfitability"].Value, 1e-9)
		assert.InDelta(t, 100*(1+1.4)/4, m["profitability"].Value, 1e-9)
		assert.InDelta(t, 50, m["reliability"].Value, 1e-9)
		assert.InDelta(t, 100.0/3, m["slaPct"].Value, 1e-9)
		assert.InDelta(t, 150, m["waitSLA"].Value, 1e-9, "TST 150 (truth) or TF − RE = 150")
		assert.InDelta(t, tc.slow, m["avgSlowdown"].Value, 1e-9, "deadline-met jobs 0 and 2")
		assert.Equal(t, tc.approx, m["waitSLA"].Approx)
		assert.Equal(t, tc.approx, m["avgSlowdown"].Approx)
		assert.False(t, m["deadlineMetPct"].Approx, "JCPL gives the true finish")
		assert.Equal(t, 1.0, m["rejected"].Value)
		assert.Equal(t, 1.0, m["rejected."+reasonDeadline].Value)
		assert.Equal(t, 1.0, m["rejectedOnTime"].Value)
		assert.InDelta(t, 0.5, m["revenue"].Value, 1e-12)
		require.NoError(t, strategies.CheckMetrics(b.metrics(tc.truth, true, []string{reasonRisk})))
	}
}
