package plots

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/dssim-go/dssim-go/harness/report"
)

// boundComparison is a comparison with hand-set bound averages: a
// baseline, a strategy swept over two values, a single strategy, and a
// column without an average.
func boundComparison() report.Comparison {
	cols := []string{"ff", "x:w=1", "x:w=2", "solo", "gone"}
	return report.Comparison{
		Baselines: []string{"ff"},
		BoundTables: []report.Table{
			{Columns: cols, Average: []float64{1.5, 1.05, 1.02, 1.2, math.NaN()}},
			{Columns: cols, Average: []float64{2.3, 1.17, 1.2, 1.25, 1.3}},
		},
	}
}

func TestBoundPointsAreTheBoundTablesAverages(t *testing.T) {
	pts := boundPoints(boundComparison())
	require.Equal(t, []boundPoint{
		{col: "ff", tat: 1.5, cost: 2.3, baseline: true},
		{col: "x:w=1", tat: 1.05, cost: 1.17},
		{col: "x:w=2", tat: 1.02, cost: 1.2},
		{col: "solo", tat: 1.2, cost: 1.25},
	}, pts, "gone has no turnaround average: left out")
	assert.Equal(t, []string{"x"}, sweeps(pts), "x runs in two columns: a sweep")
	assert.Equal(t, "w=1", pts[1].short())
	assert.Equal(t, "solo", pts[3].short())
	assert.Empty(t, boundPoints(report.Comparison{}), "no bound tables, no points")
}

func TestBoundFrames(t *testing.T) {
	pts := boundPoints(boundComparison())
	all := frame(pts, panelAll)
	assert.LessOrEqual(t, all.xmin, 1.0, "the bound is in view")
	assert.LessOrEqual(t, all.ymin, 1.0)
	assert.Greater(t, all.xmax, 1.5, "every point is in view")
	assert.Greater(t, all.ymax, 2.3)

	nearTAT := frame(pts, panelNear)
	assert.Less(t, nearTAT.xmax, 1.5, "the baseline's turnaround, 1.5, is not within 30 %")
	assert.Greater(t, nearTAT.xmax, 1.2)

	close := frame(pts, panelClose)
	assert.LessOrEqual(t, close.xmin, 1.0)
	assert.Greater(t, close.xmax, 1.2, "solo is within 30 % of both bounds")
	assert.Greater(t, close.ymax, 1.25)
	assert.Less(t, close.xmax, 1.5, "the baseline at 1.5 / 2.3 is not in the close-up")
	assert.Less(t, close.ymax, 2.3)
}

func TestBoundLabelsMoveLeftWhenCrowded(t *testing.T) {
	pts := []boundPoint{{col: "a", tat: 1.10, cost: 1.2}, {col: "b", tat: 1.11, cost: 1.2}, {col: "c", tat: 1.10, cost: 1.5}, {col: "d", tat: 1.40, cost: 1.2}, {col: "e", tat: 1.40, cost: 1.2}}
	w := window{1, 1.5, 1, 1.6}
	at := func(q boundPoint) plotter.XY { return plotter.XY{X: q.tat, Y: q.cost} }
	crowded := crowding(pts, false, w)
	assert.True(t, crowded(at(pts[0])), "b sits just right of a at the same height")
	assert.False(t, crowded(at(pts[1])), "nothing right of b")
	assert.False(t, crowded(at(pts[2])), "a is below c, far in the panel's height")
	assert.False(t, crowded(at(pts[3])), "e sits on d: they share a label, not crowd each other")
	assert.True(t, crowding(pts, true, window{1, 1.5, 1, 1.6})(at(pts[0])), "on a log axis too")
}

func TestWriteBoundPlot(t *testing.T) {
	dir := t.TempDir()
	files, err := WriteBoundPlot(dir, boundComparison())
	require.NoError(t, err)
	require.Len(t, files, len(Formats))
	checkPNG(t, filepath.Join(dir, "bounds.png"))
	checkSVG(t, filepath.Join(dir, "bounds.svg"))
	svg, err := os.ReadFile(filepath.Join(dir, "bounds.svg"))
	require.NoError(t, err)
	for _, s := range []string{"ff", "solo", "w=1", "w=2", "x (sweep)", "cost / perfect-packing cost"} {
		assert.True(t, strings.Contains(string(svg), s), "the plot shows %q", s)
	}

	// From real comparisons: without a sweep, and with nothing complete.
	c := report.Compare(handResults(), []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff"}, report.Turnaround)
	_, err = WriteBoundPlot(t.TempDir(), c)
	require.NoError(t, err)
	c = report.Compare(handResults(), []string{"c3"}, []string{"atl", "mine"}, nil, report.Turnaround)
	_, err = WriteBoundPlot(t.TempDir(), c)
	require.NoError(t, err)
}

// dsbench --plots writes the bound plot beside the other plots.
func TestPlotsIncludeTheBoundPlot(t *testing.T) {
	dir := t.TempDir()
	c := report.Compare(handResults(), []string{"c1", "c2", "c3"}, []string{"atl", "ff", "mine"}, []string{"atl", "ff"}, report.Turnaround)
	files, err := WriteWithBounds(dir, c)
	require.NoError(t, err)
	assert.Contains(t, files, filepath.Join(dir, "bounds.svg"))
	assert.Contains(t, files, filepath.Join(dir, "tradeoff.svg"))
}

// A long column name (a composite's member list) is cut to maxLabel runes
// on the plot.
func TestBoundLabelsAreCut(t *testing.T) {
	long := "composite:members=[soonest; cost-reduce; frontier],mode=portfolio"
	c := report.Comparison{BoundTables: []report.Table{
		{Columns: []string{long}, Average: []float64{1.1}},
		{Columns: []string{long}, Average: []float64{1.2}},
	}}
	dir := t.TempDir()
	_, err := WriteBoundPlot(dir, c)
	require.NoError(t, err)
	svg, err := os.ReadFile(filepath.Join(dir, "bounds.svg"))
	require.NoError(t, err)
	assert.Contains(t, string(svg), "composite:members=[soonest; c…")
	assert.NotContains(t, string(svg), "mode=portfolio")
}

// Sweep points with the same result share one label in the close-up.
func TestBoundLabelsCoincidentPointsOnce(t *testing.T) {
	c := boundComparison()
	c.BoundTables[0].Average[2], c.BoundTables[1].Average[2] = 1.05, 1.17 // x:w=2 on x:w=1
	dir := t.TempDir()
	_, err := WriteBoundPlot(dir, c)
	require.NoError(t, err)
	svg, err := os.ReadFile(filepath.Join(dir, "bounds.svg"))
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(svg), ">w=1, w=2<"), "one label for the two coinciding sweep points")
	assert.False(t, strings.Contains(string(svg), ">w=2<"))
}

// The bound, 1 on either axis, is a dashed reference line in every panel,
// and the linear axes are labelled without repeats.
func TestBoundPlotMarksTheBound(t *testing.T) {
	dir := t.TempDir()
	_, err := WriteBoundPlot(dir, boundComparison())
	require.NoError(t, err)
	svg, err := os.ReadFile(filepath.Join(dir, "bounds.svg"))
	require.NoError(t, err)
	assert.Equal(t, 6, strings.Count(string(svg), "stroke:#969696;stroke-width:0.8;stroke-dasharray:4,3"), "two reference lines a panel")

	pts := boundPoints(boundComparison())
	for _, which := range []panel{panelAll, panelNear, panelClose} {
		p, err := boundPanel(pts, "", which, frame(pts, which))
		require.NoError(t, err)
		axes := map[string]plot.Axis{"y": p.Y}
		if which != panelAll {
			axes["x"] = p.X
		}
		for name, ax := range axes {
			seen := map[string]bool{}
			for _, tk := range ax.Tick.Marker.Ticks(0.995, 1.13) {
				assert.False(t, tk.Label != "" && seen[tk.Label], "panel %d, %s axis: %q twice", which, name, tk.Label)
				seen[tk.Label] = true
			}
		}
	}
}

// The bound plot's averages leave out the configs where a column has no
// result; its first panel's title says which.
func TestBoundNote(t *testing.T) {
	for _, tc := range []struct {
		configs []string
		want    string
	}{
		{[]string{"c1", "c2"}, ""},
		{[]string{"c1", "c2", "c3"}, "averages over 2 of 3 configs; left out (a column has no result):\nc3"},
		{[]string{"c3"}, "nothing to draw: no config has a result in every column"},
	} {
		c := report.Compare(handResults(), tc.configs, []string{"atl", "ff", "mine"}, nil, report.Turnaround)
		assert.Equal(t, tc.want, boundNote(c), "configs %v", tc.configs)
	}
}

// The close-up shows the sweeps and the columns within 30 % of both
// bounds, no others, even where a sweep reaching far up (a turnaround
// preset's cost) frames them: "far" (1.05 / 1.6) lies inside the close-up's
// window but is not close on cost, so only the first two panels show it.
func TestBoundCloseUpLeavesOutWhatItsTitleExcludes(t *testing.T) {
	cols := []string{"x:w=1", "x:w=2", "far", "solo"}
	c := report.Comparison{BoundTables: []report.Table{
		{Columns: cols, Average: []float64{1.08, 1.01, 1.05, 1.2}},
		{Columns: cols, Average: []float64{1.15, 1.8, 1.6, 1.25}},
	}}
	pts := boundPoints(c)
	sw := sweeps(pts)
	for _, tc := range []struct {
		col               string
		all, near, closeU bool
	}{
		{"x:w=1", true, true, true},
		{"x:w=2", true, true, true},
		{"far", true, true, false},
		{"solo", true, true, true},
	} {
		i := slices.IndexFunc(pts, func(p boundPoint) bool { return p.col == tc.col })
		require.GreaterOrEqual(t, i, 0)
		assert.Equal(t, tc.all, framed(pts[i], panelAll, sw), tc.col)
		assert.Equal(t, tc.near, framed(pts[i], panelNear, sw), tc.col)
		assert.Equal(t, tc.closeU, framed(pts[i], panelClose, sw), tc.col)
	}
	w := frame(pts, panelClose)
	require.Greater(t, w.ymax, 1.6, "the sweep frames far's cost")
	dir := t.TempDir()
	_, err := WriteBoundPlot(dir, c)
	require.NoError(t, err)
	svg, err := os.ReadFile(filepath.Join(dir, "bounds.svg"))
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(svg), ">far<"), "far is labelled in the first two panels only")
}
