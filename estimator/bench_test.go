package estimator

import "testing"

// BenchmarkUpdate is one estimator update: a dispatch and its outcome
// (a success, or every 16th a memory failure) in one of 64 groups.
func BenchmarkUpdate(b *testing.B) {
	o, err := NewOnline(Default())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		j := Request{ID: i, Cores: 1 + i%4, Memory: 1000 + 100*(i%16), Disk: 1000}
		o.Dispatch(j, false)
		if i%16 == 15 {
			o.OnMemFailure(i)
		} else {
			o.OnSuccess(i)
		}
	}
}
