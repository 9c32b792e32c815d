package sgme

import (
	"testing"
)

// The mean slowdown is the same bytes on every call: summed in job order,
// not in a map's (random) order, whose last bits would differ between a
// sweep's shards and its unsharded run.
func TestSlowdownIsSummedInJobOrder(t *testing.T) {
	s := &sgme{submit: map[int]int{}, done: map[int][2]int{}}
	want := 0.0
	for id := range 200 {
		submit, start, end := id*7, id*7+id%13*11, id*7+id%13*11+1+id*id%97
		s.submit[id], s.done[id] = submit, [2]int{start, end}
		want += float64(end-submit) / float64(max(1, end-start))
	}
	want /= 200
	for range 50 {
		got, approx := s.slowdown(nil)
		if got != want || !approx {
			t.Fatalf("slowdown = %v (approx %v), want %v summed in job order (approx true without the truth)", got, approx, want)
		}
	}
}
