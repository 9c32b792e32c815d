package frontier_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dssim-go/dssim-go/harness/corpus"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// fuzzSpec turns the fuzzer's numbers into a corpus spec of one config: a
// class, then each dimension the fuzzer may move, kept small enough (at
// most 300 jobs, 8 servers a type) that a run takes milliseconds. Every
// value is within the spec's limits (docs/corpus.md), so the spec always
// parses: what the target explores is configs, not the spec's errors
// (harness/corpus's FuzzParse does those).
func fuzzSpec(seed uint64, class, jobs, limit, boot, load, estimate, failure, price uint8) string {
	cs := corpus.Classes()
	pick := func(words []string, i uint8) string { return words[int(i)%len(words)] }
	return fmt.Sprintf("seed=%d,%s:jobs=1-%d:limit=1-%d:boot=0-%d:load=%d-100:estimate=%s:failure=%s:price=%s",
		seed, cs[int(class)%len(cs)].Name, 1+int(jobs)%300, 1+int(limit)%8, int(boot)*600/255,
		1+int(load)%100, pick(corpus.Estimates, estimate), pick(corpus.Failures, failure), pick(corpus.Prices, price))
}

// FuzzCorpusRuns: frontier is judged on configs nobody has seen (issue:
// other seeds, prices, boots, sizes, failure models), so this target draws
// them without end. On any config the generator makes, each preset ends
// its run with every job run: no error, no panic, no job left behind.
// TestCorpusClasses holds a fixed set of such configs; this one moves
// every dimension at once, the combinations a fixed set never meets (one
// server a type under a failure model, say). .ci/fuzz runs it a few
// seconds a build; the long run is in docs/reliability.md.
func FuzzCorpusRuns(f *testing.F) {
	f.Add(uint64(1), uint8(5), uint8(60), uint8(0), uint8(30), uint8(80), uint8(0), uint8(0), uint8(0))   // tiny, one server a type
	f.Add(uint64(2), uint8(9), uint8(150), uint8(1), uint8(255), uint8(50), uint8(1), uint8(6), uint8(1)) // failures on two a type, 600 s boots
	f.Add(uint64(3), uint8(6), uint8(0), uint8(7), uint8(0), uint8(0), uint8(3), uint8(2), uint8(2))      // one job, no boot
	f.Fuzz(func(t *testing.T, seed uint64, class, jobs, limit, boot, load, estimate, failure, price uint8) {
		spec := fuzzSpec(seed, class, jobs, limit, boot, load, estimate, failure, price)
		cs, err := corpus.Generate(spec)
		if err != nil {
			t.Fatalf("%s: the generator refused a spec within its limits: %v", spec, err)
		}
		dir := t.TempDir()
		if err := corpus.WriteDir(dir, cs); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, cs[0].Path())
		cfg, err := mocksrv.LoadConfig(path, mocksrv.LoadOptions{BaseDir: dir})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if j, ok := withoutRoom(cfg); ok {
			t.Skipf("%s: job %d has no failure-free stretch of a capable server long enough to run it: no strategy can finish", spec, j)
		}
		for _, preset := range []string{"cost", "balanced", "turnaround"} {
			m, err := strattest.RunNamed(path, "frontier", map[string]string{"preset": preset})
			if err != nil {
				t.Fatalf("%s, preset %s: %v", spec, preset, err)
			}
			if m.Unscheduled != 0 {
				t.Fatalf("%s, preset %s: %d jobs never scheduled", spec, preset, m.Unscheduled)
			}
		}
	})
}

// withoutRoom finds a job no strategy can be expected to finish under the
// config's failures: no server that can hold it is up, between the job's
// submission and the end time, for a stretch of twice its boot and
// runtime plus two minutes (a failure restarts a job from scratch, and a
// recovered server boots again). A failure model on one large server a
// type makes such jobs (a 51-core job of 6,827 s, found by this target,
// whose only server never stayed up 3,900 s): no strategy finishes there
// (frontier's runs end with ds-server giving up at 1.5 × the end time). The margin keeps configs that only a strategy
// knowing the failures in advance could finish out of the test, not in
// it. Without failures every job has room (the generator sizes jobs to
// the largest type).
func withoutRoom(cfg *mocksrv.Config) (int, bool) {
	down := map[[2]any][][2]int{}
	for _, f := range cfg.Failures {
		k := [2]any{f.Type, f.ID}
		down[k] = append(down[k], [2]int{f.Start, f.End})
	}
	for _, j := range cfg.Jobs {
		need := 0
		roomy := false
		for _, st := range cfg.Types {
			if st.Cores < j.Cores || st.Memory < j.Memory || st.Disk < j.Disk {
				continue
			}
			need = 2*(st.BootupTime+j.ActRunTime) + 120
			for id := 0; id < st.Limit && !roomy; id++ {
				roomy = longestUp(down[[2]any{st.Name, id}], j.Submit, cfg.EndTime) >= need
			}
		}
		if !roomy {
			return j.ID, true
		}
	}
	return 0, false
}

// longestUp is the longest stretch within [from, to) that none of the
// outages (inclusive start and end times, in any order, perhaps
// overlapping) covers.
func longestUp(outages [][2]int, from, to int) int {
	slices.SortFunc(outages, func(a, b [2]int) int { return a[0] - b[0] })
	best, at := 0, from
	for _, o := range outages {
		if o[0] > at {
			best = max(best, min(o[0], to)-at)
		}
		at = max(at, o[1]+1)
		if at >= to {
			return best
		}
	}
	return max(best, to-at)
}

func TestLongestUp(t *testing.T) {
	for _, c := range []struct {
		name     string
		outages  [][2]int
		from, to int
		want     int
	}{
		{"no outage", nil, 100, 1000, 900},
		{"one in the middle", [][2]int{{400, 499}}, 0, 1000, 500},
		{"before from", [][2]int{{0, 50}}, 100, 1000, 900},
		{"covers from", [][2]int{{50, 199}}, 100, 1000, 800},
		{"out of order, overlapping", [][2]int{{600, 700}, {100, 300}, {250, 399}}, 0, 1000, 299},
		{"past to", [][2]int{{900, 5000}}, 0, 1000, 900},
		{"covers all", [][2]int{{0, 2000}}, 0, 1000, 0},
	} {
		assert.Equal(t, c.want, longestUp(c.outages, c.from, c.to), c.name)
	}
}
