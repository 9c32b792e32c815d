package simconfig

import (
	"fmt"
	"testing"
)

// FuzzFailureModel: the generator on arbitrary systems, grains, scales, end
// times and seeds never panics, and every failure it makes is well formed:
// 0 <= start <= end, a known type, an id below its limit, never one of the
// largest type's last Z servers, and no more runs than failed slots.
func FuzzFailureModel(f *testing.F) {
	f.Add(uint8(5), []byte{2, 2, 1}, uint16(300), uint8(100), uint32(604800), uint32(1024))
	f.Add(uint8(0), []byte{1, 4, 3}, uint16(60), uint8(1), uint32(20000), uint32(777))
	f.Add(uint8(1), []byte{50}, uint16(3600), uint8(37), uint32(1), uint32(0))
	f.Fuzz(func(t *testing.T, mi uint8, limits []byte, grain uint16, scale uint8, end, seed uint32) {
		if len(limits) == 0 || len(limits) > 8 {
			return
		}
		var types []ServerType
		for i, l := range limits {
			types = append(types, ServerType{Name: fmt.Sprint("t", i), Limit: int(l%50) + 1, Cores: 1 << i})
		}
		m := failModels[int(mi)%len(failModels)]
		G := 60 + int(grain)%3541
		S := 1 + int(scale)%100
		E := 1 + int(end)%100000 // bounded so that one input stays fast
		fg := newFailGen(newGlibcRand(seed), m, types, G, S, E)
		recs, total := fg.generate()
		if total < 0 || len(recs) > total {
			t.Fatalf("%d records from %d slots", len(recs), total)
		}
		limit := map[string]int{}
		for _, tp := range types {
			limit[tp.Name] = tp.Limit
		}
		last := types[len(types)-1]
		for _, r := range recs {
			l, ok := limit[r.Type]
			if !ok || r.ID < 0 || r.ID >= l || r.Start < 0 || r.End < r.Start {
				t.Fatalf("bad record %+v (limit %d)", r, l)
			}
			if r.Type == last.Name && r.ID >= last.Limit-fg.never {
				t.Fatalf("%+v: one of the last %d servers of the largest type failed", r, fg.never)
			}
		}
	})
}
