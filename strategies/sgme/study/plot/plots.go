package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// report is the part of dsbench's JSON the plots read.
type report struct {
	Runs []struct {
		Config   string `json:"config"`
		Strategy string `json:"strategy"`
		Status   string `json:"status"`
		Summary  struct {
			AvgUtil       float64 `json:"avg_util"`
			AvgTurnaround float64 `json:"avg_turnaround"`
		} `json:"summary"`
		Metrics []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"metrics"`
	} `json:"runs"`
}

// figure is one plot: a metric's name, axis label and file name.
type figure struct{ key, label, file string }

var figures = []figure{
	{"avg_turnaround", "average turnaround time (s)", "sgme-f-turnaround"},
	{"avg_util", "average utilisation (%)", "sgme-f-utilisation"},
	{"avgSlowdown", "average slowdown", "sgme-f-slowdown"},
	{"memFailures", "memory failures (executions)", "sgme-f-failures"},
	{"wastedCoreSeconds", "wasted core-seconds (client's upper bound)", "sgme-f-wasted"},
	{"reducedPct", "dispatches below the request (%)", "sgme-f-reduced"},
}

// fraction reads f from a memwork config name: memwork-s<seed>-f<a>_<b>
// or -f<decimal>.
func fraction(config string) (float64, bool) {
	i := strings.LastIndex(config, "-f")
	if !strings.HasPrefix(config, "memwork-") || i < 0 {
		return 0, false
	}
	s := config[i+2:]
	if a, b, ok := strings.Cut(s, "_"); ok {
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		return x / y, err1 == nil && err2 == nil && y != 0
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil
}

// series is the mean of a metric per f for each column, columns in their
// first-seen order.
func series(rep report, key string) (cols []string, pts map[string]plotter.XYs) {
	sums := map[string]map[float64][2]float64{}
	for _, r := range rep.Runs {
		f, ok := fraction(r.Config)
		if !ok || r.Status != "ok" {
			continue
		}
		y, ok := value(r.Summary.AvgTurnaround, r.Summary.AvgUtil, r.Metrics, key)
		if !ok {
			continue
		}
		if sums[r.Strategy] == nil {
			sums[r.Strategy] = map[float64][2]float64{}
			cols = append(cols, r.Strategy)
		}
		s := sums[r.Strategy][f]
		sums[r.Strategy][f] = [2]float64{s[0] + y, s[1] + 1}
	}
	pts = map[string]plotter.XYs{}
	for _, c := range cols {
		xs := make([]float64, 0, len(sums[c]))
		for x := range sums[c] {
			xs = append(xs, x)
		}
		slices.Sort(xs)
		for _, x := range xs {
			pts[c] = append(pts[c], plotter.XY{X: math.Log2(x), Y: sums[c][x][0] / sums[c][x][1]})
		}
	}
	return cols, pts
}

func value(tt, util float64, ms []struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}, key string) (float64, bool) {
	switch key {
	case "avg_turnaround":
		return tt, true
	case "avg_util":
		return util, true
	}
	for _, m := range ms {
		if m.Name == key {
			return m.Value, true
		}
	}
	return 0, false
}

// writePlots writes one SVG (and a file per further extension, such as
// ".png") per figure that has data.
func writePlots(dir string, rep report, exts ...string) ([]string, error) {
	var files []string
	for _, fg := range figures {
		cols, pts := series(rep, fg.key)
		if len(cols) == 0 {
			continue
		}
		p := plot.New()
		p.Title.Text = fg.label + " against f"
		p.X.Label.Text = "small type's memory ÷ big type's (f, log₂ scale)"
		p.Y.Label.Text = fg.label
		p.X.Tick.Marker = fracTicks{}
		for j, c := range cols {
			line, points, err := plotter.NewLinePoints(pts[c])
			if err != nil {
				return files, err
			}
			line.Color, points.Color, points.Shape = plotutil.Color(j), plotutil.Color(j), plotutil.Shape(j)
			p.Add(line, points)
			p.Legend.Add(c, line, points)
		}
		p.Add(plotter.NewGrid())
		p.Legend.Top = true
		for _, ext := range append([]string{".svg"}, exts...) {
			name := filepath.Join(dir, fg.file+ext)
			if err := p.Save(16*vg.Centimeter, 11*vg.Centimeter, name); err != nil {
				return files, fmt.Errorf("%s: %w", name, err)
			}
			files = append(files, name)
		}
	}
	return files, nil
}

// fracTicks labels log₂ f as 1/32 … 1.
type fracTicks struct{}

func (fracTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Ceil(lo); k <= hi; k++ {
		label := "1"
		if k < 0 {
			label = "1/" + strconv.Itoa(1<<int(-k))
		} else if k > 0 {
			label = strconv.Itoa(1 << int(k))
		}
		ts = append(ts, plot.Tick{Value: k, Label: label})
	}
	return ts
}
