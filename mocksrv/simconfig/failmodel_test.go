package simconfig

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// TestPPND16: the Φ⁻¹ vectors of failure-models.md §4.2 (17 significant
// digits, glibc libm).
func TestPPND16(t *testing.T) {
	for _, c := range []struct{ p, z float64 }{
		{0.5, 0}, {0.3, -0.52440051270804067}, {0.01, -2.3263478740408408},
		{0.975, 1.9599639845400536}, {1e-9, -5.9978070150076865}, {0.99999999, 5.6120012433055058},
		{0, -1.79769313486231571e308},
	} {
		if got := ppnd16(c.p); got != c.z {
			t.Errorf("ppnd16(%v) = %.17g, want %.17g", c.p, got, c.z)
		}
	}
}

// TestLognormal: the Park–Miller step at its edge states and the seed-1
// teragrid samples of §4.2 and §13 item 1.
func TestLognormal(t *testing.T) {
	for _, c := range []struct{ u, next int64 }{{1, 16807}, {2147483646, 2147483647 - 16807}, {2147483647, 0}, {0, 0}} {
		l := lognormal{u: c.u}
		l.next()
		if l.u != c.next {
			t.Errorf("state %d -> %d, want %d", c.u, l.u, c.next)
		}
	}
	l := lognormal{u: 1, mu: 0.688, sigma: 0.531}
	// Go's math.Exp may differ from glibc's exp in the last bit (decision
	// 2; the third sample does): one ulp of tolerance, nothing more.
	for i, want := range []float64{0.20077981302161346, 1.0982638702515051, 2.8736331318224138} {
		if got := l.next(); got != want && math.Nextafter(got, want) != want {
			t.Errorf("sample %d = %.17g, want %.17g", i, got, want)
		}
	}
	if l.u != 1622650073 {
		t.Errorf("state %d, want 1622650073", l.u)
	}
	// §9: a state of 0 stays 0 and every sample is exp(μ - σ×1.797e308) = 0.
	z := lognormal{u: 0, mu: 2.45, sigma: 0.64}
	if v := z.next(); v != 0 || z.u != 0 {
		t.Errorf("state 0: sample %v, state %d", v, z.u)
	}
}

// TestTolerantSort: §13 item 3. Values closer than 1.0 count as equal and
// keep the earlier half first: not the order an exact sort gives.
func TestTolerantSort(t *testing.T) {
	cases := []struct {
		v    []float64
		want []int32
	}{
		{[]float64{5.0, 5.5, 6.2, 4.0}, []int32{2, 0, 1, 3}},
		{nil, []int32{}},
		{[]float64{1}, []int32{0}},
		{[]float64{1, 3, 2}, []int32{1, 2, 0}},
		{[]float64{1, 1.5, 2.6}, []int32{2, 0, 1}}, // 1.5 beats nothing, 2.6 beats both
	}
	for _, c := range cases {
		if got := tolerantSort(c.v); !slices.Equal(got, c.want) {
			t.Errorf("tolerantSort(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// TestFailGenDerived: N, M, P and Z of §2.3 (§13 item 2).
func TestFailGenDerived(t *testing.T) {
	types := func(limits ...int) []ServerType {
		var ts []ServerType
		for i, l := range limits {
			ts = append(ts, ServerType{Name: fmt.Sprint("t", i), Limit: l, Cores: 1 << i})
		}
		return ts
	}
	model := func(name string) failModel { m, _ := lookupFailModel(name); return m }
	for _, c := range []struct {
		name              string
		limits            []int
		grain, scale, end int
		n, m, p, z        int
	}{
		{"teragrid", []int{2, 2, 1}, 300, 100, 604800, 2, 20161, 10, 0},
		{"nd07cpu", []int{25, 25}, 300, 37, 86400, 18, 2881, 10, 2},
		{"pl05", []int{10, 10}, 300, 1, 86400, 0, 2881, 10, 2},
		{"g5k06", []int{1000, 1000}, 120, 100, 86400, 2000, 7201, 200, 5},
		{"g5k06", []int{1, 2}, 3600, 100, 86400, 3, 241, 10, 1},
		{"g5k06", []int{1, 8}, 300, 100, 2592000, 9, 86401, 10, 2},
		{"g5k06", []int{1, 7}, 67, 100, 1756425, 8, 262154, 10, 1}, // float32 M (exact: 262153)
	} {
		f := newFailGen(newGlibcRand(1), model(c.name), types(c.limits...), c.grain, c.scale, c.end)
		if f.n != c.n || f.slots != c.m || f.series != c.p || f.never != c.z {
			t.Errorf("%s %v g%d s%d E%d: N M P Z = %d %d %d %d, want %d %d %d %d", c.name, c.limits, c.grain, c.scale, c.end,
				f.n, f.slots, f.series, f.never, c.n, c.m, c.p, c.z)
		}
	}
	for L, want := range map[int]int{1: 0, 2: 1, 7: 1, 8: 2, 31: 2, 32: 3, 127: 3, 128: 4, 511: 4, 512: 5, 1000: 5} {
		if f := newFailGen(newGlibcRand(1), model("g5k06"), types(L), 300, 100, 1000); f.never != want {
			t.Errorf("L = %d: Z = %d, want %d", L, f.never, want)
		}
	}
}

// TestFailureModelWorkedExample: §10 draw by draw (§13 item 4): K = 92 job
// draws, then the selection, series seeds, node seed, shares, slot counts
// and series picks, the first runs of server 0, the order of series 0.
func TestFailureModelWorkedExample(t *testing.T) {
	p := filepath.Join(fixtures.Dir(t), "failure-models", "ds-sample-config01.g5k06", "ds-sample-config01.xml")
	c, err := LoadConfig(p, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := newGlibcRand(uint32(c.Seed))
	var raws []int
	g.onDraw = func(raw, _ int) { raws = append(raws, raw) }
	if _, e := jobgenRun(c, g); e != nil {
		t.Fatal(e)
	}
	if len(raws) != 92 {
		t.Fatalf("job generation drew %d times, want K = 92 (§11.1)", len(raws))
	}
	m, _ := lookupFailModel("g5k06")
	f := newFailGen(g, m, c.Types, 300, 100, c.EndTime)
	if f.n != 5 || f.slots != 20161 || f.series != 10 || f.never != 0 {
		t.Fatalf("N M P Z = %d %d %d %d, want 5 20161 10 0", f.n, f.slots, f.series, f.never)
	}
	recs, total := f.generate()
	// generate reads the series seeds and the node seed with next (no
	// onDraw); every other draw is seen: 5 selections, 5 picks, then jitter.
	wantSel := []int{1385186235, 814301323, 685943337, 292040776, 2046867015}
	wantPick := []int{1466217506, 389340578, 1681227973, 1225733482, 1739341440}
	wantJitter := []int{1142589216, 569578604, 412686355, 1612817342, 958871556, 1395291592, 424254391, 1938719976}
	got := raws[92:]
	if !slices.Equal(got[:5], wantSel) || !slices.Equal(got[5:10], wantPick) || !slices.Equal(got[10:18], wantJitter) {
		t.Fatalf("draws 93-: %v", got[:18])
	}
	if total != 15833 {
		t.Errorf("Σ c = %d, want 15833", total)
	}
	juju := func(start, end int) FailureRecord { return FailureRecord{Start: start, End: end, Type: "juju", ID: 0} }
	wantRecs := []FailureRecord{juju(0, 143), juju(1495, 1964), juju(3226, 3440), juju(4866, 5276)}
	if !slices.Equal(recs[:4], wantRecs) {
		t.Errorf("server 0's first runs %v, want %v", recs[:4], wantRecs)
	}
	if len(recs) != 11923 {
		t.Errorf("%d failures, want 11923", len(recs))
	}
	order := f.order(1836139518)
	if want := []int32{5369, 11629, 11721, 1586, 12251, 12702, 9129, 3419}; !slices.Equal(order[:8], want) {
		t.Errorf("order_0 begins %v, want %v", order[:8], want)
	}
	node := lognormal{u: 23091237, mu: m.nodeMu, sigma: m.nodeSigma}
	for i, want := range []float64{16.939917386364421, 3.7000438574837928, 10.56918961223756, 37.631797654822911, 9.7099035045864532} {
		share := node.next()
		if math.Abs(share-want) > 1e-13*want {
			t.Errorf("share %d = %.17g, want %.17g", i, share, want)
		}
	}
}

// TestFailureModelWrap: §13 item 6 on fm-e1-wrap (limits 1, 4, 3 after
// sorting; -d 20000): the four servers of type 1 all fail as id 0 (g mod
// first[t]), and the last Z = 1 server of the largest type never fails.
func TestFailureModelWrap(t *testing.T) {
	dir := filepath.Join(fixtures.Dir(t), "failure-models", "fm-e1-wrap.g5k06.d20000")
	c, err := LoadConfig(filepath.Join(dir, "fm-e1-wrap.xml"), LoadOptions{Failure: "g5k06", FailureGiven: true, EndTime: 20000, EndTimeGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range c.Failures {
		seen[fmt.Sprint(r.Type, " ", r.ID)] = true
	}
	mid, big := c.Types[1].Name, c.Types[2].Name
	if !seen[mid+" 0"] || seen[mid+" 1"] || seen[mid+" 2"] || seen[mid+" 3"] {
		t.Errorf("type %s: failed servers %v; want id 0 only (the wrap)", mid, seen)
	}
	if seen[big+" 2"] {
		t.Errorf("%s 2 failed; the last server of the largest type never fails", big)
	}
}

// TestFailureModelOptions: §13 item 7. The attribute equals -f (its
// failureTimeGrain ignored); -g and -s count only with -f; a job file
// starts the failures at the first draw with the header's end time reset.
func TestFailureModelOptions(t *testing.T) {
	dir := fixtures.Dir(t)
	load := func(cs, file string, o LoadOptions) *Config {
		t.Helper()
		c, err := LoadConfig(filepath.Join(dir, "failure-models", cs, file), o)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	attr := load("fm-e2-attr.g5k06", "fm-e2-attr.xml", LoadOptions{})
	flag := load("ds-sample-config01.g5k06", "ds-sample-config01.xml", LoadOptions{Failure: "g5k06", FailureGiven: true})
	if !slices.Equal(attr.Failures, flag.Failures) || attr.FailureTotal != flag.FailureTotal || attr.FailureModel != "g5k06" {
		t.Errorf("the attribute's failures differ from -f's (%d vs %d)", len(attr.Failures), len(flag.Failures))
	}
	// -g without -f (the attribute's model) is validated and unused.
	attrG := load("fm-e2-attr.g5k06", "fm-e2-attr.xml", LoadOptions{Grain: 60, GrainGiven: true, Scale: 5, ScaleGiven: true})
	if !slices.Equal(attrG.Failures, attr.Failures) {
		t.Error("-g/-s changed a model chosen by the attribute")
	}
	jf := load("fm-e3-jobfile.teragrid", "fm-e3-jobfile.xml", LoadOptions{Failure: "teragrid", FailureGiven: true})
	if jf.EndTime != 2592000 || jf.Generated || len(jf.Failures) != 436 {
		t.Errorf("job file: end time %d, generated %v, %d failures; want 2592000, false, 436", jf.EndTime, jf.Generated, len(jf.Failures))
	}
	if jf.FailureDist != [4]float64{0.688, 0.531, -1.408, 1.907} {
		t.Errorf("teragrid's distributions %v", jf.FailureDist)
	}
	// -f with a failure attribute in the file is refused (§1.2).
	data, err := os.ReadFile(filepath.Join(dir, "failure-models", "fm-e2-attr.g5k06", "fm-e2-attr.xml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseConfig("fm-e2-attr.xml", data, LoadOptions{Failure: "g5k06", FailureGiven: true})
	if err == nil || !strings.Contains(strings.Join(err.(*ConfigError).Stderr, "\n"), "The '-f' command line option is used already!") {
		t.Errorf("-f with failureModel in the file: %v", err)
	}
}
