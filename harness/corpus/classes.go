package corpus

import "slices"

// Class is a named kind of config: what it stresses and the dimensions
// its configs are drawn from (a spec may change any of them).
type Class struct {
	Name    string
	Summary string
	Dims    Dims
}

// base is the middle of the road the classes depart from: the shared
// configs' kind (several servers a type, a few hundred to a few thousand
// jobs, ds-sim's estimates, no failures) with boots, sizes, loads and
// runtime mixes drawn, and prices one rate per core.
func base() Dims {
	return Dims{
		Types: Range{3, 6}, Limit: Range{3, 20}, Boot: Range{0, 180},
		Jobs: Range{200, 2000}, Load: Range{10, 90},
		Price: []string{"uniform"}, Runs: []string{"short", "medium", "long"},
		Estimate: []string{"dssim"}, Failure: []string{"none"},
	}
}

func with(change func(*Dims)) Dims {
	d := base()
	change(&d)
	return d
}

var allPrices = []string{"uniform", "scale", "premium", "discount"}

// classes in their canonical order (the order configs come out in).
var classes = []Class{
	{"uniform", "one rate per core for every type: the shared configs' kind, other sizes, boots and loads",
		base()},
	{"scale", "economy of scale: the rate per core falls with the type's size",
		with(func(d *Dims) { d.Price = []string{"scale"} })},
	{"premium", "premium small servers: the smallest types cost more per core",
		with(func(d *Dims) { d.Price = []string{"premium"} })},
	{"discount", "random discounts: each type's rate per core at 50–100 % of the base",
		with(func(d *Dims) { d.Price = []string{"discount"} })},
	{"slowboot", "slow boots: 150–300 s per type",
		with(func(d *Dims) { d.Boot = Range{150, 300} })},
	{"tiny", "tiny overloaded clusters: one or two servers a type, 20–200 jobs at 70–100 % load, any prices",
		with(func(d *Dims) {
			d.Types, d.Limit, d.Jobs, d.Load = Range{2, 9}, Range{1, 2}, Range{20, 200}, Range{70, 100}
			d.Price, d.Runs = allPrices, RunMixes
		})},
	{"small", "few jobs (20–100): no time to learn runtimes online, any prices",
		with(func(d *Dims) { d.Limit, d.Jobs, d.Price = Range{2, 10}, Range{20, 100}, allPrices })},
	{"large", "many jobs (5,000–20,000) on larger clusters, any prices",
		with(func(d *Dims) {
			d.Types, d.Limit, d.Jobs, d.Price = Range{3, 8}, Range{5, 20}, Range{5000, 20000}, allPrices
		})},
	{"estimate", "estimates of another kind than ds-sim's: exact, over-asked, or noisy both ways (a job file)",
		with(func(d *Dims) { d.Estimate = []string{"exact", "over", "noisy"} })},
	{"failure", "servers fail by one of ds-server's six failure models",
		with(func(d *Dims) {
			d.Limit, d.Jobs = Range{3, 10}, Range{100, 1000}
			d.Failure = Failures[1:]
		})},
}

// Classes returns the classes in their canonical order, with their
// default dimensions.
func Classes() []Class {
	out := slices.Clone(classes)
	for i := range out {
		out[i].Dims = out[i].Dims.clone()
	}
	return out
}

func classNamed(name string) (Class, bool) {
	for _, c := range classes {
		if c.Name == name {
			return c, true
		}
	}
	return Class{}, false
}

func classNames() []string {
	out := make([]string, len(classes))
	for i, c := range classes {
		out[i] = c.Name
	}
	return out
}

func (d Dims) clone() Dims {
	d.Price, d.Runs = slices.Clone(d.Price), slices.Clone(d.Runs)
	d.Estimate, d.Failure = slices.Clone(d.Estimate), slices.Clone(d.Failure)
	return d
}
