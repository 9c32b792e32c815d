package plots

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
)

// Plots are checked as files: written, non-empty and decodable (PNG by
// image/png, SVG as an <svg> document).
func TestWritePlots(t *testing.T) {
	res := handResults()
	c := report.Compare(res, []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff"}, report.Turnaround)
	dir := t.TempDir()
	files, err := Write(dir, c)
	require.NoError(t, err)
	want := []string{"tradeoff", "metric-tt", "metric-ru", "metric-co"}
	require.Len(t, files, len(want)*len(Formats))
	for _, name := range want {
		checkPNG(t, filepath.Join(dir, name+".png"))
		checkSVG(t, filepath.Join(dir, name+".svg"))
	}
	// Without baselines the plots use raw values and must still render.
	c = report.Compare(res, []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, nil, report.Turnaround)
	_, err = Write(t.TempDir(), c)
	require.NoError(t, err)
}

// A config where every baseline failed is left out of the per-config
// plots (its raw values would read as ratios on the "/ baselines' mean"
// axis), and the title says so.
func TestMetricPlotSkipsConfigsWithoutBaselines(t *testing.T) {
	res := handResults()
	for i := range res {
		if res[i].Config == "c2" && res[i].Variant != "mine" {
			res[i].Status, res[i].Err = bench.StatusError, "failed"
		}
	}
	c := report.Compare(res, []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff"}, report.Turnaround)
	p, _, err := metricPlot(c.Tables[report.Turnaround], c.Baselines)
	require.NoError(t, err)
	assert.Contains(t, p.Title.Text, "not shown (no baseline has a result there): c2")
	var labels []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"c1", "c3"}, labels)
	scale, ok := baselineScale(c.Tables[report.Turnaround], c.Baselines)
	assert.Equal(t, []bool{true, false, true}, ok)
	assert.InDeltaSlice(t, []float64{75, 1, 290}, scale, 1e-12)
}

// The layout leaves no overlap: a config's bars fit in its slot with a
// gap, a slot is wider than a vertical tick label is tall, and the legend
// has a strip of its own right of the bars.
func TestMetricPlotLayout(t *testing.T) {
	var cfgs, cols []string
	for i := range 10 {
		cfgs = append(cfgs, "config-with-a-long-name-"+string(rune('a'+i)))
	}
	for i := range 29 {
		cols = append(cols, "strategy:param="+string(rune('a'+i)))
	}
	for _, n := range []int{1, 3, 29} {
		l := layoutMetricPlot(cfgs, cols[:n])
		group := l.bar * vg.Length(n)
		assert.GreaterOrEqual(t, float64(l.slot), float64(group)*1.2, "%d columns: bars fit their slot with a gap", n)
		assert.GreaterOrEqual(t, float64(l.slot), float64(tickFont)*1.5, "%d columns: labels do not touch", n)
		assert.GreaterOrEqual(t, float64(l.legend), float64(len(cols[0]))*5.5+30, "the legend's strip holds its text")
		assert.InDelta(t, float64(l.width), float64(plotFixed+l.slot*10+l.legend), 1e-9)
	}
	tab := report.Table{Title: "T", Configs: cfgs[:2], Columns: cols[:3], Cells: [][]float64{{1, 2, 3}, {4, 5, 6}}}
	p, l, err := metricPlot(tab, nil)
	require.NoError(t, err)
	assert.Equal(t, math.Pi/2, p.X.Tick.Label.Rotation, "config names stand vertical")
	assert.InDelta(t, 1.5+l.extraUnit, p.X.Max, 1e-12, "the legend's strip is past the last group")
}

// The cost-against-turnaround plot averages over the configs where every
// column has a result; its title names the configs that leaves out, or
// says why nothing is drawn.
func TestTradeoffTitleSaysWhatIsLeftOut(t *testing.T) {
	failed := func(cfgs ...string) []bench.Result {
		res := handResults()
		for i := range res {
			if slices.Contains(cfgs, res[i].Config) {
				res[i].Status, res[i].Err = bench.StatusError, "failed"
			}
		}
		return res
	}
	cols := []string{"atl", "ff", "mine"}
	for _, tc := range []struct {
		name    string
		res     []bench.Result
		configs []string
		want    string
	}{
		{"every config complete", handResults(), []string{"c1", "c2"}, "Cost against turnaround"},
		{"c3 lacks mine", handResults(), []string{"c1", "c2", "c3"},
			"Cost against turnaround\naverages over 2 of 3 configs; left out (a column has no result):\nc3"},
		{"none complete", failed("c1", "c2"), []string{"c1", "c2", "c3"},
			"Cost against turnaround\nnothing to draw: no config has a result in every column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, bases := range [][]string{{"atl", "ff"}, nil} {
				p, err := TradeoffPlot(report.Compare(tc.res, tc.configs, cols, bases, report.Turnaround))
				require.NoError(t, err)
				assert.Equal(t, tc.want, p.Title.Text, "baselines %v", bases)
			}
		})
	}
}

// Columns with the same result get one label naming both, not two labels
// printed over each other.
func TestTradeoffLabelsCoincidentPointsOnce(t *testing.T) {
	res := handResults()
	for _, r := range handResults() {
		if r.Variant == "ff" {
			r.Variant = "ff:again"
			res = append(res, r)
		}
	}
	c := report.Compare(res, []string{"c1", "c2"}, []string{"atl", "ff", "ff:again", "mine"}, []string{"atl"}, report.Turnaround)
	p, err := TradeoffPlot(c)
	require.NoError(t, err)
	svg := svgOf(t, p)
	assert.True(t, strings.Contains(svg, ">ff, ff:again<"), "one label names both")
	assert.Equal(t, 1, strings.Count(svg, ">ff"), "ff is labelled once")
	assert.True(t, strings.Contains(svg, ">mine<"), "mine has the same average turnaround but not the same cost")
}

func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"", ""},
		{"a, b", "a, b"},
		{"config-one, config-two, config-three", "config-one,\nconfig-two,\nconfig-three"},
		{"a-very-long-config-name, b", "a-very-long-config-name,\nb"},
		{"abcd efgh ijkl", "abcd efgh\nijkl"}, // 14 runes: the break at the last space that fits
	} {
		assert.Equal(t, tc.want, wrapLine(tc.in, 12), "%q", tc.in)
	}
}
