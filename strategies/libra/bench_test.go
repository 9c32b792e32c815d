package libra_test

import (
	"path/filepath"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// A whole in-process run of config100-long-high (2,000 jobs, 100 servers)
// per variant.
func BenchmarkRunConfig100LongHigh(b *testing.B) {
	path := filepath.Join(fixtures.Dir(b), "fixtures", "config100-long-high")
	for _, name := range []string{"libra", "libraplus", "librasla", "librariskd", "fcfs", "sjf", "edf"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := strattest.RunNamed(path, name, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
