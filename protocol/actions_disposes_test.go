package protocol

import "testing"

// DisposesOffer: only a SCHD or SCHM of the job on offer, an ENQJ or a
// PSHJ dispose of it; nothing does when no job is on offer.
func TestDisposesOffer(t *testing.T) {
	for _, c := range []struct {
		a       Action
		offered int
		want    bool
	}{
		{Schedule{JobID: 3}, 3, true},
		{Schedule{JobID: 2}, 3, false}, // a job a DEQJ brought back
		{ScheduleMem{JobID: 3}, 3, true},
		{ScheduleMem{JobID: 2}, 3, false},
		{Enqueue{}, 3, true},
		{Push{}, 3, true},
		{Migrate{JobID: 3}, 3, false},
		{Dequeue{}, 3, false},
		{Schedule{JobID: 3}, -1, false},
		{Push{}, -1, false},
	} {
		if got := DisposesOffer(c.a, c.offered); got != c.want {
			t.Errorf("DisposesOffer(%v, %d) = %v, want %v", c.a, c.offered, got, c.want)
		}
	}
}
