package sgme_test

import (
	"strconv"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// FuzzParams: any parameter text is either refused with an error or makes
// an sgme that, in mock mode with the extension answering, never panics
// and never reserves more than a job's request or less than min(floor, R),
// whatever the sequence of successes and memory failures.
func FuzzParams(f *testing.F) {
	f.Add("fcfs-ff", "k1", "granularity", "2", "0", 100, 100, "full", []byte{0, 1, 0, 0, 1, 1, 0})
	f.Add("ff", "k3", "paper", "10", "0.5", 1, 0, "group", []byte{1, 1, 1, 0})
	f.Add("bf", "k2", "levels", "1.2", "0.9", 7, 3000, "full", []byte{0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, base, key, rounding, alpha, beta string, gran, floor int, retry string, outcomes []byte) {
		s, err := strategies.New("sgme", map[string]string{"base": base, "mode": "mock", "key": key, "rounding": rounding,
			"alpha": alpha, "beta": beta, "granularity": strconv.Itoa(gran), "floor": strconv.Itoa(floor), "retry": retry})
		if err != nil {
			return
		}
		if base != "ff" && base != "bf" && base != "fcfs-ff" && base != "fcfs-bf" {
			return // other bases query what a FakeView does not script
		}
		obs := s.(strategies.OutcomeObserver)
		v := &strattest.FakeView{Sys: twoTypes(), Capable: []protocol.Server{idle(small, 1000), idle(big, 4000)}, Quiet: true}
		if len(outcomes) > 64 {
			outcomes = outcomes[:64]
		}
		id := 0
		for i, o := range outcomes {
			j := protocol.Job{ID: id, Submit: i, Cores: 1, Memory: 100 * (1 + int(o>>1)%40), Disk: 100, EstRunTime: 1 + int(o)}
			acts, err := s.Job(v, j)
			if err != nil || len(acts) == 0 {
				continue
			}
			sm, ok := acts[len(acts)-1].(protocol.ScheduleMem)
			if !ok {
				continue
			}
			if sm.AllocMem > j.Memory || sm.AllocMem < min(max(floor, 0), j.Memory) || sm.AllocMem < 1 {
				t.Fatalf("job %d R %d: SCHM with %d (floor %d)", j.ID, j.Memory, sm.AllocMem, floor)
			}
			if _, err := obs.Outcome(v, strategies.Outcome{Action: sm, Reply: "OK"}); err != nil {
				t.Fatal(err)
			}
			if o&1 == 0 {
				_, _ = s.Event(v, &protocol.JobCompleted{Time: i, JobID: j.ID, Server: sm.Server})
				id++
			} // else: the next offer is the same job again (a memory failure)
		}
		_ = s.(strategies.MetricsReporter).Metrics(v, nil)
	})
}
