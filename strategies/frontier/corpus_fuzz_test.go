package frontier_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dssim-go/dssim-go/harness/corpus"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// fuzzInput is what the fuzzer moves: the class and its seed, then one
// number a dimension of the corpus (docs/corpus.md).
type fuzzInput struct {
	seed                                              uint64
	class, types                                      uint8
	jobs                                              uint16
	limit, boot, load, runs, estimate, failure, price uint8
}

// spec is the corpus spec of one config. Every value is within the spec's
// limits, so the spec always parses: what the target explores is configs,
// not the spec's errors (harness/corpus's FuzzParse does those). Types and
// the runtime mix keep the class's own at 0 (one value in 12 and in 5),
// so an input kept before they were moved still draws its config. Jobs
// (up to 300) and servers (up to 8 a type) are capped so that an input
// takes a second or two: a failure model draws failures over up to ten
// times a corpus config's 30 days, and loading one takes up to a second.
func (in fuzzInput) spec() string {
	pick := func(words []string, i uint8) string { return words[int(i)%len(words)] }
	cs := corpus.Classes()
	spec := fmt.Sprintf("seed=%d,%s:jobs=1-%d:limit=1-%d:boot=0-%d:load=%d-100:estimate=%s:failure=%s:price=%s",
		in.seed, cs[int(in.class)%len(cs)].Name, 1+int(in.jobs)%300, 1+int(in.limit)%8, int(in.boot)*600/255,
		1+int(in.load)%100, pick(corpus.Estimates, in.estimate), pick(corpus.Failures, in.failure), pick(corpus.Prices, in.price))
	if k := int(in.types) % 12; k > 0 {
		spec += fmt.Sprintf(":types=2-%d", k+1)
	}
	if k := int(in.runs) % (len(corpus.RunMixes) + 1); k > 0 {
		spec += ":runs=" + corpus.RunMixes[k-1]
	}
	return spec
}

// FuzzCorpusRuns: frontier is judged on configs nobody has seen (other
// seeds, prices, boots, sizes, failure models), so this target draws them
// without end. On any config the generator makes, each preset ends its
// run with every job run: no error, no panic, no job left behind, unless
// the config's failures leave some job no room (see withoutRoom).
// TestCorpusClasses holds a fixed set of configs; this one moves every
// dimension of the spec at once, the combinations a fixed set never meets
// (one server a type under a failure model, say). .ci/fuzz runs it a few
// seconds a build; the long run is in docs/reliability.md. Under -short,
// inputs with a failure model are skipped: they take most of the time,
// and the full suite runs them.
func FuzzCorpusRuns(f *testing.F) {
	// tiny, one server a type
	f.Add(uint64(1), uint8(5), uint8(0), uint16(60), uint8(0), uint8(30), uint8(80), uint8(0), uint8(0), uint8(0), uint8(0))
	// failure class, 1–2 servers a type, 2–12 types, boots of 0–600 s, g5k06
	f.Add(uint64(2), uint8(9), uint8(11), uint16(150), uint8(1), uint8(255), uint8(50), uint8(4), uint8(1), uint8(6), uint8(1))
	// one job on 2 types, no boot
	f.Add(uint64(3), uint8(6), uint8(1), uint16(0), uint8(7), uint8(0), uint8(0), uint8(1), uint8(3), uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, class, types uint8, jobs uint16, limit, boot, load, runs, estimate, failure, price uint8) {
		in := fuzzInput{seed, class, types, jobs, limit, boot, load, runs, estimate, failure, price}
		spec := in.spec()
		if testing.Short() && corpus.Failures[int(failure)%len(corpus.Failures)] != "none" {
			t.Skipf("%s: a failure model (the full suite runs it)", spec)
		}
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
		if j, ok := withoutRoom(cfg, 0); ok {
			t.Skipf("%s: job %d: no server that can hold it stays up for its boot and runtime before the end time; a run can only end once the failure model stops, at up to ten times the end time", spec, j)
		}
		for _, preset := range []string{"cost", "balanced", "turnaround"} {
			s, err := strategies.New("frontier", map[string]string{"preset": preset})
			if err != nil {
				t.Fatal(err)
			}
			m, err := strattest.RunLoaded(cfg, s)
			if err == nil && m.Unscheduled > 0 {
				err = fmt.Errorf("%d jobs never scheduled", m.Unscheduled)
			}
			if j, ok := withoutRoom(cfg, 1); err != nil && ok {
				t.Skipf("%s, preset %s: %v; job %d: no server that can hold it stays up for twice its boot and runtime plus two minutes", spec, preset, err, j)
			}
			if err != nil {
				t.Fatalf("%s, preset %s: %v", spec, preset, err)
			}
		}
	})
}

// serverRef names one server in a config's failure records.
type serverRef struct {
	typ string
	id  int
}

// withoutRoom finds a job whose capable servers, by the config's
// failures, are never up long enough between its submission and the end
// time: for its boot and runtime (slack 0), or for twice them plus two
// minutes (slack 1; a failure restarts a job from scratch, a recovered
// server boots again, and a strategy does not know the failures in
// advance). With slack 0 no strategy can finish the job before the end
// time, and a run lasts until the failure model stops, at up to ten times
// the end time: a tiny cluster under pl05 took frontier's presets 25 s
// each, and the fuzzer took that for a hang. Such configs are skipped
// before the runs. With slack 1 it is asked only once a run has failed: a
// failure model on one large server a type makes such jobs (this
// target's first find, a 51-core job of 6,827 s whose only server never
// stayed up 3,900 s, where frontier's runs end with ds-server giving up
// at 1.5 × the end time and every other strategy's sooner), and a config
// frontier finishes is never skipped.
func withoutRoom(cfg *mocksrv.Config, slack int) (int, bool) {
	down := map[serverRef][][2]int{}
	for _, f := range cfg.Failures {
		k := serverRef{f.Type, f.ID}
		down[k] = append(down[k], [2]int{f.Start, f.End})
	}
	for _, j := range cfg.Jobs {
		roomy := false
		for _, st := range cfg.Types {
			if st.Cores < j.Cores || st.Memory < j.Memory || st.Disk < j.Disk {
				continue
			}
			need := (1+slack)*(st.BootupTime+j.ActRunTime) + slack*120
			for id := 0; id < st.Limit && !roomy; id++ {
				roomy = longestUp(down[serverRef{st.Name, id}], j.Submit, cfg.EndTime) >= need
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
