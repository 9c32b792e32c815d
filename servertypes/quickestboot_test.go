package servertypes_test

import (
	"testing"

	"github.com/dssim-go/dssim-go/servertypes"
)

// TestQuickestBoot: the shortest boot of any type, wherever it is listed;
// 0 when a type boots at once.
func TestQuickestBoot(t *testing.T) {
	for _, c := range []struct {
		boots []int
		want  int
	}{
		{[]int{60}, 60},
		{[]int{120, 30, 60}, 30},
		{[]int{60, 60, 0}, 0},
	} {
		var types []servertypes.Type
		for i, b := range c.boots {
			types = append(types, servertypes.Type{Name: string(rune('a' + i)), Limit: 1, Cores: i + 1, BootupTime: b})
		}
		sys, err := servertypes.New("test", types)
		if err != nil {
			t.Fatal(err)
		}
		if got := sys.QuickestBoot(); got != c.want {
			t.Errorf("boots %v: QuickestBoot %d, want %d", c.boots, got, c.want)
		}
	}
}
