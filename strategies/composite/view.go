package composite

import (
	"slices"
	"strconv"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// sharedView is the View the members see in portfolio mode. Every member
// decides on the same state (no action is sent until the composite has
// chosen), so a query another member already asked in the same decision
// gets the same answer: sharedView answers it from memory instead of
// sending it again. A decision therefore costs the distinct queries of all
// members, not their sum. Records are copied both into and out of the
// memory, since the simulator reuses its GETS buffer and a member may sort
// what it is given.
type sharedView struct {
	strategies.View
	memo map[string]any
	sent int // queries actually sent (for the tests and the README's figure)
}

func newSharedView() *sharedView { return &sharedView{memo: map[string]any{}} }

// reset starts a new decision on v.
func (s *sharedView) reset(v strategies.View) {
	s.View = v
	clear(s.memo)
}

func remember[T any](s *sharedView, key string, ask func() (T, error), copyOf func(T) T) (T, error) {
	if got, ok := s.memo[key]; ok {
		return copyOf(got.(T)), nil
	}
	s.sent++
	got, err := ask()
	if err != nil { // an ERR is not remembered: the next member asks again
		return got, err
	}
	s.memo[key] = copyOf(got)
	return copyOf(got), nil
}

func same[T any](x T) T { return x }

func (s *sharedView) records(key string, ask func() ([]protocol.Server, error)) ([]protocol.Server, error) {
	return remember(s, key, ask, slices.Clone[[]protocol.Server])
}

func (s *sharedView) GetsAll() ([]protocol.Server, error) {
	return s.records("GETS All", s.View.GetsAll)
}

func (s *sharedView) GetsType(t string) ([]protocol.Server, error) {
	return s.records("GETS Type "+t, func() ([]protocol.Server, error) { return s.View.GetsType(t) })
}

func (s *sharedView) GetsOne(r protocol.ServerRef) (protocol.Server, error) {
	return remember(s, "GETS One "+r.String(), func() (protocol.Server, error) { return s.View.GetsOne(r) }, same[protocol.Server])
}

func (s *sharedView) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	return s.records("GETS Capable "+r.String(), func() ([]protocol.Server, error) { return s.View.GetsCapable(r) })
}

func (s *sharedView) GetsAvail(r protocol.Requirement) ([]protocol.Server, error) {
	return s.records("GETS Avail "+r.String(), func() ([]protocol.Server, error) { return s.View.GetsAvail(r) })
}

func (s *sharedView) GetsBounded(r protocol.Requirement) ([]protocol.Server, error) {
	return s.records("GETS Bounded "+r.String(), func() ([]protocol.Server, error) { return s.View.GetsBounded(r) })
}

func (s *sharedView) ListJobs(r protocol.ServerRef) ([]protocol.JobRecord, error) {
	return remember(s, "LSTJ "+r.String(), func() ([]protocol.JobRecord, error) { return s.View.ListJobs(r) },
		slices.Clone[[]protocol.JobRecord])
}

func (s *sharedView) CountJobs(r protocol.ServerRef, st protocol.JobState) (int, error) {
	return remember(s, "CNTJ "+r.String()+" "+strconv.Itoa(int(st)),
		func() (int, error) { return s.View.CountJobs(r, st) }, same[int])
}

func (s *sharedView) EstWait(r protocol.ServerRef) (int, error) {
	return remember(s, "EJWT "+r.String(), func() (int, error) { return s.View.EstWait(r) }, same[int])
}

func (s *sharedView) QueueLen() (int, error) {
	return remember(s, "LSTQ GQ #", s.View.QueueLen, same[int])
}

func (s *sharedView) ListQueue() ([]protocol.QueuedJob, error) {
	return remember(s, "LSTQ GQ *", s.View.ListQueue, slices.Clone[[]protocol.QueuedJob])
}
