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
