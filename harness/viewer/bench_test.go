package viewer

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// Rendering the page (data columns, JSON, template) for a run of each
// size the issue names; the page's size is reported too.
func BenchmarkRenderPage(b *testing.B) {
	for _, sz := range [][2]int{{2000, 100}, {20000, 1000}} {
		r := synthRun(sz[0], sz[1])
		p := &Page{Title: "bench", Groups: []Group{{Title: "synthetic", Runs: []*Run{r}}}}
		b.Run(fmt.Sprintf("%djobs_%dservers", sz[0], sz[1]), func(b *testing.B) {
			var buf bytes.Buffer
			if err := p.Render(&buf); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := p.Render(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len())/1e6, "MB/page")
		})
	}
}

// Reading a log: the simulator's -v all log of a 2,000-job run (every
// GETS batch included), per byte.
func BenchmarkParseLog(b *testing.B) {
	cfg, err := mocksrv.ParseConfig("bench.xml", []byte(strings.Replace(fuzzConfig, `value="6"`, `value="2000"`, 1)), mocksrv.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	log := simLog(b, cfg, optionsAt("all"))
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseLog("b.log", bytes.NewReader(log), cfg); err != nil {
			b.Fatal(err)
		}
	}
}
