package simconfig

import (
	"math"
	"slices"
)

// failModel is one of ds-server's six resource-failure models
// (failure-models.md §2.1): the log-normal time distribution (μt, σt) of
// the failure time slots, the node distribution (μn, σn) of each server's
// share of failed time, and the failing fraction ρ of the servers.
type failModel struct {
	name                   string
	timeMu, timeSigma      float64
	nodeMu, nodeSigma, rho float64
}

// failModels in the reference's table order (the order plays no part in
// generation; -h usage lists them differently).
var failModels = [...]failModel{
	{"teragrid", 0.688, 0.531, -1.408, 1.907, 0.418},
	{"nd07cpu", 2.442, 0.661, 1.433, 2.022, 0.982},
	{"websites02", 2.43, 0.30, 1.65, 1.22, 1.0},
	{"ldns04", 1.98, 0.76, 0.27, 1.78, 0.519},
	{"pl05", 2.59, 0.45, 1.8, 1.75, 0.952},
	{"g5k06", 2.45, 0.64, 2.14, 1.18, 1.0},
}

// Defaults of -g and -s (failure-models.md §2.2). A model chosen by the
// failureModel attribute always runs with them.
const (
	failDefaultGrain = 300
	failDefaultScale = 100
)

// FailureModelNames lists the model names -f and failureModel accept, in
// the reference's table order.
func FailureModelNames() []string {
	names := make([]string, len(failModels))
	for i, m := range failModels {
		names[i] = m.name
	}
	return names
}

// lookupFailModel finds a model by its exact (case-sensitive) name.
func lookupFailModel(name string) (failModel, bool) {
	for _, m := range failModels {
		if m.name == name {
			return m, true
		}
	}
	return failModel{}, false
}

func isFailureModel(s string) bool {
	_, ok := lookupFailModel(s)
	return ok
}

// failGen is one generation run (failure-models.md §2.3-§5.7): the derived
// values and the shared glibc stream, which continues where job generation
// stopped.
type failGen struct {
	g     *glibcRand
	m     failModel
	types []ServerType
	grain int
	scale float32 // s of §2.3: f32(f32(S) / f32(100))

	n, slots, series int // N, M, P of §2.3
	first            []int
	total            int // R
	never            int // Z: the last Z servers of the largest type never fail
}

// newFailGen computes the derived values of §2.3 before the first draw.
// endTime is E of §2.2 (the end time in force when the configuration has
// been read, not the actual end of the simulation).
func newFailGen(g *glibcRand, m failModel, types []ServerType, grain, scale, endTime int) *failGen {
	f := &failGen{g: g, m: m, types: types, grain: grain, first: make([]int, len(types))}
	for i, t := range types {
		f.first[i] = f.total
		f.total += t.Limit
	}
	f.scale = float32(float32(scale) / float32(100))
	f.n = int(float64(f.total) * m.rho * float64(f.scale))
	// M in float32 throughout (§2.3; it differs from exact arithmetic for
	// some E above 1677721).
	f.slots = int(float32(float32(float32(10*endTime)/float32(grain)) + 1))
	f.series = 10
	if f.n/10 > 10 {
		f.series = f.n / 10
	}
	L := types[len(types)-1].Limit
	f.never = int(math.Log2(float64(L))/2 + 0.5)
	return f
}

// generate runs the model (§5) and returns the failure records in
// generation order (the engine sorts failures and recoveries by time,
// stably, as §5.7 does) and Σ c, the "Total #failures" of the -v all log.
func (f *failGen) generate() (recs []FailureRecord, totalSlots int) {
	chosen := f.choose()           // §5.1
	seeds := make([]int, f.series) // §5.2: the series are computed lazily
	for j := range seeds {
		seeds[j] = f.g.next()
	}
	node := lognormal{u: int64(f.g.next()), mu: f.m.nodeMu, sigma: f.m.nodeSigma} // §5.4
	counts := make([]int, len(chosen))
	picks := make([]int, len(chosen))
	for i := range chosen { // §5.5
		counts[i] = f.slotCount(node.next())
		picks[i] = f.g.draw(f.series)
		totalSlots += counts[i]
	}
	// Only the longest prefix any server uses is kept of each order: with
	// many selected servers (P = N/10 series) whole orders would not fit.
	need := make(map[int]int)
	for i, j := range picks {
		need[j] = max(need[j], counts[i])
	}
	orders := make(map[int][]int32)
	for i, g := range chosen { // §5.6
		if counts[i] == 0 {
			continue
		}
		order, ok := orders[picks[i]]
		if !ok {
			order = slices.Clip(f.order(seeds[picks[i]])[:need[picks[i]]])
			if len(order) < f.slots/2 {
				order = slices.Clone(order) // let the whole order go
			}
			orders[picks[i]] = order
		}
		failed := slices.Clone(order[:counts[i]])
		slices.Sort(failed)
		recs = f.runs(recs, g, failed)
	}
	return recs, totalSlots
}

// choose is the selection sampling of §5.1: N of the R global server
// numbers, in increasing order, one draw per examined server.
func (f *failGen) choose() []int {
	chosen := make([]int, 0, f.n)
	for g := 0; g < f.total && len(chosen) < f.n; g++ {
		if f.g.draw(f.total-g) < f.n-len(chosen) {
			chosen = append(chosen, g)
		}
	}
	return chosen
}

// order is one time series of §5.2: M samples from the private generator
// seeded with seed, ordered by the tolerant sort of §5.3. Only the order is
// kept. A series no selected server uses is never computed: its samples
// come from its own generator, so skipping them changes no other draw.
func (f *failGen) order(seed int) []int32 {
	l := lognormal{u: int64(seed), mu: f.m.timeMu, sigma: f.m.timeSigma}
	v := make([]float64, f.slots)
	for k := range v {
		v[k] = l.next()
	}
	return tolerantSort(v)
}

// slotCount is c of §5.5 steps 1-3 for one node share.
func (f *failGen) slotCount(share float64) int {
	x := float64(float64(f.slots)*share) / 100.0
	c := f.slots
	if x < float64(f.slots) {
		// x >= M is clamped to M before the C conversion could overflow
		// (§9: the reference's behaviour beyond 2^31 is undefined).
		c = int(x)
	}
	return int(float32(float32(c) * f.scale))
}

// runs appends the events of one selected server (global number g, failed
// slots ascending) as §5.6 lays them out: one record per maximal run of
// consecutive slots, two jitter draws each (also for a discarded run).
func (f *failGen) runs(recs []FailureRecord, g int, slots []int32) []FailureRecord {
	t := len(f.types) - 1
	for t > 0 && g < f.first[t] {
		t--
	}
	id := g
	if t > 0 {
		id = g % f.first[t] // [BUG-COMPAT] not g - first[t]: ids wrap (§5.6)
	}
	last := len(f.types) - 1
	discard := t == last && id >= f.types[last].Limit-f.never
	G := f.grain
	for i := 0; i < len(slots); {
		j := i
		for j+1 < len(slots) && slots[j+1] == slots[j]+1 {
			j++
		}
		start := max(int(slots[i])*G-f.g.draw(G-31), 0)
		end := int(slots[j])*G + G - 1 - f.g.draw(G-31)
		if !discard {
			recs = append(recs, FailureRecord{Start: start, End: end, Type: f.types[t].Name, ID: id})
		}
		i = j + 1
	}
	return recs
}
