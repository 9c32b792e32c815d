package simconfig

import (
	"path/filepath"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// BenchmarkFailureModel: loading a configuration with its model, jobs and
// failures, on the reference cases with the most work: s2-config05 with
// g5k06 (M = 86401 slots, 10 series, 62720 failures) and
// ds-sample-config02 with nd07cpu (50 servers, M = 2881).
func BenchmarkFailureModel(b *testing.B) {
	for _, c := range []struct{ name, config, model string }{
		{"s2-config05.g5k06", "s2-config05.xml", "g5k06"},
		{"ds-sample-config02.nd07cpu", "ds-sample-config02.xml", "nd07cpu"},
	} {
		p := filepath.Join(fixtures.Dir(b), "failure-models", c.name, c.config)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadConfig(p, LoadOptions{Failure: c.model, FailureGiven: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFailureModelLarge: the generator alone on a large system: 10
// types of 1000 servers, g5k06, E = 86400 (N = 10000 selected servers,
// P = 1000 series of M = 2881 slots, 2.7 million failures).
func BenchmarkFailureModelLarge(b *testing.B) {
	var types []ServerType
	for i := range 10 {
		types = append(types, ServerType{Name: "t" + string(rune('0'+i)), Limit: 1000, Cores: 1 << i})
	}
	m, _ := lookupFailModel("g5k06")
	b.ReportAllocs()
	for b.Loop() {
		newFailGen(newGlibcRand(1), m, types, 300, 100, 86400).generate()
	}
}
