package plots

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// WriteTimeline runs one variant on one config in-process and draws each
// server's life: boot, busy and idle periods, with the jobs on it
// (timeline.svg/png). Servers never used are left out.
func WriteTimeline(dir string, src sources.Source, v columns.Variant) ([]string, error) {
	tl, err := RunTimeline(src, v)
	if err != nil {
		return nil, err
	}
	p := timelinePlot(tl, fmt.Sprintf("%s on %s", v.Label(), src.Name))
	h := vg.Length(4+0.45*float64(len(tl.Servers))) * vg.Centimeter
	var files []string
	for _, ext := range Formats {
		f := filepath.Join(dir, "timeline."+ext)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return files, err
		}
		if err := p.Save(24*vg.Centimeter, h, f); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// RunTimeline runs the variant on the config in-process and returns the
// simulator's timeline.
func RunTimeline(src sources.Source, v columns.Variant) (*mocksrv.Timeline, error) {
	_, sess, err := bench.SimulateOne(src, v, mocksrv.Options{})
	if err != nil {
		return nil, err
	}
	return sess.Engine().Timeline(), nil
}

var (
	bootColour = color.RGBA{R: 190, G: 190, B: 190, A: 255}
	idleColour = color.RGBA{R: 235, G: 235, B: 210, A: 255}
	jobColours = []color.RGBA{
		{R: 31, G: 119, B: 180, A: 255}, {R: 255, G: 127, B: 14, A: 255}, {R: 44, G: 160, B: 44, A: 255},
		{R: 214, G: 39, B: 40, A: 255}, {R: 148, G: 103, B: 189, A: 255}, {R: 140, G: 86, B: 75, A: 255},
	}
	lostColour = color.RGBA{R: 0, G: 0, B: 0, A: 255} // killed or failed work
)

// timelinePlot: one row per used server (y), time on x. A row's background
// shows its powered periods (grey while booting, pale while powered); jobs
// are coloured bars, stacked in lanes when they overlap.
func timelinePlot(tl *mocksrv.Timeline, title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = "Server timeline: " + title
	p.X.Label.Text = "simulation time (s)"
	var r rects
	var names []string
	row := 0
	for _, s := range tl.Servers {
		if len(s.Jobs) == 0 && len(s.Power) == 0 {
			continue
		}
		y := float64(row)
		names = append(names, fmt.Sprintf("%s %d", s.Type, s.ID))
		for _, pw := range s.Power {
			r.add(float64(pw.BootStart), float64(pw.BootEnd), y-0.4, y+0.4, bootColour)
			off := pw.Off
			if off < 0 {
				off = tl.End
			}
			r.add(float64(pw.BootEnd), float64(max(off, pw.BootEnd)), y-0.4, y+0.4, idleColour)
		}
		lanes := laneOf(s.Jobs)
		n := 1
		for _, l := range lanes {
			n = max(n, l+1)
		}
		h := 0.8 / float64(n)
		for i, j := range s.Jobs {
			c := jobColours[j.ID%len(jobColours)]
			if j.Outcome != mocksrv.JobCompleted {
				c = lostColour
			}
			lo := y - 0.4 + float64(lanes[i])*h
			r.add(float64(j.Start), float64(j.End), lo+0.05*h, lo+0.95*h, c)
		}
		row++
	}
	p.Add(&r)
	timelineLegend(p)
	end := float64(max(tl.End, 1))
	p.X.Tick.Marker = timeTicks{end: end}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(max(row, 1))-0.4
	// The legend goes in a blank margin right of the end, off the rows.
	p.X.Min, p.X.Max = 0, end*1.2
	return p
}

// laneOf assigns overlapping jobs to lanes greedily (by start time), so
// concurrent jobs on one server are drawn side by side.
func laneOf(jobs []mocksrv.TimelineJob) []int {
	idx := make([]int, len(jobs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return jobs[idx[a]].Start < jobs[idx[b]].Start })
	lanes := make([]int, len(jobs))
	var laneEnd []int
	for _, i := range idx {
		l := 0
		for l < len(laneEnd) && laneEnd[l] > jobs[i].Start {
			l++
		}
		if l == len(laneEnd) {
			laneEnd = append(laneEnd, 0)
		}
		laneEnd[l] = jobs[i].End
		lanes[i] = l
	}
	return lanes
}

// rects is a plotter of filled rectangles in data coordinates.
type rects struct {
	r []rect
}

type rect struct {
	x0, x1, y0, y1 float64
	c              color.Color
}

func (r *rects) add(x0, x1, y0, y1 float64, c color.Color) {
	if x1 > x0 {
		r.r = append(r.r, rect{x0, x1, y0, y1, c})
	}
}

// Plot implements plot.Plotter.
func (r *rects) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, q := range r.r {
		x0, x1 := trX(q.x0), trX(q.x1)
		if x1-x0 < 0.3 { // keep very short jobs visible
			x1 = x0 + 0.3
		}
		y0, y1 := trY(q.y0), trY(q.y1)
		c.FillPolygon(q.c, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
}

// DataRange implements plot.DataRanger.
func (r *rects) DataRange() (xmin, xmax, ymin, ymax float64) {
	if len(r.r) == 0 {
		return 0, 1, 0, 1
	}
	xmin, ymin = r.r[0].x0, r.r[0].y0
	xmax, ymax = r.r[0].x1, r.r[0].y1
	for _, q := range r.r[1:] {
		xmin, xmax = min(xmin, q.x0), max(xmax, q.x1)
		ymin, ymax = min(ymin, q.y0), max(ymax, q.y1)
	}
	return
}

var _ plot.Plotter = (*rects)(nil)

// timelineLegend names the plot's colours, top right, in the margin
// timelinePlot leaves after the end of the run.
func timelineLegend(p *plot.Plot) {
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	for _, e := range []struct {
		name string
		c    color.Color
	}{{"booting", bootColour}, {"powered on", idleColour}, {"job (colour by id)", jobColours[0]}, {"failed or killed", lostColour}} {
		p.Legend.Add(e.name, swatch{e.c})
	}
}

// swatch is a legend thumbnail: a filled square of one colour.
type swatch struct{ c color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(s.c, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

// timeTicks labels the time axis every 1, 2 or 5 × 10^k seconds, about
// eight labels over the range (gonum's default gives two or three over a
// run's length), with unlabelled ticks between them; none after end (the
// legend's margin).
type timeTicks struct{ end float64 }

// Ticks implements plot.Ticker.
func (tt timeTicks) Ticks(lo, hi float64) []plot.Tick {
	if tt.end > 0 {
		hi = min(hi, tt.end)
	}
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	step := niceStep((hi - lo) / 8)
	var ticks []plot.Tick
	for v := math.Ceil(lo/step*2) * step / 2; v <= hi+step*1e-9; v += step / 2 {
		t := plot.Tick{Value: v}
		if r := math.Mod(math.Abs(v), step); r < step*1e-6 || step-r < step*1e-6 {
			t.Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// niceStep rounds a raw step to the nearest 1, 2 or 5 × a power of ten
// (so a raw eighth of the range gives 6 to 12 labels).
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	switch m := raw / p; {
	case m < 1.5:
		return p
	case m < 3.5:
		return 2 * p
	case m < 7.5:
		return 5 * p
	}
	return 10 * p
}
