package corpus

import (
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
)

// rng draws from PCG's raw output only, and everything drawn is computed
// in whole numbers: math/rand/v2 fixes the PCG algorithm, while the helper
// methods of rand.Rand (IntN, Float64) may change between Go versions, and
// math.Exp or math.Pow may differ in the last bit between processors,
// which a rounding to the cent could turn into a different file.
type rng struct{ p *rand.PCG }

// newRNG is the stream of one config: the spec's seed, the class and the
// index, so that a config is the same whatever else the spec asks for.
func newRNG(seed uint64, class string, index int) rng {
	h := fnv.New64a()
	h.Write([]byte(class))
	return rng{rand.NewPCG(seed, h.Sum64()+uint64(index)*0x9e3779b97f4a7c15)}
}

// intn is uniform on 0 … n−1 (n ≥ 1), by Lemire's multiply (the bias, at
// most n/2^64, does not matter here).
func (r rng) intn(n int) int {
	hi, _ := bits.Mul64(r.p.Uint64(), uint64(n))
	return int(hi)
}

func (r rng) in(x Range) int { return x.Lo + r.intn(x.Hi-x.Lo+1) }

func (r rng) pick(xs []string) string { return xs[r.intn(len(xs))] }

// ServerType is one <server> of a generated config.
type ServerType struct {
	Name               string
	Limit, Boot, Cores int
	Cents              int // hourly rate in cents (ds-system.xml prints two decimals, so the client sees it exactly)
	Memory, Disk       int
	Permille           int // the type's rate per core, in thousandths of the config's base rate per core
}

// JobType is one <job> of a generated config.
type JobType struct {
	Name       string
	Min, Max   int
	Population int
}

// Params are what was drawn for one config.
type Params struct {
	Class    string
	Index    int
	Seed     int // the config's randomSeed (ds-server's job generation)
	Price    string
	Base     int // the base rate per core, in thousandths of a dollar an hour
	Runs     string
	Estimate string
	Failure  string
	Types    []ServerType
	JobTypes []JobType
	MinLoad  int
	MaxLoad  int
	Jobs     int
}

// sizes are the core counts a type may have: distinct, so the smallest
// of at least two types leaves the largest at 2 cores or more (ds-server
// divides by zero generating the jobs of a largest type of 1 core).
var sizes = []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}

// draw draws one config's parameters from d; the order of the draws is
// part of the format (the same spec must give the same files).
func draw(r rng, class string, index int, d Dims) Params {
	p := Params{Class: class, Index: index}
	n := min(r.in(d.Types), len(sizes))
	picked := slices.Clone(sizes)
	for i := range n { // a partial Fisher–Yates shuffle: n distinct sizes
		j := i + r.intn(len(picked)-i)
		picked[i], picked[j] = picked[j], picked[i]
	}
	cores := picked[:n]
	slices.Sort(cores)
	p.Price = r.pick(d.Price)
	p.Base = 50 + r.intn(151) // $0.050–0.200 an hour per core
	factors := priceFactors(r, p.Price, n)
	for i, c := range cores {
		memPerCore := []int{2000, 4000}[r.intn(2)]
		t := ServerType{Name: "c" + strconv.Itoa(c), Limit: r.in(d.Limit), Boot: r.in(d.Boot), Cores: c,
			Memory: memPerCore * c, Disk: 4 * memPerCore * c, Permille: factors[i]}
		// base (m$) × factor (‰) × cores, in cents, rounded half up
		t.Cents = max(1, (p.Base*t.Permille*c+5000)/10000)
		p.Types = append(p.Types, t)
	}
	a, b := r.in(d.Load), r.in(d.Load)
	p.MinLoad, p.MaxLoad = min(a, b, 99), max(a, b)
	p.Jobs = logUniform(r, d.Jobs)
	p.Runs = r.pick(d.Runs)
	p.JobTypes = jobTypes(r, p.Runs)
	p.Estimate = r.pick(d.Estimate)
	p.Failure = r.pick(d.Failure)
	p.Seed = 1 + r.intn(math.MaxInt32-1)
	return p
}

// priceFactors are each type's rate per core in thousandths of the base
// rate, smallest type first.
func priceFactors(r rng, price string, n int) []int {
	f := make([]int, n)
	for i := range f {
		f[i] = 1000
	}
	switch price {
	case "scale": // the i-th type (from 0) at 1/(1 + a·i): each larger type cheaper per core
		a := 50 + r.intn(201) // a = 0.05–0.25
		for i := range f {
			f[i] = 1000000 / (1000 + a*i)
		}
	case "premium": // the smallest k types at up to 1.3–2.5× (the smallest the dearest)
		k := 1 + r.intn(max(1, n/2))
		top := 1300 + r.intn(1201)
		for i := range k {
			f[i] = 1000 + (top-1000)*(k-i)/k
		}
	case "discount": // every type at 50–100 % of the base, at random
		for i := range f {
			f[i] = 500 + r.intn(501)
		}
	}
	return f
}

// logUniform draws a whole number in x about log-uniformly: a doubling
// of x with a chance in proportion to its width on a log scale (the last,
// partial one by its linear share, an approximation within 9 %), then
// uniformly within it.
func logUniform(r rng, x Range) int {
	type octave struct{ lo, hi, weight int }
	var octs []octave
	total := 0
	for lo := x.Lo; lo <= x.Hi; lo *= 2 {
		o := octave{lo, min(2*lo-1, x.Hi), 1000}
		if o.hi < 2*lo-1 {
			o.weight = 1000 * (o.hi - lo + 1) / lo
		}
		octs = append(octs, o)
		total += o.weight
	}
	w := r.intn(max(total, 1))
	for _, o := range octs {
		if w < o.weight || o.hi == x.Hi {
			return o.lo + r.intn(o.hi-o.lo+1)
		}
		w -= o.weight
	}
	return x.Lo // not reached: the last octave ends at x.Hi
}

// jobLengths are the shared configs' five job types.
var jobLengths = []JobType{{"instant", 1, 30, 0}, {"short", 31, 300, 0}, {"medium", 301, 1200, 0},
	{"long", 1201, 3600, 0}, {"xlong", 3601, 7200, 0}}

// mixes are the shared configs' population rates for each runtime mix.
var mixes = map[string][]int{"short": {20, 50, 20, 5, 5}, "medium": {5, 20, 50, 20, 5}, "long": {5, 5, 20, 50, 20}}

func jobTypes(r rng, runs string) []JobType {
	rates, ok := mixes[runs]
	if !ok { // mixed: 100 split at random, every type at least 1
		rates = []int{1, 1, 1, 1, 1}
		for range 95 {
			rates[r.intn(5)]++
		}
	}
	out := slices.Clone(jobLengths)
	for i := range out {
		out[i].Population = rates[i]
	}
	return out
}
