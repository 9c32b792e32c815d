package plots

import (
	"bytes"
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
)

// Every column of a wide sweep gets a style of its own: as a bar (fill
// and outline) and as a line (colour, dashes, point shape).
func TestColumnStylesAreDistinct(t *testing.T) {
	for _, n := range []int{12, styleCycles * len(darkHues)} {
		bars, lines := map[string]int{}, map[string]int{}
		for j := range n {
			st := columnStyle(j)
			bar, line := fmt.Sprint(st.fill, st.outline), fmt.Sprintf("%v %v %T", st.line, st.dashes, st.shape)
			if k, dup := bars[bar]; dup {
				t.Errorf("%d columns: bars %d and %d look the same (%s)", n, k, j, bar)
			}
			if k, dup := lines[line]; dup {
				t.Errorf("%d columns: lines %d and %d look the same (%s)", n, k, j, line)
			}
			bars[bar], lines[line] = j, j
		}
	}
}

// svgOf renders p as SVG.
func svgOf(t *testing.T, p *plot.Plot) string {
	t.Helper()
	w, err := p.WriterTo(16*vg.Centimeter, 12*vg.Centimeter, "svg")
	require.NoError(t, err)
	var b bytes.Buffer
	_, err = w.WriteTo(&b)
	require.NoError(t, err)
	return b.String()
}

// distinct counts the distinct matches of re's groups in s, black and
// white (axes, text, background) left out.
func distinct(s string, re *regexp.Regexp) int {
	seen := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		if m[1] != "#000000" && m[1] != "#FFFFFF" {
			seen[fmt.Sprint(m[1:])] = true
		}
	}
	return len(seen)
}

// The per-config bars and the sweep lines of twelve columns are drawn in
// twelve styles (gonum's palette has seven colours).
func TestTwelveColumnsTwelveStyles(t *testing.T) {
	var cols []string
	var res []bench.Result
	row := make([]float64, 12)
	for j := range 12 {
		col := fmt.Sprintf("thr:pmin=%d", j)
		cols, row[j] = append(cols, col), float64(j+1)
		for _, af := range []float64{0.5, 1} {
			res = append(res, bench.Result{Config: "c", Variant: col, Status: bench.StatusOK, ArrivalFactor: &af,
				Summary: bench.Summary{AvgTurnaround: 100 + j*10 + int(af*10)}})
		}
	}
	p, _, err := metricPlot(report.Table{Title: "T", Configs: []string{"c"}, Columns: cols, Cells: [][]float64{row}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 12, distinct(svgOf(t, p), regexp.MustCompile(`style="fill:(#[0-9A-F]{6})"`)), "bar fills")

	tt := sweepMetric{"tt", "turnaround", func(r bench.Result) (float64, bool) { return float64(r.Summary.AvgTurnaround), true }}
	p, err = sweepPlot(res, cols, sweepDims[0], tt)
	require.NoError(t, err)
	// (gonum's SVG leaves out a stroke width that has not changed; points'
	// outlines have their line's colour, undashed)
	lines := regexp.MustCompile(`stroke:(#[0-9A-F]{6})(?:;stroke-width:[0-9.]+)?(;stroke-dasharray:[0-9.,]+)?`)
	assert.Equal(t, 12, distinct(svgOf(t, p), lines)-1, "line styles (the grid's grey is one more)")
}

func TestMergeCoincident(t *testing.T) {
	norm := linearNorm(0, 1, 0, 1)
	l := func(x, y float64, name string) plotLabel { return plotLabel{plotter.XY{X: x, Y: y}, name} }
	var seven []plotLabel
	for i := range 7 {
		seven = append(seven, l(0.5, 0.5, fmt.Sprint("c", i)))
	}
	for _, tc := range []struct {
		name string
		in   []plotLabel
		want []plotLabel
	}{
		{"equal", []plotLabel{l(0.5, 0.5, "a"), l(0.5, 0.5, "b")}, []plotLabel{l(0.5, 0.5, "a, b")}},
		{"within a label's height", []plotLabel{l(0.5, 0.5, "a"), l(0.51, 0.52, "b")}, []plotLabel{l(0.5, 0.5, "a, b")}},
		{"a label's height apart", []plotLabel{l(0.5, 0.5, "a"), l(0.5, 0.54, "b")}, []plotLabel{l(0.5, 0.5, "a"), l(0.5, 0.54, "b")}},
		{"apart across", []plotLabel{l(0.5, 0.5, "a"), l(0.52, 0.5, "b")}, []plotLabel{l(0.5, 0.5, "a"), l(0.52, 0.5, "b")}},
		{"groups keep their order", []plotLabel{l(0.1, 0.1, "a"), l(0.9, 0.9, "b"), l(0.1, 0.1, "c")},
			[]plotLabel{l(0.1, 0.1, "a, c"), l(0.9, 0.9, "b")}},
		{"seven names, five and a count", seven, []plotLabel{l(0.5, 0.5, "c0, c1, c2, c3, c4 +2 more")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, mergeCoincident(tc.in, norm))
		})
	}
}

// A ratio axis has a label at each step, all with the decimals the step
// needs, none printed twice (gonum's default gives "1 1 1.1 1.1" over
// 0.995 to 1.13), and 1 among them when in range.
func TestRatioTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0.995, 1.13, []string{"1.00", "1.02", "1.04", "1.06", "1.08", "1.10", "1.12"}},
		{0.9, 1.1, []string{"0.90", "0.95", "1.00", "1.05", "1.10"}},
		{0.999, 1.005, []string{"0.999", "1.000", "1.001", "1.002", "1.003", "1.004", "1.005"}},
		{-0.1, 4, []string{"0", "1", "2", "3", "4"}}, // not "-0"
		{1, 1, []string{"1"}},
	} {
		var got []string
		for _, tk := range (ratioTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		assert.Equal(t, tc.want, got, "%g to %g", tc.lo, tc.hi)
	}
}
