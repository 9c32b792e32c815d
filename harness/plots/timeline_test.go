package plots

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"

	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// The timeline plot names its colours in a legend and labels its time
// axis every so often (it used to have no legend and two x ticks).
func TestTimelinePlotLegendAndTicks(t *testing.T) {
	tl := &mocksrv.Timeline{End: 1778, Servers: []mocksrv.TimelineServer{{
		Type: "joon", ID: 0, Power: []mocksrv.PowerPeriod{{BootStart: 37, BootEnd: 97, Off: -1}},
		Jobs: []mocksrv.TimelineJob{{ID: 0, Start: 97, End: 750, Cores: 3}, {ID: 1, Start: 800, End: 900, Outcome: mocksrv.JobKilled}},
	}}}
	p := timelinePlot(tl, "test")
	labelled := 0
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tk.Label != "" {
			labelled++
		}
	}
	if labelled < 5 || labelled > 12 {
		t.Errorf("%d labelled x ticks over 0–1778 s, want 5 to 12", labelled)
	}
	wt, err := p.WriterTo(24*vg.Centimeter, 8*vg.Centimeter, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var svg strings.Builder
	if _, err := wt.WriteTo(&svg); err != nil {
		t.Fatal(err)
	}
	for _, entry := range []string{"booting", "powered on", "job (colour by id)", "failed or killed"} {
		if !strings.Contains(svg.String(), entry) {
			t.Errorf("no legend entry %q", entry)
		}
	}
}

func TestWriteTimeline(t *testing.T) {
	dir := t.TempDir()
	vs, err := columns.ParseVariants([]string{"ff"})
	require.NoError(t, err)
	files, err := WriteTimeline(dir, fixtureSources(t, "sample-config01")[0], vs[0])
	require.NoError(t, err)
	require.Len(t, files, 2)
	checkPNG(t, filepath.Join(dir, "timeline.png"))
	checkSVG(t, filepath.Join(dir, "timeline.svg"))
}
