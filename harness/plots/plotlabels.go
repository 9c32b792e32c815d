package plots

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
)

// plotLabel is a point's label.
type plotLabel struct {
	at   plotter.XY
	name string
}

// Points closer than this, in the plot area's proportions, coincide: their
// labels would print over each other (a label is about 3 % of a plot's
// height tall).
const coincideX, coincideY = 0.015, 0.03

// coincide tells whether two points, mapped to the plot area's proportions
// (0 to 1 along each axis) by norm, would draw their labels on top of
// each other.
func coincide(norm func(plotter.XY) (float64, float64), a, b plotter.XY) bool {
	ax, ay := norm(a)
	bx, by := norm(b)
	return math.Abs(ax-bx) < coincideX && math.Abs(ay-by) < coincideY
}

// mergeCoincident gives points that coincide on the plot one label that
// names them all, at the first one's place, instead of labels printed over
// each other (two sweep values with the same result are common). Greedy,
// in order: a point joins the first group whose first point it coincides
// with.
func mergeCoincident(ls []plotLabel, norm func(plotter.XY) (float64, float64)) []plotLabel {
	var groups [][]plotLabel
	for _, l := range ls {
		k := slices.IndexFunc(groups, func(g []plotLabel) bool { return coincide(norm, g[0].at, l.at) })
		if k < 0 {
			groups = append(groups, []plotLabel{l})
			continue
		}
		groups[k] = append(groups[k], l)
	}
	out := make([]plotLabel, len(groups))
	for i, g := range groups {
		names := make([]string, len(g))
		for k, l := range g {
			names[k] = l.name
		}
		out[i] = plotLabel{at: g[0].at, name: joinNames(names)}
	}
	return out
}

// joinNames lists the names a label or a title names: the first five and
// a count beyond six (the tables beside the plot name them all).
func joinNames(names []string) string {
	if len(names) > 6 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" +%d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}

// linearNorm maps a point to a linear plot area's proportions.
func linearNorm(xmin, xmax, ymin, ymax float64) func(plotter.XY) (float64, float64) {
	return func(p plotter.XY) (float64, float64) {
		return (p.X - xmin) / (xmax - xmin), (p.Y - ymin) / (ymax - ymin)
	}
}
