package plots

import (
	"fmt"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dssim-go/dssim-go/strategies/provisioning"
)

// WriteProvisioningPlot draws poweredCores(t) and targetCores(t) of one
// provisioning run (provisioning.md Part C: the realised capacity after
// each epoch's decision beside the target V_s) into path (.svg or .png).
func WriteProvisioningPlot(path, title string, samples []provisioning.Sample) error {
	if len(samples) == 0 {
		return fmt.Errorf("provisioning plot %s: no epoch samples", path)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "simulation time (s)"
	p.Y.Label.Text = "cores"
	powered, target := make(plotter.XYs, len(samples)), make(plotter.XYs, len(samples))
	for i, s := range samples {
		powered[i] = plotter.XY{X: float64(s.Time), Y: float64(s.Powered)}
		target[i] = plotter.XY{X: float64(s.Time), Y: float64(s.Target)}
	}
	lp, err := plotter.NewLine(powered)
	if err != nil {
		return err
	}
	lt, err := plotter.NewLine(target)
	if err != nil {
		return err
	}
	lt.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	lt.Color = plotter.DefaultLineStyle.Color
	lp.Width, lt.Width = vg.Points(1.2), vg.Points(1)
	p.Add(plotter.NewGrid(), lp, lt)
	p.Legend.Add("poweredCores(t)", lp)
	p.Legend.Add("targetCores(t)", lt)
	p.Legend.Top = true
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := p.WriterTo(18*vg.Centimeter, 10*vg.Centimeter, formatOf(path))
	if err == nil {
		_, err = w.WriteTo(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func formatOf(path string) string {
	if len(path) > 4 && path[len(path)-4:] == ".png" {
		return "png"
	}
	return "svg"
}
