package frontier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// Tests of the early prior: before minFit completions, the posterior
// predicts from a prior of runtimes deconvolved from the estimates offered
// (posterior.deconvolve), while no completion contradicts ds-sim's model.

// offerModel offers n estimates of jobs of runtime act spread evenly over
// [1, 2·act − 1], as ds-sim's generator spreads them.
func offerModel(p *posterior, act, n int) {
	for k := range n {
		p.offered(1 + k*(2*act-2)/(n-1))
	}
}

// The completions that rule the model out, as few as they are.
func TestContradicted(t *testing.T) {
	for _, tc := range []struct {
		what string
		add  func(p *posterior)
		want bool
	}{
		{"no completion", func(*posterior) {}, false},
		{"8 balanced over the quarters", func(p *posterior) { addBalanced(p.add, 100, 2) }, false},
		{"8 exact estimates: all in [1, 1.5), 1.0 > 0.25 + 0.46", func(p *posterior) { addQuarter(p.add, 100, 2, 8) }, true},
		{"4 exact estimates: 1.0 beyond 0.25 + 0.65 already", func(p *posterior) { addQuarter(p.add, 100, 2, 4) }, true},
		{"2 exact estimates: 1.0 within 0.25 + 0.92", func(p *posterior) { addQuarter(p.add, 100, 2, 2) }, false},
		{"one stray in 10 (rounding, perhaps)", func(p *posterior) {
			addBalanced(p.add, 100, 2)
			addQuarter(p.add, 100, 0, 1)
			addQuarter(p.add, 100, 4, 1)
		}, false},
		{"two strays in 10: est ≥ 2·act, never the model's", func(p *posterior) {
			addBalanced(p.add, 100, 2)
			addQuarter(p.add, 100, 4, 2)
		}, true},
	} {
		var p posterior
		tc.add(&p)
		assert.Equal(t, tc.want, p.contradicted(), tc.what)
	}
}

// Deconvolving the estimates finds the runtimes they were made from, as
// far as the model's blur lets it: a single runtime, and two runtimes 50×
// apart (half the jobs each), where the estimates' own histogram would
// spread its mass over every value from 1 to 9,999. (A little mass is
// left on short runtimes, which an estimate of 1 could have come from;
// the posterior's tilt by 1/a makes it weigh for the smallest estimates,
// which are the shortest jobs' too.)
func TestDeconvolveRecoversThePrior(t *testing.T) {
	near := func(p *posterior, x float64) (m float64) {
		var mass [nBins]float64
		p.deconvolve(&mass)
		for b := binOf(x / 1.25); b <= binOf(x*1.25); b++ {
			m += mass[b]
		}
		return m
	}
	one := posterior{estimatesPrior: true}
	offerModel(&one, 1000, 200)
	require.True(t, one.early)
	assert.Greater(t, near(&one, 1000), 0.95, "the one runtime")
	// The peak is the bin of 1000, whose middle is 981 (a bin is 9 % wide).
	assert.InEpsilon(t, 1000, one.mean(lower(1001)), 0.15, "act ≥ 501: about 1000")
	assert.InEpsilon(t, 1000, one.mean(lower(1999)), 0.15, "act ≥ 1000: about 1000")

	two := posterior{estimatesPrior: true}
	offerModel(&two, 100, 200)
	offerModel(&two, 5000, 200)
	require.True(t, two.early)
	assert.InDelta(t, 0.5, near(&two, 100), 0.05, "half the jobs run about 100 s")
	assert.InDelta(t, 0.5, near(&two, 5000), 0.05, "half about 5000 s")
	assert.Greater(t, two.mean(lower(300)), 3000, "an estimate of 300: act ≥ 150.5, the long jobs (5000, blurred)")
	assert.Less(t, two.mean(lower(100)), 200, "an estimate of 100: the short jobs, mostly (tilted by 1/a)")
}

// When the posterior predicts: from the eighth offer (early), until a
// completion contradicts the model or minFit completions are in; then the
// model is checked on them as before (ready, or the learned ratio).
func TestEarlyPriorSwitches(t *testing.T) {
	r := newRatios()
	for range 2 * minOffers {
		r.post.offered(500)
	}
	assert.False(t, r.post.usable(), "prior=ratio: the estimates are not used")

	r = newRatios()
	r.post.estimatesPrior = true
	for range minOffers - 1 {
		r.post.offered(500)
	}
	assert.False(t, r.post.usable(), "7 estimates: not yet a prior")
	assert.Equal(t, 500, r.expect(500), "the learned ratio (1)")
	r.post.offered(500)
	require.True(t, r.post.usable(), "8 estimates")
	assert.NotEqual(t, 500, r.expect(500), "the early prior predicts")

	addQuarter(r.add, 300, 2, 8) // exact estimates
	assert.False(t, r.post.usable(), "8 completions with est = act: not ds-sim's model")
	for range 100 {
		r.post.offered(500)
	}
	assert.False(t, r.post.usable(), "and no later offer brings it back")

	r = newRatios()
	r.post.estimatesPrior = true
	offerModel(&r.post, 1000, 16)
	for range 15 {
		addBalanced(r.add, 1000, 1) // the quarters in turn, as a run's completions mix them
	}
	require.True(t, r.post.early, "60 completions, balanced: early still")
	addBalanced(r.add, 1000, 1)
	r.post.refresh(0, nil)
	assert.True(t, r.post.ready, "64 that fit: the Kaplan–Meier prior")
	assert.False(t, r.post.early)

	r = newRatios()
	r.post.estimatesPrior = true
	offerModel(&r.post, 1000, 16)
	for range 8 {
		addBalanced(r.add, 1000, 1)
		addQuarter(r.add, 1000, 1, 1)
	}
	for range 6 {
		addBalanced(r.add, 1000, 1)
	}
	require.True(t, r.post.early, "64 completions, one quarter heavy (22 of 64) but within three deviations")
	r.post.refresh(0, nil)
	assert.False(t, r.post.usable(), "checked on 64, the model fails (0.34 in one quarter, beyond 0.25 ± 0.08): the learned ratio")
}

// A job that has outrun its estimate, early in a run: the learned ratio
// expects it to end within half its estimate (20 s), so a job queues
// behind it (a distrusted 200 s) rather than boot a server (300 s); the
// early prior (the estimates of a tiny overloaded cluster's first 18
// jobs) expects it to run on for about 1,000 s, and the job boots.
func TestEarlyPriorOverrunningJob(t *testing.T) {
	types := []servertypes.Type{
		{Name: "c6", Limit: 1, BootupTime: 300, HourlyRate: 0.92, Cores: 6, Memory: 12000, Disk: 48000},
		{Name: "c8", Limit: 1, BootupTime: 0, HourlyRate: 1.25, Cores: 8, Memory: 32000, Disk: 128000},
	}
	firstEstimates := []int{2716, 26, 7392, 4367, 2445, 2659, 1805, 1358, 1939, 46, 27, 282, 85, 3852, 6, 2501, 1019, 207}
	for _, tc := range []struct {
		what  string
		prior bool
		want  protocol.ServerRef
	}{
		{"the learned ratio: job 1, estimate 40, run 969 s, ends within 20 s", false, ref("c8", 0)},
		{"the early prior: job 1 runs on", true, ref("c6", 0)},
	} {
		setting := map[bool]string{false: "ratio", true: "estimates"}[tc.prior]
		f, v := clusterOf(t, map[string]string{"prior": setting}, types...)
		schedule(t, v, jb(1, 0, 6, 40), ref("c8", 0))
		if tc.prior {
			for _, est := range firstEstimates {
				f.learn.post.offered(est)
			}
			require.True(t, f.learn.post.early)
			assert.Greater(t, f.learn.endOf(40, 0, 969), 969+600, "job 1 expected to run on")
		} else {
			assert.Equal(t, 989, f.learn.endOf(40, 0, 969))
		}
		acts := decide(t, f, v, jb(2, 969, 4, 59))
		assert.Equal(t, []protocol.Action{protocol.Schedule{JobID: 2, Server: tc.want}}, acts, tc.what)
	}
}

// The prior setting: the preset's (estimates for cost, the learned ratio
// otherwise) unless given; anything else is refused before the run.
func TestPriorSetting(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]string
		want     bool
	}{
		{nil, false},
		{map[string]string{"preset": "cost"}, true},
		{map[string]string{"preset": "turnaround"}, false},
		{map[string]string{"preset": "cost", "prior": "ratio"}, false},
		{map[string]string{"prior": "estimates"}, true},
		{map[string]string{"preset": "cost", "weight": "10"}, true},
	} {
		f, _ := clusterOf(t, tc.settings, oneSmallType()...)
		assert.Equal(t, tc.want, f.learn.post.estimatesPrior, "%v", tc.settings)
	}
	_, err := strategies.New("frontier", map[string]string{"prior": "guess"})
	assert.ErrorContains(t, err, `frontier: parameter prior="guess": want estimates, ratio or preset`)
}

func oneSmallType() []servertypes.Type {
	return []servertypes.Type{{Name: "small", Limit: 1, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000}}
}
